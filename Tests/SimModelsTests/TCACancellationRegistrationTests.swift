import SimCore
import SimModels
import SimTestSupport
import Testing

/// `.start` queues two cancellable downloads one after another (`.concatenate`); `.a` cancels the
/// second. `.b` and `.c` record that a download finished.
private func downloadsStore(_ sim: Simulation, registration: TCA.CancellationRegistration)
    -> TCA.Store<TCA.Reduce<TCALogState, TCALogAction>>
{
    let clock = sim.clock
    let reducer = tcaLoggingReducer { action in
        switch action {
        case .start:
            return .concatenate(
                TCA.Effect<TCALogAction>.run(name: "first") { send in
                    try await clock.sleep(for: .milliseconds(10))
                    await send(.b)
                }
                .cancellable(id: "first"),
                TCA.Effect<TCALogAction>.run(name: "second") { send in
                    try await clock.sleep(for: .milliseconds(10))
                    await send(.c)
                }
                .cancellable(id: "second"))
        case .a: return .cancel(id: "second")
        case .b, .c: return .none
        }
    }
    return TCA.Store(sim, name: "downloads", initialState: TCALogState(), reducer: reducer, registration: registration)
}

@Suite struct TCACancellationRegistrationTests {
    /// pointfreeco/swift-composable-architecture #3563: TCA registers a cancellable part when the
    /// concatenation reaches it, so cancelling a queued part does nothing.
    @Test func aQueuedPartOfAConcatenationIsMissedWhenRegisteredOnStart() {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let store = downloadsStore(sim, registration: .whenStarted)
        sim.post(on: TCA.mainLane, "view") {
            store.send(.start)
            store.send(.a)
        }
        #expect(sim.run().verdict == .pass)
        #expect(store.state.log == ["start", "a", "b", "c"], "the cancelled second download still ran")
        #expect(store.missedCancellations == 1)
    }

    /// What #3563 expects: registered when returned, the queued part is skipped and the running one
    /// is untouched.
    @Test func aQueuedPartIsSkippedWhenRegisteredOnReturn() {
        let sink = MemorySink()
        let sim = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let store = downloadsStore(sim, registration: .whenReturned)
        sim.post(on: TCA.mainLane, "view") {
            store.send(.start)
            store.send(.a)
        }
        sim.always("bookkeeping") { store.invariantViolation() }
        #expect(sim.run().verdict == .pass)
        #expect(store.state.log == ["start", "a", "b"])
        #expect(store.missedCancellations == 0 && store.cancelledEffects == 1)
        #expect(PlayerElementsProbe.lines(sink, only: ["effect.skip"]) == ["effect.skip String.second"])
        #expect(store.inFlightEffects.isEmpty)
    }

    /// A view observing the store sees the state written back after each batch, once per `send`.
    @Test func observersSeeTheStateOnceAfterEachBatch() {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let store = TCA.Store(
            sim, name: "log", initialState: TCALogState(),
            reducer: tcaLoggingReducer { $0 == .start ? .send(.a) : .none })
        var seen: [[String]] = []
        store.observe { seen.append($0.log) }
        sim.post(on: TCA.mainLane, "view") {
            store.send(.start)
            store.send(.b)
        }
        #expect(sim.run().verdict == .pass)
        #expect(seen == [["start", "a"], ["start", "a", "b"]])
    }
}
