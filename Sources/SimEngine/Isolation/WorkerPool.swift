import SimCore

/// The worker processes of one campaign, as `FuzzSupervisor` drives them: it starts them, reads what
/// they print (failure lines past the board's slots; the tail of stderr for a trap message), and when
/// one ends abnormally turns the seed it had in flight into a `crashed` finding and starts a
/// replacement that finishes the dead worker's chunk.
final class WorkerPool {
    /// Starts worker `w`, resuming the given rest of a chunk.
    typealias Spawn = (_ worker: Int, _ resume: Range<UInt64>?, _ board: WorkerBoard) throws(SimEngineError) ->
        ChildProcess

    private struct Worker {
        var child: ChildProcess
        var stdout = LineBuffer()
        var stderrTail: [UInt8] = []
    }

    let board: WorkerBoard
    private let space: SeedSpace
    private let keepGoing: Bool
    /// The plan every worker is sent: each says it rebuilt this one, or the campaign stops.
    private let plan: RunPlan.Descriptor
    private let spawn: Spawn
    private var workers: [Worker?] = []
    /// Failures printed by workers whose board slots were full, and crashes; the rest is on the board.
    private var offBoard = FindingsTable<RunEvidence>()
    private var crashedRuns = 0
    /// Each uncontrolled kind the workers named, by its hash on the board: the lowest seed's example.
    private var examples: [UInt64: (kind: UncontrolledKind, seed: UInt64, example: Uncontrolled)] = [:]
    /// Lock orders the workers printed.
    private var lockOrder = LockOrderTable()
    private(set) var interrupted = false

    /// How much of a worker's stderr is kept: the trap message is the last thing a dying worker prints.
    private static let stderrTailBytes = 16_384

    init(board: WorkerBoard, space: SeedSpace, keepGoing: Bool, plan: RunPlan.Descriptor, spawn: @escaping Spawn) {
        self.board = board
        self.space = space
        self.keepGoing = keepGoing
        self.plan = plan
        self.spawn = spawn
    }

    /// Starts one worker per board slot.
    func start() throws(SimEngineError) {
        for w in 0..<board.workers { workers.append(Worker(child: try spawn(w, nil, board))) }
    }

    /// True while any worker runs.
    var isRunning: Bool { workers.contains { $0 != nil } }

    /// Asks every worker to stop after its current run; no replacement is started from now on.
    func interrupt() {
        guard !interrupted else { return }
        interrupted = true
        board.interrupt()
    }

    /// Waits up to 50 ms for output, reads it, and collects workers that ended.
    func step() throws(SimEngineError) {
        var streams: [(owner: Int, stream: ChildProcess.Stream, descriptor: Int32)] = []
        for case (let w, let worker?) in workers.enumerated() {
            for stream in worker.child.openStreams { streams.append((w, stream, worker.child.descriptor(stream))) }
        }
        var otherPlan: RunPlan.Descriptor??
        for (w, stream) in ChildProcess.waitForOutput(streams, timeoutMilliseconds: 50) {
            guard var worker = workers[w] else { continue }
            let bytes = worker.child.read(stream)
            switch stream {
            case .stdout:
                worker.stdout.append(bytes) { line in
                    if let seen = UncontrolledLine(parsing: line) {
                        if (examples[seen.kindHash]?.seed ?? .max) > seen.seed {
                            examples[seen.kindHash] = (seen.example.kind, seen.seed, seen.example)
                        }
                        return
                    }
                    if line.first == UInt8(ascii: "{") {
                        if case .running(let rebuilt)? = ChildReply(line: Substring(decoding: line, as: UTF8.self)),
                            rebuilt != plan
                        {
                            otherPlan = .some(rebuilt)
                        }
                        return
                    }
                    if let order = LockOrderLine(parsing: line) {
                        lockOrder.note(order.sighting)
                        return
                    }
                    guard let failure = FailureLine(parsing: line) else { return }
                    if !keepGoing { board.lowerStopSeed(to: failure.seed) }
                    offBoard.record(
                        signature: failure.signature, seed: failure.seed, evidence: .failed(digest: failure.digest))
                }
            case .stderr:
                worker.stderrTail += bytes
                if worker.stderrTail.count > Self.stderrTailBytes {
                    worker.stderrTail.removeFirst(worker.stderrTail.count - Self.stderrTailBytes)
                }
            }
            workers[w] = worker
        }
        if let otherPlan {
            interrupt()
            throw SimEngineError(
                .failed, "a fuzz worker rebuilt another plan than it was sent (sent \(plan), ran \(String(describing: otherPlan)))")
        }
        for w in workers.indices {
            guard let worker = workers[w], worker.child.openStreams.isEmpty else { continue }
            workers[w] = nil
            try collect(w, worker)
        }
    }

    /// A worker whose pipes closed has ended: wait for it, and if it died mid-run, record the crash
    /// and start its replacement.
    private func collect(_ w: Int, _ worker: Worker) throws(SimEngineError) {
        let termination = worker.child.wait()
        guard termination != .exited(0) else { return }
        let stderr = String(decoding: worker.stderrTail, as: UTF8.self)
        guard let index = board.inFlight(w) else {
            let why =
                ChildProcess.trapMessage(in: stderr)
                ?? stderr.split(separator: "\n").last { !$0.hasPrefix("simrun-trap-frames:") }.map(String.init)
            throw SimEngineError(.failed, "fuzz worker \(w) \(termination) before running a seed: \(why ?? "")")
        }
        board.setInFlight(w, nil)
        guard let seed = space.seed(at: index) else {
            throw SimEngineError(.failed, "fuzz worker \(w) died at seed index \(index), outside the campaign")
        }
        let message = ChildProcess.trapMessage(in: stderr) ?? "the model \(termination)"
        crashedRuns += 1
        offBoard.record(
            signature: FailureSignature(.crashed(message)).id, seed: seed, evidence: .crashed(message: message))
        if !keepGoing { board.lowerStopSeed(to: seed) }
        guard !interrupted else { return }
        // The replacement finishes the dead worker's chunk, then claims new ones.
        let end = board.chunkEnd(w)
        workers[w] = Worker(child: try spawn(w, index + 1 < end ? (index + 1)..<end : nil, board))
    }

    /// What the workers ran and found: the board's tally with crashes and printed failures merged in.
    func tally() -> CampaignTally {
        var tally = board.tally(examples: examples)
        tally.runs += crashedRuns
        tally.findings.merge(offBoard)
        tally.lockOrder.merge(lockOrder)
        return tally
    }
}

/// Bytes read from a pipe, cut into lines as they complete.
struct LineBuffer {
    private var pending: [UInt8] = []

    /// Appends `bytes` and calls `line` with each completed line (without its newline). Lines are
    /// consumed by index and the consumed prefix dropped once per call (dropping each line as it was
    /// read shifted the rest: quadratic per chunk).
    mutating func append(_ bytes: ArraySlice<UInt8>, line: (ArraySlice<UInt8>) -> Void) {
        pending += bytes
        var lineStart = 0
        while let newline = pending[lineStart...].firstIndex(of: 10) {
            line(pending[lineStart..<newline])
            lineStart = newline + 1
        }
        pending.removeFirst(lineStart)
    }
}
