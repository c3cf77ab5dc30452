import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Control words shared by `simrun fuzz` and its worker processes through one mapped file: the stop
/// line, the interrupt flag, and per worker the run in flight, the runs done and the goals reached.
///
/// Workers publish with plain atomic stores (no system call per run), and the parent reads the slot
/// of a worker that died to learn exactly which seed it was running.
final class WorkerBoard: @unchecked Sendable {
    /// The file descriptor children inherit (mapped again on their side).
    let descriptor: Int32
    let workers: Int
    let goals: Int
    private let words: UnsafeMutablePointer<Atomic<UInt64>>
    private let count: Int

    private static let header = 2
    private var stride: Int { 2 + goals }

    /// Creates an anonymous shared file (unlinked at once) for `workers` workers.
    static func create(workers: Int, goals: Int) throws(CommandFailure) -> WorkerBoard {
        var template = Array("/tmp/simrun-board-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CommandFailure(ExitStatus.cannotWrite, "cannot create the fuzz control file") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let board = try WorkerBoard(descriptor: fd, workers: workers, goals: goals, create: true)
        return board
    }

    /// Maps the board a parent passed down as `descriptor`.
    static func attach(descriptor: Int32, workers: Int, goals: Int) throws(CommandFailure) -> WorkerBoard {
        try WorkerBoard(descriptor: descriptor, workers: workers, goals: goals, create: false)
    }

    private init(descriptor: Int32, workers: Int, goals: Int, create: Bool) throws(CommandFailure) {
        self.descriptor = descriptor
        self.workers = workers
        self.goals = goals
        count = Self.header + workers * (2 + goals)
        let bytes = count * 8
        if create && ftruncate(descriptor, off_t(bytes)) != 0 {
            throw CommandFailure(ExitStatus.cannotWrite, "cannot size the fuzz control file: errno \(errno)")
        }
        let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw CommandFailure(ExitStatus.cannotWrite, "cannot map the fuzz control file: errno \(errno)")
        }
        words = mapped.bindMemory(to: Atomic<UInt64>.self, capacity: count)
        if create {
            for index in 0..<count { (words + index).initialize(to: Atomic(0)) }
            words[0].store(.max, ordering: .relaxed)
        }
    }

    deinit { munmap(words, count * 8) }

    /// The lowest failing seed so far (`.max` when none): no worker starts a seed above it.
    var stopSeed: UInt64 { words[0].load(ordering: .relaxed) }

    /// Lowers the stop line (a compare-exchange loop, as `SharedState` does).
    func lowerStopSeed(to seed: UInt64) {
        var current = words[0].load(ordering: .relaxed)
        while seed < current {
            let (exchanged, original) = words[0].compareExchange(expected: current, desired: seed, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    var isInterrupted: Bool { words[1].load(ordering: .relaxed) != 0 }
    func interrupt() { words[1].store(1, ordering: .relaxed) }

    /// The seed index worker `w` is running, or nil between runs.
    func inFlight(_ worker: Int) -> UInt64? {
        let value = words[Self.header + worker * stride].load(ordering: .relaxed)
        return value == 0 ? nil : value - 1
    }

    func setInFlight(_ worker: Int, _ index: UInt64?) {
        words[Self.header + worker * stride].store(index.map { $0 + 1 } ?? 0, ordering: .relaxed)
    }

    /// Runs completed by worker `w`, across its restarts.
    func runs(_ worker: Int) -> Int { Int(words[Self.header + worker * stride + 1].load(ordering: .relaxed)) }

    func addRun(_ worker: Int, reached goalIndices: some Sequence<Int>) {
        let base = Self.header + worker * stride
        for goal in goalIndices where goal < goals { words[base + 2 + goal].add(1, ordering: .relaxed) }
        words[base + 1].add(1, ordering: .relaxed)
    }

    /// Runs that reached each goal, summed over workers.
    func goalCounts() -> [Int] {
        (0..<goals).map { goal in
            (0..<workers).reduce(0) { $0 + Int(words[Self.header + $1 * stride + 2 + goal].load(ordering: .relaxed)) }
        }
    }

    var totalRuns: Int { (0..<workers).reduce(0) { $0 + runs($1) } }
}
