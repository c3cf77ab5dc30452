import Foundation
import SimCapture
import SimCore

/// A profile screen decodes each avatar on a `Thread` of its own and hops back with
/// `DispatchQueue.main.async` — the pre-concurrency way many apps still do it. The user opens Alice's
/// profile, then Bob's; each decode takes 100 or 400 ms (`Thread.sleep`, a data choice of the run).
/// When Alice's decode finishes last, her avatar lands on Bob's profile.
///
/// `buggy` assigns whatever decode finishes; `fixed` drops a decoded avatar whose profile is no longer
/// the one shown. Threads run as carriers of the run (each on a lane of its own, its sleeps on the
/// virtual clock, its hop back to `main` a job like any), so this needs `--preempt` (carriers); on the
/// one-thread path a thread would leave the run, and the run fails saying so instead of passing.
public enum ThreadAvatarDecode {
    /// The scenario: `buggy`, `fixed`.
    public static let scenario: Scenario = {
        var scenario = Scenario.async(
            name: "thread-avatar-decode",
            summary:
                "avatars decoded on a Thread each hop back with DispatchQueue.main.async: the older one lands on the"
                + " newer profile — a race; threads run as carriers (--preempt)",
            variants: [
                .init("buggy", "the decoded avatar is shown whatever profile is open"),
                .init("fixed", "a decoded avatar is dropped unless its profile is still the one shown"),
            ],
            limits: RunLimits(maxSteps: 2_000)
        ) { simulation, variant in
            let tally = DecodeTally()
            let screen = await ProfileScreen(simulation: simulation, checksProfile: variant == "fixed", tally: tally)
            simulation.sometimes("the older decode finished last") { tally.staleAfterCurrent > 0 }
            await screen.open("alice")
            try? await Task.sleep(for: .milliseconds(50))
            await screen.open("bob")
            try? await Task.sleep(for: .seconds(1))
            let (shown, avatar) = await (screen.profile, screen.avatar)
            simulation.check(
                "avatar-matches-profile", avatar == nil || avatar == "avatar(\(shown))",
                "the screen shows \(shown) with \(avatar ?? "no avatar")")
        }
        scenario.bugNeeds = .preemptLocks
        return scenario
    }()
}

@MainActor final class ProfileScreen {
    let simulation: Simulation
    let checksProfile: Bool
    private(set) var profile = ""
    private(set) var avatar: String?
    let tally: DecodeTally

    init(simulation: Simulation, checksProfile: Bool, tally: DecodeTally) {
        self.simulation = simulation
        self.checksProfile = checksProfile
        self.tally = tally
    }

    func open(_ name: String) {
        profile = name
        let latency = [0.1, 0.4][simulation.choose(2, "decode.latency")]
        Thread { [self] in
            Thread.sleep(forTimeInterval: latency)  // decoding
            let decoded = "avatar(\(name))"
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self.show(decoded, for: name) }
            }
        }.start()
    }

    private func show(_ decoded: String, for name: String) {
        if name != profile && avatar == "avatar(\(profile))" { tally.staleAfterCurrent += 1 }
        if checksProfile && name != profile { return }
        avatar = decoded
    }
}

/// Decodes that finished for a profile no longer shown, after the shown profile's own (read between jobs).
final class DecodeTally: @unchecked Sendable {
    var staleAfterCurrent = 0
}
