/// One entered view: Player creates a new `ViewInstance` each time the flow enters a view state
/// (player-ui/player `core/player/src/controllers/view/controller.ts`, `onView`), so an update
/// queued for one instance is not an update of the next, even for the same view reference.
public final class PlayerViewInstance {
    /// The view's reference in the flow.
    public let ref: String
    /// 1-based, in the order views were entered.
    public let number: Int
    /// False once the flow has transitioned away from this instance.
    public internal(set) var isCurrent = true

    init(ref: String, number: Int) {
        self.ref = ref
        self.number = number
    }
}

/// Whether the native side applies an update of a view instance the flow has already left.
public enum PlayerStaleUpdatePolicy: String, Sendable {
    /// What Player does: every resolved update reaches `onUpdate` and the native side, whichever view
    /// the flow is on by then (issue #485, open, counts the old view's extra update; PR #471's core
    /// change was reverted).
    case deliver
    /// The proposal of issue #485 ("checking the view to be updated against current view being
    /// shown"): the native side drops an update whose instance is no longer current (`view.dropped`).
    case drop
}

/// How the native side turns a view update into what is on screen.
public enum PlayerNativeRendering: String, Sendable {
    /// iOS SwiftUI: each update is applied by one `main` job, in the order the core sent them.
    case mainQueue
    /// Android before the fix: each update is hydrated on its own coroutine and applied on `main`
    /// when done, so two updates in flight may be applied in either order (player-ui/player #403).
    case hydrateConcurrently
    /// Android as shipped: as `hydrateConcurrently`, but a new update cancels the rendering job of
    /// the previous one (`renderingJob?.cancel("handling new update")` in
    /// `android/player/src/main/kotlin/com/intuit/playerui/android/ui/PlayerFragment.kt`), so only
    /// the last update sent is shown.
    case cancelPreviousRender
}
