import SimCore
import SimModels

/// pointfreeco/swift-composable-architecture issue #3563 ("Unable to cancel an concatenated Effect
/// before it's being run"; open, related to #1848).
///
/// A downloads screen queues two files one after another: `.concatenate` of two cancellable
/// downloads, each sleeping 1s on the virtual clock. The user taps Cancel on the second file at 1s,
/// the moment the first finishes. A `.cancellable` part registers only when the concatenation
/// reaches it, so a Cancel that lands before the first download ends misses the queued second one,
/// which then downloads anyway. `buggy` is TCA as shipped; `fixed` registers cancellable parts when
/// the effect is returned, the behaviour the issue expects (no upstream fix yet).
public enum TCAConcatenatedCancel {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "tca-concatenated-cancel",
        summary:
            "a pending effect in a concatenation cannot be cancelled before it starts"
            + " (pointfreeco/swift-composable-architecture #3563) — deterministic: fifo fails",
        variants: [
            .init("buggy", "TCA as shipped: a cancellable part registers when the concatenation reaches it"),
            .init("fixed", "registration when the effect is returned (what #3563 expects; not shipped)"),
        ],
        setUp: { simulation, variant in
            setUp(simulation, registration: variant == "fixed" ? .whenReturned : .whenStarted)
        })

    enum Action: Equatable, Sendable {
        case downloadAll
        case cancel(String)
        case finished(String)
    }
    struct State: Equatable {
        var finished: [String] = []
        var cancelled: [String] = []
    }

    /// Which downloads ran to the end, and which the user had cancelled by then.
    ///
    /// `@unchecked Sendable`: written by effect tasks and `main` jobs, all on the simulation's one thread.
    final class Probe: @unchecked Sendable {
        var cancelTapped: [String] = []
        var downloadedAfterCancel: [String] = []
    }

    static let files = ["a.zip", "b.zip"]

    static func setUp(_ simulation: Simulation, registration: TCA.CancellationRegistration) {
        let probe = Probe()
        let clock = simulation.clock
        let reducer = TCA.Reduce<State, Action>("Downloads") { state, action in
            switch action {
            case .downloadAll:
                return .concatenate(
                    files.map { file in
                        TCA.Effect<Action>.run(name: "download") { send in
                            try await clock.sleep(for: .seconds(1))
                            if probe.cancelTapped.contains(file) { probe.downloadedAfterCancel.append(file) }
                            await send(.finished(file))
                        }
                        .cancellable(id: file)
                    })
            case .cancel(let file):
                state.cancelled.append(file)
                return .cancel(id: file)
            case .finished(let file):
                state.finished.append(file)
                return .none
            }
        }
        let store = TCA.Store(
            simulation, name: "downloads", initialState: State(), reducer: reducer, registration: registration)
        let main = simulation.lane(TCA.mainLane)
        simulation.post(main, simulation.symbol("user.downloadAll")) { store.send(.downloadAll) }
        // Cancel the queued file at the moment the first download is due to finish.
        simulation.after(.seconds(1), on: main, "user.cancel") {
            probe.cancelTapped.append(files[1])
            store.send(.cancel(files[1]))
        }

        simulation.always("tca.bookkeeping") { store.invariantViolation() }
        simulation.always("cancelled-download-does-not-run") {
            guard let file = probe.downloadedAfterCancel.first else { return nil }
            return "\(file) downloaded although the user cancelled it while it was queued"
        }
        simulation.sometimes("cancel missed a queued part") { store.missedCancellations > 0 }
        simulation.sometimes("cancel reached a running part") { store.cancelledEffects > 0 }
        simulation.sometimes("first download finished") { store.state.finished.contains(files[0]) }
    }
}
