import SimCore

/// The coroutine scope a Nativeblocks frame hands to every action handler (Android's
/// `ActionProps.coroutineScope`).
///
/// Facts from nativeblocks/nativeblocks-core-sdk, Android runtime `frame/FrameViewModel.kt` and
/// `frame/ActionTree.kt`: the frame's view model builds its `ActionTree` with
/// `coroutineScope = viewModelScope`, and the tree puts that scope into the props of every trigger,
/// so an async handler's work runs in the frame view model's scope. AndroidX cancels
/// `viewModelScope` when the view model is cleared (`onCleared`, where Nativeblocks releases the
/// frame). Cancellation is cooperative: work that has not started never runs, and work suspended
/// (waiting for a reply) does not resume, so its variable writes and next-trigger calls never happen.
/// A frame that only leaves the screen (`rootExited`, onDisappear) is not cleared.
public final class NativeFrameScope {
    unowned let sim: Simulation
    private let name: String
    /// True once the frame was cleared: nothing launched in the scope runs any more.
    public private(set) var isCancelled = false
    /// Steps (launches and resumptions) skipped because the scope was cancelled, in order of labels.
    public private(set) var skipped: [String] = []

    /// The scope of the frame called `name`.
    public init(sim: Simulation, name: String = "frame") {
        self.sim = sim
        self.name = name
    }

    /// Launches `body` as a job on `lane` (a `launch` in the scope); it does not run if the scope
    /// is cancelled before the job's turn.
    public func launch(on lane: String, _ label: String, _ body: @escaping () -> Void) {
        sim.post(on: lane, label) { [self] in runUnlessCancelled(label, body) }
    }

    /// Resumes after `delay` on `lane` (a suspension such as a network call): the continuation does
    /// not run if the scope was cancelled meanwhile.
    public func resume(after delay: Duration, on lane: String, _ label: String, _ body: @escaping () -> Void) {
        sim.after(delay, on: sim.lane(lane), label) { [self] in runUnlessCancelled(label, body) }
    }

    /// Clears the frame: cancels the scope (`viewModelScope` when the view model is cleared).
    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        sim.emit("frame.cleared", name)
    }

    private func runUnlessCancelled(_ label: String, _ body: () -> Void) {
        guard !isCancelled else {
            skipped.append(label)
            sim.emit("action.cancelled", name, ["step": .text(label)])
            return
        }
        body()
    }
}
