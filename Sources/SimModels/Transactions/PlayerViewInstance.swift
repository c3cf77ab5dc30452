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

/// What a view instance does with an update that arrives after the flow transitioned away from it.
public enum PlayerStaleUpdatePolicy: String, Sendable {
    /// Before player-ui/player PR #471: the old instance still resolves and calls its `onUpdate`,
    /// so the native side may render the previous view again (issue #403; #485 counts the extra
    /// update the `.input` commit before a transition produces).
    case deliver
    /// PR #471: the instance knows the flow transitioned and drops the update (a `view.dropped` event).
    case drop
}

/// How the native side turns a view update into what is on screen.
public enum PlayerNativeRendering: String, Sendable {
    /// iOS SwiftUI: each update is applied by one `main` job, in the order the core sent them.
    case mainQueue
    /// Android: each update is hydrated on its own coroutine and applied on `main` when done, so
    /// two updates in flight may be applied in either order (the race of player-ui/player #403).
    case hydrateConcurrently
}
