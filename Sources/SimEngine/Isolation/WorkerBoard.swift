import SimCore
import Synchronization
import SystemPackage

/// Control words shared by `simrun fuzz` and its worker processes through one mapped file: the stop
/// line, the interrupt flag, and per worker the run in flight, the runs done, the goals reached, the
/// failures counted and a small table of the distinct failures seen.
///
/// Workers publish with plain atomic stores (no system call per run), and the parent reads the slot
/// of a worker that died to learn exactly which seed it was running. Everything a worker published
/// before it died stays on the board, so failures recorded here survive a trapping model (a pipe
/// line per failure cost a `write` in the worker and a wake-up in the parent: 40% of lost-input runs
/// fail). Each worker's words start on their own cache line (two workers updating one line made it
/// bounce between the cores on every run).
///
/// Seed indices are handed out in chunks from one shared counter, so a worker that gets less of
/// the machine (two shared cores) takes fewer chunks instead of holding the campaign up.
///
/// Header words: stop line, interrupt flag, next unclaimed seed index. Worker words: in flight
/// (index + 1, 0 = none), runs, failures, failure slots used, the end of its current chunk, the
/// goal counts, then `failureSlots` slots of (signature hash, first seed, its digest, occurrences),
/// then runs without decisions, uncontrolled slots used and `uncontrolledSlots` slots of (kind hash,
/// runs, occurrences). After the workers, one table for the whole campaign: the distinct schedule
/// digests (`digestSlots` words, open addressing, filled with compare-and-swap by every worker), how
/// many, and whether the table filled up (then the count is a lower bound). What an uncontrolled
/// kind is called, and its first example, go to the parent as an `UncontrolledLine`, once per
/// kind and worker (a worker's seeds only grow, so that is its lowest seed's).
package final class WorkerBoard: CampaignBoard, @unchecked Sendable {
    /// The descriptor number a worker child finds the board on (a ``ChildJob/work(_:)`` child maps it).
    package static let childDescriptor: Int32 = 3
    /// The file descriptor children inherit (mapped again on their side).
    package let descriptor: Int32
    package let workers: Int
    package let goals: Int
    /// Where a worker sends a failure that found no free slot (its stdout).
    private let overflow: @Sendable (String) -> Void
    /// The lock orders this process has printed.
    private let printedOrders = Mutex(LockOrderTable())
    private let words: UnsafeMutablePointer<Atomic<UInt64>>
    private let count: Int
    /// The uncontrolled kinds this process has printed an example of (a worker's own memory).
    private let kindsPrinted = Mutex<Set<String>>([])

    /// Distinct failures a worker keeps on the board; past that it prints a line per failure.
    package static let failureSlots = 32
    /// Words before the first worker's (``HeaderWord``), padded to a cache line.
    private static let header = 8
    /// The board's header words, shared by every worker.
    private enum HeaderWord {
        /// The lowest failing seed (`.max` when none).
        static let stopLine = 0
        /// Nonzero once the campaign is interrupted.
        static let interrupted = 1
        /// The next unclaimed seed index (chunks are claimed from it).
        static let nextIndex = 2
    }
    /// A worker's words, from its base: then its goal counts (from `goalBase`), then its failure slots.
    private enum WorkerWord {
        /// The seed index in flight, plus one (0: none).
        static let inFlight = 0
        /// Runs completed, across restarts.
        static let runs = 1
        /// Failing runs counted, across restarts.
        static let failures = 2
        /// Failure slots filled in (published with release, read with acquire).
        static let slotsUsed = 3
        /// The end (exclusive) of the worker's current chunk.
        static let chunkEnd = 4
    }
    /// A failure slot's words, from its first.
    private enum SlotWord {
        static let signature = 0
        /// The worker's first (lowest) seed with the signature.
        static let seed = 1
        /// That run's digest.
        static let digest = 2
        static let occurrences = 3
    }
    private static let slotWords = 4
    private static let goalBase = WorkerWord.chunkEnd + 1
    /// Uncontrolled kinds a worker counts on the board; a kind past them is counted in the last slot.
    package static let uncontrolledSlots = 8
    private static let uncontrolledWords = 3
    /// Slots of the campaign's schedule-digest table: twice ``Explored/maxCounted``, so the table
    /// is at most half full while the count is exact.
    package static let digestSlots = 2 * Explored.maxCounted
    private let stride: Int
    private var slotBase: Int { Self.goalBase + goals }
    /// Worker words after the failure slots: runs without decisions, uncontrolled slots used, slots.
    private var silentBase: Int { slotBase + Self.failureSlots * Self.slotWords }
    /// The digest table's first word; then its count and its full flag.
    private var digestBase: Int { Self.header + workers * stride }

    /// Creates an anonymous shared file (unlinked at once) for `workers` workers.
    package static func create(workers: Int, goals: Int) throws(SimEngineError) -> WorkerBoard {
        var template = Array("/tmp/simrun-board-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw SimEngineError(.cannotWrite, "cannot create the fuzz control file: \(Errno(rawValue: errno))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let board = try WorkerBoard(descriptor: fd, workers: workers, goals: goals, create: true, overflow: { _ in })
        return board
    }

    /// Maps the board a parent passed down as `descriptor`; failures past the slots go to `overflow`.
    package static func attach(
        descriptor: Int32, workers: Int, goals: Int, overflow: @escaping @Sendable (String) -> Void
    ) throws(SimEngineError) -> WorkerBoard {
        try WorkerBoard(descriptor: descriptor, workers: workers, goals: goals, create: false, overflow: overflow)
    }

    private init(
        descriptor: Int32, workers: Int, goals: Int, create: Bool, overflow: @escaping @Sendable (String) -> Void
    ) throws(SimEngineError) {
        self.descriptor = descriptor
        self.overflow = overflow
        self.workers = workers
        self.goals = goals
        // Rounded up to whole 64-byte lines.
        stride =
            (Self.goalBase + goals + Self.failureSlots * Self.slotWords + 2 + Self.uncontrolledSlots
                * Self.uncontrolledWords + 7) / 8 * 8
        count = Self.header + workers * stride + Self.digestSlots + 2
        let bytes = count * 8
        if create && ftruncate(descriptor, off_t(bytes)) != 0 {
            throw SimEngineError(.cannotWrite, "cannot size the fuzz control file: \(Errno(rawValue: errno))")
        }
        let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw SimEngineError(.cannotWrite, "cannot map the fuzz control file: \(Errno(rawValue: errno))")
        }
        words = mapped.bindMemory(to: Atomic<UInt64>.self, capacity: count)
        if create {
            for index in 0..<count { (words + index).initialize(to: Atomic(0)) }
            words[HeaderWord.stopLine].store(.max, ordering: .relaxed)
        }
    }

    deinit { munmap(words, count * 8) }

    /// The first word of worker `worker`'s part. A worker number outside `0..<workers` would read
    /// or write another worker's words or past the mapping: it traps, in every build (one compare).
    @inline(__always)
    private func base(_ worker: Int) -> Int {
        precondition(worker >= 0 && worker < workers, "WorkerBoard: worker \(worker) of \(workers)")
        return Self.header + worker * stride
    }

    /// Closes the parent's descriptor of the board once no more workers will be started.
    package func closeDescriptor() { close(descriptor) }

    /// The lowest failing seed so far (`.max` when none): no worker starts a seed above it.
    package var stopSeed: UInt64 { words[HeaderWord.stopLine].load(ordering: .relaxed) }

    package func lowerStopSeed(to seed: UInt64) { words[HeaderWord.stopLine].lowerStopLine(to: seed) }

    /// Claims the next chunk of seed indices for worker `w` and records where it ends (so that a
    /// replacement for a worker that died can finish it); nil when the index space is used up.
    package func claimChunk(_ worker: Int) -> Range<UInt64>? {
        guard
            let chunk = SeedSpace.chunk(
                startingAt: words[HeaderWord.nextIndex].wrappingAdd(SeedSpace.chunkSize, ordering: .relaxed).oldValue)
        else { return nil }
        words[base(worker) + WorkerWord.chunkEnd].store(chunk.upperBound, ordering: .relaxed)
        return chunk
    }

    /// The end of worker `w`'s current chunk (exclusive).
    package func chunkEnd(_ worker: Int) -> UInt64 { words[base(worker) + WorkerWord.chunkEnd].load(ordering: .relaxed) }

    package var isInterrupted: Bool { words[HeaderWord.interrupted].load(ordering: .relaxed) != 0 }
    package func interrupt() { words[HeaderWord.interrupted].store(1, ordering: .relaxed) }

    /// The seed index worker `w` is running, or nil between runs.
    package func inFlight(_ worker: Int) -> UInt64? {
        let value = words[base(worker) + WorkerWord.inFlight].load(ordering: .relaxed)
        return value == 0 ? nil : value - 1
    }

    package func setInFlight(_ worker: Int, _ index: UInt64?) {
        // Stored as index + 1 (0 = none): the last index would wrap to "none".
        precondition(index != .max, "WorkerBoard: seed index \(UInt64.max) cannot be in flight")
        words[base(worker) + WorkerWord.inFlight].store(index.map { $0 + 1 } ?? 0, ordering: .relaxed)
    }

    /// Runs completed by worker `w`, across its restarts.
    package func runs(_ worker: Int) -> Int { Int(words[base(worker) + WorkerWord.runs].load(ordering: .relaxed)) }

    package func addRun(_ worker: Int, seed: UInt64, _ result: RunResult) {
        let base = self.base(worker)
        GoalTally.forEachReached(in: result) { goal in
            if goal < goals { words[base + Self.goalBase + goal].add(1, ordering: .relaxed) }
        }
        if result.scheduleDigest == Digest().value { words[base + silentBase].add(1, ordering: .relaxed) }
        insertDigest(result.scheduleDigest)
        if !result.uncontrolled.isEmpty { addUncontrolled(worker, seed: seed, result.uncontrolled) }
        words[base + WorkerWord.runs].add(1, ordering: .relaxed)
    }

    /// Adds a schedule digest to the campaign's table (0 is stored as 1: 0 marks a free slot).
    private func insertDigest(_ digest: UInt64) {
        let table = digestBase
        let full = table + Self.digestSlots + 1
        guard words[full].load(ordering: .relaxed) == 0 else { return }
        let key = digest == 0 ? 1 : digest
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (Self.digestSlots - 1)
        for _ in 0..<Self.digestSlots {
            let (exchanged, found) = words[table + slot].compareExchange(
                expected: 0, desired: key, ordering: .relaxed)
            if exchanged {
                let counted = words[table + Self.digestSlots].wrappingAdd(1, ordering: .relaxed).newValue
                if counted > UInt64(Explored.maxCounted) { words[full].store(1, ordering: .relaxed) }
                return
            }
            if found == key { return }
            slot = (slot + 1) & (Self.digestSlots - 1)
        }
        words[full].store(1, ordering: .relaxed)
    }

    /// Counts a run's uncontrolled kinds on worker `w`'s slots; a kind this worker has not printed
    /// yet goes to the parent first as an `UncontrolledLine` with its example.
    private func addUncontrolled(_ worker: Int, seed: UInt64, _ observations: [Uncontrolled]) {
        let base = self.base(worker) + silentBase + 1
        var kinds: [UncontrolledKind] = []
        for observation in observations where !kinds.contains(observation.kind) {
            kinds.append(observation.kind)
            let occurrences = observations.filter { $0.kind == observation.kind }.reduce(0) { $0 + $1.count }
            if kindsPrinted.withLock({ $0.insert(observation.kind.rawValue).inserted }) {
                var example = observation
                example.count = 1
                overflow(UncontrolledLine(seed: seed, example: example).text)
            }
            let hash = UncontrolledLine(seed: seed, example: observation).kindHash
            let used = Int(words[base].load(ordering: .relaxed))
            var slot = (0..<used).first { words[base + 1 + $0 * Self.uncontrolledWords].load(ordering: .relaxed) == hash }
            if slot == nil {
                if used < Self.uncontrolledSlots {
                    slot = used
                    words[base + 1 + used * Self.uncontrolledWords].store(hash, ordering: .relaxed)
                    words[base].store(UInt64(used + 1), ordering: .releasing)
                } else {
                    slot = Self.uncontrolledSlots - 1
                }
            }
            let at = base + 1 + slot! * Self.uncontrolledWords
            words[at + 1].add(1, ordering: .relaxed)
            words[at + 2].add(UInt64(occurrences), ordering: .relaxed)
        }
    }

    /// The campaign's schedules as the board holds them: runs without decisions, the digests (or,
    /// past ``Explored/maxCounted``, a lower bound), and each uncontrolled kind's counts by its name's
    /// hash. The kinds' names and examples come from the workers' `UncontrolledLine`s (`examples`).
    package func explored(examples: [UInt64: (kind: UncontrolledKind, seed: UInt64, example: Uncontrolled)]) -> Explored {
        var silent = 0
        var counts: [UInt64: (runs: Int, occurrences: Int)] = [:]
        for worker in 0..<workers {
            let base = self.base(worker) + silentBase
            silent += Int(words[base].load(ordering: .relaxed))
            let used = min(Int(words[base + 1].load(ordering: .acquiring)), Self.uncontrolledSlots)
            for slot in 0..<used {
                let at = base + 2 + slot * Self.uncontrolledWords
                let hash = words[at].load(ordering: .relaxed)
                let previous = counts[hash] ?? (0, 0)
                counts[hash] = (
                    previous.runs + Int(words[at + 1].load(ordering: .relaxed)),
                    previous.occurrences + Int(words[at + 2].load(ordering: .relaxed))
                )
            }
        }
        let table = digestBase
        let full = words[table + Self.digestSlots + 1].load(ordering: .relaxed) != 0
        let counted = Int(words[table + Self.digestSlots].load(ordering: .relaxed))
        var digests: Set<UInt64> = []
        if !full {
            for slot in 0..<Self.digestSlots {
                let value = words[table + slot].load(ordering: .relaxed)
                if value != 0 { digests.insert(value) }
            }
        }
        let uncontrolled = counts.compactMap { hash, count -> Explored.Uncontrolled? in
            guard let known = examples[hash] else { return nil }
            return Explored.Uncontrolled(
                kind: known.kind, runs: count.runs, occurrences: count.occurrences, example: known.example,
                seed: known.seed)
        }
        return Explored(
            runs: totalRuns, distinct: full ? Explored.maxCounted : min(counted, digests.count), isLowerBound: full,
            runsWithoutDecisions: silent, uncontrolled: uncontrolled, digests: digests)
    }

    /// A failure as the board holds it: its signature, the worker's first (lowest) seed with it,
    /// that run's digest, and the worker's occurrences.
    package typealias FailureSlot = FindingsTable<RunEvidence>.Entry

    /// Failing runs counted by worker `w`, across its restarts.
    package func failures(_ worker: Int) -> Int {
        Int(words[base(worker) + WorkerWord.failures].load(ordering: .relaxed))
    }

    package var totalFailures: Int { (0..<workers).reduce(0) { $0 + failures($1) } }

    /// The distinct failures worker `w` has put on the board, in the order it found them.
    package func failureSlots(_ worker: Int) -> [FailureSlot] {
        let base = self.base(worker)
        // Acquire: a slot counted here was filled in before the count was raised.
        let used = min(Int(words[base + WorkerWord.slotsUsed].load(ordering: .acquiring)), Self.failureSlots)
        return (0..<used).map { slot in
            let at = base + slotBase + slot * Self.slotWords
            return FailureSlot(
                signature: words[at + SlotWord.signature].load(ordering: .relaxed),
                seed: words[at + SlotWord.seed].load(ordering: .relaxed),
                evidence: .failed(digest: words[at + SlotWord.digest].load(ordering: .relaxed)),
                occurrences: Int(words[at + SlotWord.occurrences].load(ordering: .relaxed)))
        }
    }

    /// Records a failing run of worker `w`: counts it, and adds one occurrence to its signature's slot,
    /// or fills in the next free slot when the signature is new. Only worker `w` writes its slots, so
    /// looking for the signature and then writing is race-free; seeds of one worker only grow, so a
    /// slot's first seed is the worker's lowest with that signature. When every slot is taken by
    /// other signatures, the failure goes to `overflow` as a `FailureLine`.
    package func addFailure(_ worker: Int, index: UInt64, seed: UInt64, signature: UInt64, digest: UInt64) {
        let base = self.base(worker)
        let counted = Int(words[base + WorkerWord.slotsUsed].load(ordering: .relaxed))
        // Only this worker raises its count, one slot at a time, and never past the slots.
        assert(counted <= Self.failureSlots, "WorkerBoard: worker \(worker) counts \(counted) of \(Self.failureSlots) failure slots")
        let used = min(counted, Self.failureSlots)
        words[base + WorkerWord.failures].add(1, ordering: .relaxed)
        for slot in 0..<used
        where words[base + slotBase + slot * Self.slotWords + SlotWord.signature].load(ordering: .relaxed) == signature {
            words[base + slotBase + slot * Self.slotWords + SlotWord.occurrences].add(1, ordering: .relaxed)
            return
        }
        guard used < Self.failureSlots else {
            overflow(FailureLine(index: index, seed: seed, signature: signature, digest: digest).text)
            return
        }
        let at = base + slotBase + used * Self.slotWords
        words[at + SlotWord.signature].store(signature, ordering: .relaxed)
        words[at + SlotWord.seed].store(seed, ordering: .relaxed)
        words[at + SlotWord.digest].store(digest, ordering: .relaxed)
        words[at + SlotWord.occurrences].store(1, ordering: .relaxed)
        // Release: a reader that sees the count sees the slot filled in.
        words[base + WorkerWord.slotsUsed].store(UInt64(used + 1), ordering: .releasing)
    }

    /// A worker process prints each lock order its runs took for the first time (a line the
    /// supervisor reads, `LockOrderLine`): orders are few, and seeds of one worker only grow, so the
    /// first seed printed is the worker's lowest.
    package func addLockOrder(_ worker: Int, seed: UInt64, _ edges: [LockOrderEdge]) {
        let new = printedOrders.withLock { $0.add(edges, seed: seed) }
        for edge in new { overflow(LockOrderLine(LockOrderSighting(edge: edge, seed: seed)).text) }
    }

    /// Runs that reached each goal, summed over workers.
    package func goalCounts() -> [Int] {
        (0..<goals).map { goal in
            (0..<workers).reduce(0) {
                $0 + Int(words[base($1) + Self.goalBase + goal].load(ordering: .relaxed))
            }
        }
    }

    package var totalRuns: Int { (0..<workers).reduce(0) { $0 + runs($1) } }

    /// The board's runs, goals and failure slots, as one tally (failures printed past the slots are
    /// not on it: the supervisor merges those).
    package func tally() -> CampaignTally { tally(examples: [:]) }

    /// The tally, with the uncontrolled kinds named by the workers' `UncontrolledLine`s.
    package func tally(examples: [UInt64: (kind: UncontrolledKind, seed: UInt64, example: Uncontrolled)]) -> CampaignTally {
        var findings = FindingsTable<RunEvidence>()
        for worker in 0..<workers {
            for slot in failureSlots(worker) { findings.add(slot) }
        }
        return CampaignTally(runs: totalRuns, goalCounts: goalCounts(), findings: findings, explored: explored(examples: examples))
    }
}
