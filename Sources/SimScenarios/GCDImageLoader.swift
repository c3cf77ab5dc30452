import Dispatch
import SimCapture
import SimCore

/// `gcd-image-loader`: a profile screen decodes avatars on a concurrent `DispatchQueue` and hops back
/// with `DispatchQueue.main.async`; the user opens Alice's profile, then Bob's. Alice's photo is large
/// (decoded in two passes, the second queued by the first), Bob's small (one pass).
///
/// Variants:
/// - `buggy`: the decoded image is applied on `main` unconditionally: when Alice's slower decode ends
///   after Bob's, Bob's screen shows Alice's avatar.
/// - `fixed`: the hop back checks that the profile it decoded for is still the one shown.
///
/// Oracle (`avatar-matches-profile`): at the end, the avatar shown is the shown profile's.
public enum GCDImageLoader {
    /// The scenario, with variants `buggy` (default) and `fixed`.
    public static let scenario = Scenario(
        name: "gcd-image-loader",
        summary: "GCD: a slower decode for a profile the user left replaces the current avatar (main.async back "
            + "from a concurrent queue)",
        variants: [
            .init("buggy", "the decoded avatar is applied on main unconditionally"),
            .init("fixed", "the hop back to main ignores an avatar decoded for a profile no longer shown"),
        ],
        setUp: { simulation, variant in setUp(simulation, checksProfile: variant == "fixed") }
    )

    /// The screen's state, touched only on the main queue.
    final class ProfileScreen: @unchecked Sendable {
        let checksProfile: Bool
        let decodeQueue = DispatchQueue(label: "image-decode", attributes: .concurrent)
        var shownProfile: String?
        var avatar: String?

        init(checksProfile: Bool) { self.checksProfile = checksProfile }

        /// The user opens `profile` (on main).
        func show(_ profile: String, passes: Int) {
            shownProfile = profile
            avatar = nil
            decode(profile, passesLeft: passes)
        }

        private func decode(_ profile: String, passesLeft: Int) {
            decodeQueue.async {
                if passesLeft > 1 {
                    self.decode(profile, passesLeft: passesLeft - 1)
                    return
                }
                let image = "avatar(\(profile))"
                DispatchQueue.main.async { self.apply(image, for: profile) }
            }
        }

        /// Avatars that came back for a profile no longer shown.
        var staleArrivals = 0

        private func apply(_ image: String, for profile: String) {
            if profile != shownProfile { staleArrivals += 1 }
            if checksProfile && profile != shownProfile { return }
            avatar = image
        }
    }

    static func setUp(_ simulation: Simulation, checksProfile: Bool) {
        guard DispatchCapturing.requireActive(simulation) else { return }
        let screen = ProfileScreen(checksProfile: checksProfile)
        DispatchQueue.main.async { screen.show("alice", passes: 2) }
        DispatchQueue.main.async { screen.show("bob", passes: 1) }
        simulation.sometimes("alice-decoded-after-bob-shown") { screen.staleArrivals > 0 }
        simulation.atEnd("avatar-matches-profile") {
            let expected = screen.shownProfile.map { "avatar(\($0))" }
            guard screen.avatar != expected else { return nil }
            return "the screen shows \(screen.shownProfile ?? "no profile") with \(screen.avatar ?? "no avatar")"
        }
    }
}
