import SimCore

/// A benchmark thread: a lane running its operations one job at a time.
public final class BenchThread {
    /// The thread's name, which is also its lane's.
    public let name: String
    let lane: LaneID
    private var frames: [Frame] = []
    /// The primitive operation the thread is about to perform (its posted job), or nil.
    var next: BenchOp?
    /// Set by a signal while the thread waits on a condition.
    var signalled = false
    /// The thread has run all its operations.
    public internal(set) var finished = false
    /// `spawn` has started it.
    public internal(set) var started = false

    private struct Frame {
        let ops: [BenchOp]
        var index: Int
        /// The condition of the loop this frame is the body of (re-checked at the end), or nil.
        let loop: (() -> Bool)?
    }

    init(name: String, lane: LaneID, ops: [BenchOp]) {
        self.name = name
        self.lane = lane
        frames = [Frame(ops: ops, index: 0, loop: nil)]
    }

    /// Makes the re-taking of `mutex` after a wait on `condition` the thread's next operation.
    func pushReacquire(_ condition: BenchCondition, _ mutex: BenchMutex) {
        frames.append(Frame(ops: [.reacquire(condition, mutex)], index: 0, loop: nil))
    }

    /// Moves to the next primitive operation, evaluating control flow on the way; nil at the end.
    func advance() -> BenchOp? {
        while var frame = frames.popLast() {
            if frame.index == frame.ops.count {
                if let condition = frame.loop, condition() {
                    frame.index = 0
                    frames.append(frame)
                }
                continue
            }
            let op = frame.ops[frame.index]
            frame.index += 1
            frames.append(frame)
            switch op {
            case .loop(let condition, let body):
                if condition() { frames.append(Frame(ops: body, index: 0, loop: condition)) }
            case .branch(let condition, let then, let otherwise):
                frames.append(Frame(ops: condition() ? then : otherwise, index: 0, loop: nil))
            case .local(let body):
                body()
            case .deferred(let make):
                frames.append(Frame(ops: [make()], index: 0, loop: nil))
            default:
                return op
            }
        }
        return nil
    }
}
