import SimCore

/// A concurrent program on the kernel, in the terms of SCTBench: threads (each a lane), mutexes,
/// condition variables, spawn and join. Each primitive operation is one job, so a schedule is the
/// sequence of scheduling points the study counted. A thread whose next operation cannot proceed
/// (a held mutex, an unsignalled wait, an unfinished join) is parked; when every unfinished thread is
/// parked the run ends in the kernel's `deadlock` verdict.
///
/// ```swift
/// let program = BenchProgram(sim)
/// let m = program.mutex("m")
/// let balance = sim.shared("balance", 1)
/// let t = program.thread("deposit") {
///     BenchOp.lock(m)
///     BenchOp.step("write balance") { balance.write(balance.read() + 2) }
///     BenchOp.unlock(m)
/// }
/// program.main {
///     BenchOp.spawn(t)
///     BenchOp.join(t)
/// }
/// ```
public final class BenchProgram {
    /// The simulation the program runs in (which outlives it: its queued jobs hold the program).
    public unowned let simulation: Simulation
    private var threadNames: Set<String> = []
    /// Started threads whose next operation may block (lock, re-take after a wait, join): the only
    /// ones whose parking can change. Not owned: a thread lives while its queued job refers to it,
    /// so operations may capture the program without a cycle that would outlive the run.
    private var mayBlock: [WeakThread] = []
    private var labels: [String: Symbol] = [:]

    /// A program on `simulation`; threads start with `main` and `spawn`.
    public init(_ simulation: Simulation) {
        self.simulation = simulation
    }

    /// A mutex named `name`.
    public func mutex(_ name: String) -> BenchMutex { BenchMutex(name: name) }

    /// A condition variable named `name`.
    public func condition(_ name: String) -> BenchCondition { BenchCondition(name: name) }

    /// A thread named `name` (its lane's name), not yet started: `spawn` it.
    public func thread(_ name: String, @BenchOps _ body: () -> [BenchOp]) -> BenchThread {
        precondition(threadNames.insert(name).inserted, "two threads named \(name)")
        let thread = BenchThread(name: name, lane: simulation.lane(name), ops: body())
        return thread
    }

    /// The main thread, started at once.
    @discardableResult
    public func main(@BenchOps _ body: () -> [BenchOp]) -> BenchThread {
        let thread = self.thread("main", body)
        start(thread)
        return thread
    }

    /// The original's `assert`: a failed check ends the run with an `assertion` failure.
    public func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { simulation.fail("assertion", message()) }
    }

    /// A memory-safety error the original would crash on (out-of-bounds index, use after free).
    public func crash(_ message: String) {
        simulation.fail("crash", message)
    }

    // MARK: Running

    private func start(_ thread: BenchThread) {
        thread.started = true
        postNext(of: thread)
        refreshParking()
    }

    /// Posts the job of the thread's next primitive operation, or marks it finished.
    private func postNext(of thread: BenchThread) {
        guard let op = thread.advance() else {
            thread.next = nil
            thread.finished = true
            return
        }
        thread.next = op
        switch op {
        case .lock, .reacquire, .join:
            if !mayBlock.contains(where: { $0.thread === thread }) { mayBlock.append(WeakThread(thread: thread)) }
        default: break
        }
        simulation.post(thread.lane, symbol(label(of: op))) {
            self.perform(op, on: thread)
            self.postNext(of: thread)
            self.refreshParking()
        }
    }

    private func perform(_ op: BenchOp, on thread: BenchThread) {
        switch op {
        case .step(_, let body):
            body()
        case .lock(let mutex):
            precondition(mutex.owner == nil, "a parked lock ran")
            mutex.owner = thread.name
        case .unlock(let mutex):
            mutex.owner = nil
        case .wait(let condition, let mutex):
            mutex.owner = nil
            thread.signalled = false
            condition.waiters.append(WeakWaiter(thread: thread))
            // The thread's next job re-takes the mutex once signalled.
            thread.pushReacquire(condition, mutex)
        case .reacquire(_, let mutex):
            precondition(mutex.owner == nil && thread.signalled, "a parked wait ran")
            thread.signalled = false
            mutex.owner = thread.name
        case .signal(let condition):
            if !condition.waiters.isEmpty { condition.waiters.removeFirst().thread?.signalled = true }
        case .broadcast(let condition):
            for waiter in condition.waiters { waiter.thread?.signalled = true }
            condition.waiters.removeAll()
        case .spawn(let other):
            precondition(!other.started, "\(other.name) spawned twice")
            start(other)
        case .join, .loop, .branch, .local, .deferred:
            break
        }
    }

    /// Parks every thread whose next operation cannot proceed and unparks the rest, scanning only the
    /// threads at a blocking operation (cheaper than waiter lists per mutex, condition and thread).
    private func refreshParking() {
        var index = 0
        while index < mayBlock.count {
            guard let thread = mayBlock[index].thread, let op = thread.next, blocks(op) else {
                // It ran its blocking operation (or ended): no longer a candidate for parking.
                if let thread = mayBlock[index].thread { simulation.unpark(thread.lane) }
                mayBlock.remove(at: index)
                continue
            }
            if canRun(op, thread) {
                simulation.unpark(thread.lane)
            } else if !simulation.isParked(thread.lane) {
                // Described when a deadlock is reported, from the state then.
                simulation.park(thread.lane) { [op] in self.blockReason(op, thread) ?? "nothing" }
            }
            index += 1
        }
    }

    private func blocks(_ op: BenchOp) -> Bool {
        switch op {
        case .lock, .reacquire, .join: true
        default: false
        }
    }

    /// Whether `op` can run now.
    private func canRun(_ op: BenchOp, _ thread: BenchThread) -> Bool {
        switch op {
        case .lock(let mutex): mutex.owner == nil
        case .reacquire(_, let mutex): thread.signalled && mutex.owner == nil
        case .join(let other): other.finished
        default: true
        }
    }

    /// What `op` waits for, or nil when it can run now (for the deadlock message).
    private func blockReason(_ op: BenchOp, _ thread: BenchThread) -> String? {
        switch op {
        case .lock(let mutex):
            guard let owner = mutex.owner else { return nil }
            return "lock \(mutex.name) (held by \(owner))"
        case .reacquire(let condition, let mutex):
            guard thread.signalled else { return "wait \(condition.name)" }
            guard let owner = mutex.owner else { return nil }
            return "lock \(mutex.name) (held by \(owner))"
        case .join(let other):
            return other.finished ? nil : "join \(other.name)"
        default:
            return nil
        }
    }

    private func label(of op: BenchOp) -> String {
        switch op {
        case .step(let label, _): label
        case .lock(let mutex): "lock \(mutex.name)"
        case .unlock(let mutex): "unlock \(mutex.name)"
        case .wait(let condition, _): "wait \(condition.name)"
        case .reacquire(_, let mutex): "lock \(mutex.name)"
        case .signal(let condition): "signal \(condition.name)"
        case .broadcast(let condition): "broadcast \(condition.name)"
        case .spawn(let thread): "spawn \(thread.name)"
        case .join(let thread): "join \(thread.name)"
        case .loop, .branch, .local, .deferred: "control"
        }
    }

    private func symbol(_ text: String) -> Symbol {
        if let known = labels[text] { return known }
        let interned = simulation.symbol(text)
        labels[text] = interned
        return interned
    }
}

private struct WeakThread {
    weak var thread: BenchThread?
}
