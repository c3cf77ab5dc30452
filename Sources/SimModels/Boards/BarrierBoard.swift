import SimCore

/// A command for a `BarrierBoard` (Boardy's `BarrierBoard.Action`).
public enum BarrierAction {
    /// Queue work until the barrier is overcome.
    case wait((BoardValue) -> Void)
    /// Run every queued waiter with the value, send it as output, and complete.
    case overcome(BoardValue)
    /// Drop the queued waiters and complete unsuccessfully.
    case cancel

    var summary: String {
        switch self {
        case .wait: "wait"
        case .overcome(let value): "overcome(\(value))"
        case .cancel: "cancel"
        }
    }
}

/// Holds work until a value it waits for arrives (Boardy's ComponentKit `BarrierBoard`).
///
/// Facts from congncif/Boardy `Boardy/ComponentKit/BarrierBoard.swift`: the waiter list lives behind
/// a concurrent queue; `.wait` appends with an *async* barrier block, `.overcome` reads the list
/// with a *sync* block (so it sees every append enqueued before it), runs the waiters in order,
/// sends the value, then clears with another *async* barrier block and completes; `.cancel` clears
/// (async) and completes with `isDone == false`. Reading and clearing are two separate blocks, so
/// an append enqueued between them is cleared without ever running: the lost-wait race. Once
/// completed, the board is removed, so the next activation builds a new barrier.
///
/// Model: the queue's pending blocks are `pendingBlocks`, each executed by a job on the queue's lane
/// (`barrier.<id>`); the sync read first executes every pending block, as `queue.sync` waits for
/// them. The overcoming caller's thread is split after the read and after delivery (see
/// `Simulation.continueCall`) so that other lanes can run in between, as other threads do.
public final class BarrierBoard: ActivatableBoard {
    private struct Waiter {
        let number: Int
        let run: (BoardValue) -> Void
    }

    private enum Block {
        case append(Waiter)
        case clear(reason: String)
    }

    /// The board's address within its motherboard.
    public let identifier: String
    /// The motherboard it sends to; weak, as in Boardy.
    public weak var delegate: Motherboard?
    unowned let sim: Simulation
    private let queueLane: LaneID
    private var waiters: [Waiter] = []
    private var pendingBlocks: [Block] = []
    private var nextWaiter = 0
    /// Waiters an overcome has read (and so will run): clearing them is not losing them.
    private var delivered: [Int] = []

    /// Waiters that ran, and waiters cleared by an overcome (lost) or a cancel (dropped).
    public private(set) var ran = 0
    /// Waiters an overcome cleared without running them.
    public private(set) var lost = 0
    /// Waiters a cancel cleared.
    public private(set) var dropped = 0
    /// True once an overcome or cancel was received: this barrier is finished.
    public private(set) var isFinished = false

    /// Waiters stored now that no overcome has read.
    public var waiterCount: Int { waiters.filter { !delivered.contains($0.number) }.count }
    /// Waits requested so far.
    public var waitCount: Int { nextWaiter }

    /// A barrier board.
    public init(_ identifier: String, sim: Simulation) {
        self.identifier = identifier
        self.sim = sim
        self.queueLane = sim.lane("barrier." + identifier)
    }

    /// Stores a waiter, or overcomes or cancels the barrier, as the option says.
    public func activate(withOption option: BoardOption) {
        guard case .barrier(let action) = option else {
            sim.emit("board.drop", identifier, ["reason": "wrong option"])
            return
        }
        switch action {
        case .wait(let run):
            nextWaiter += 1
            sim.emit("barrier.wait", identifier, ["waiter": .int(nextWaiter), "phase": "enqueue"])
            enqueue(.append(Waiter(number: nextWaiter, run: run)))
        case .cancel:
            isFinished = true
            sim.emit("barrier.cancel", identifier, ["waiters": .int(waiters.count)])
            enqueue(.clear(reason: "cancel"))
            complete(false, in: sim)
        case .overcome(let value):
            overcome(value)
        }
    }

    private func overcome(_ value: BoardValue) {
        isFinished = true
        // queue.sync: every block enqueued before the read has run when the read happens.
        flushPendingBlocks()
        let snapshot = waiters
        delivered.append(contentsOf: snapshot.map(\.number))
        sim.emit("barrier.overcome", identifier, ["phase": "read", "waiters": .int(snapshot.count)])
        sim.continueCall("barrier.deliver") { [self] in
            for waiter in snapshot {
                ran += 1
                sim.emit("barrier.run", identifier, ["waiter": .int(waiter.number)])
                waiter.run(value)
            }
            sendOutput(value, in: sim)
            sim.continueCall("barrier.clear") { [self] in
                sim.emit("barrier.overcome", identifier, ["phase": "clear"])
                enqueue(.clear(reason: "overcome"))
                complete(true, in: sim)
            }
        }
    }

    // MARK: The queue

    private func enqueue(_ block: Block) {
        pendingBlocks.append(block)
        sim.post(queueLane, sim.symbol("barrier.block")) { [self] in
            // A sync read may already have executed this block.
            guard !pendingBlocks.isEmpty else { return }
            execute(pendingBlocks.removeFirst())
        }
    }

    private func flushPendingBlocks() {
        while !pendingBlocks.isEmpty { execute(pendingBlocks.removeFirst()) }
    }

    private func execute(_ block: Block) {
        switch block {
        case .append(let waiter):
            waiters.append(waiter)
            sim.emit("barrier.wait", identifier, ["waiter": .int(waiter.number), "phase": "stored"])
        case .clear(let reason):
            let cleared = waiters.filter { !delivered.contains($0.number) }.count
            waiters.removeAll()
            if reason == "overcome" { lost += cleared } else { dropped += cleared }
            sim.emit("barrier.clear", identifier, ["reason": .text(reason), "unrun": .int(cleared)])
        }
    }
}
