import SimCore

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a fuzz campaign in worker processes (`simrun _worker`), so that a model that traps ends one
/// worker, not the campaign. Workers claim chunks of seed indices from the shared board and run them
/// in process with no system call per run (a worker with less of the machine takes fewer chunks);
/// when one dies, the board says which seed it was running, that seed becomes a `crashed` finding,
/// and a new worker finishes the rest of its chunk, then claims more.
///
/// The outcome matches the in-process `Fuzzer`: the same seeds run, and without `keepGoing` the
/// campaign reports the failure (or crash) with the lowest seed, whatever `jobs` is.
package struct FuzzSupervisor {
    /// A seed whose run trapped.
    package struct Crash {
        package var seed: UInt64
        package var message: String
        package var occurrences: Int
        package var signature: FailureSignature { FailureSignature(.crashed(message)) }
    }

    package struct Outcome {
        package var report: Fuzzer.Report
        package var crashes: [Crash]
        package var interrupted: Bool
        /// Seeds whose failure did not re-run the same in this process as in the worker.
        package var nondeterministic: Set<UInt64>

        package init(report: Fuzzer.Report, crashes: [Crash], interrupted: Bool, nondeterministic: Set<UInt64>) {
            self.report = report
            self.crashes = crashes
            self.interrupted = interrupted
            self.nondeterministic = nondeterministic
        }
    }

    package let plan: RunPlan
    package let strategy: String
    package let configuration: Fuzzer.Configuration

    package init(plan: RunPlan, strategy: String, configuration: Fuzzer.Configuration) {
        self.plan = plan
        self.strategy = strategy
        self.configuration = configuration
    }

    private struct Worker {
        package var child: ChildProcess
        package var stdoutOpen = true
        package var stderrOpen = true
        package var pending: [UInt8] = []
        package var stderrTail: [UInt8] = []
    }

    private struct Failure {
        package var seed: UInt64
        package var digest: UInt64
        package var occurrences: Int
    }

    package func run(progress: (Int, Int, Int, Double) -> Void) throws(CommandFailure) -> Outcome {
        let config = configuration
        let goalNames = plan.goals()
        let board = try WorkerBoard.create(workers: config.jobs, goals: goalNames.count)
        defer { close(board.descriptor) }
        let start = ContinuousClock.now
        let deadline = config.seconds.map { start + .milliseconds(Int64($0 * 1000)) }
        // Failures printed by a worker whose board slots were full (by signature hash); the rest are
        // on the board, read at the end.
        var printed: [UInt64: Failure] = [:]
        var crashes: [String: Crash] = [:]  // by signature
        var crashedRuns = 0
        var workers: [Worker?] = []
        for w in 0..<config.jobs {
            workers.append(Worker(child: try spawnWorker(w, resume: nil, board: board, deadline: deadline)))
        }
        var lastReport = start
        var interrupted = false
        while workers.contains(where: { $0 != nil }) {
            if Interruption.isRequested && !interrupted {
                interrupted = true
                board.interrupt()
            }
            var fds: [pollfd] = []
            var owners: [(Int, Bool)] = []  // worker, isStdout
            for (w, worker) in workers.enumerated() {
                guard let worker else { continue }
                if worker.stdoutOpen {
                    fds.append(pollfd(fd: worker.child.stdoutFD, events: Int16(POLLIN), revents: 0))
                    owners.append((w, true))
                }
                if worker.stderrOpen {
                    fds.append(pollfd(fd: worker.child.stderrFD, events: Int16(POLLIN), revents: 0))
                    owners.append((w, false))
                }
            }
            _ = poll(&fds, nfds_t(fds.count), 50)
            for (slot, entry) in fds.enumerated() where entry.revents != 0 {
                let (w, isStdout) = owners[slot]
                guard var worker = workers[w] else { continue }
                var chunk = [UInt8](repeating: 0, count: 16_384)
                let count = read(entry.fd, &chunk, chunk.count)
                if count > 0 {
                    if isStdout {
                        worker.pending += chunk[0..<count]
                        // Lines are consumed by index and the consumed prefix dropped once per chunk
                        // (dropping each line as it was read shifted the rest: quadratic per chunk).
                        var lineStart = 0
                        while let newline = worker.pending[lineStart...].firstIndex(of: 10) {
                            let parsed = Self.parseFailure(worker.pending[lineStart..<newline])
                            lineStart = newline + 1
                            guard let (seed, signature, digest) = parsed else { continue }
                            if !config.keepGoing { board.lowerStopSeed(to: seed) }
                            Self.merge(
                                Failure(seed: seed, digest: digest, occurrences: 1), as: signature, into: &printed)
                        }
                        worker.pending.removeFirst(lineStart)
                    } else {
                        // Keep the tail: the trap message is the last thing a dying worker prints.
                        worker.stderrTail += chunk[0..<count]
                        if worker.stderrTail.count > 16_384 {
                            worker.stderrTail.removeFirst(worker.stderrTail.count - 16_384)
                        }
                    }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    if isStdout { worker.stdoutOpen = false } else { worker.stderrOpen = false }
                }
                workers[w] = worker
            }
            // A worker whose pipes closed has ended: collect it, and look at how.
            for w in workers.indices {
                guard let worker = workers[w], !worker.stdoutOpen, !worker.stderrOpen else { continue }
                let termination = worker.child.wait()
                workers[w] = nil
                guard termination != .exited(0) else { continue }
                let stderr = String(decoding: worker.stderrTail, as: UTF8.self)
                guard let index = board.inFlight(w) else {
                    let why =
                        ChildProcess.trapMessage(in: stderr) ?? stderr.split(separator: "\n").last.map(String.init)
                    throw CommandFailure(
                        ExitStatus.failure, "fuzz worker \(w) \(termination) before running a seed: \(why ?? "")")
                }
                board.setInFlight(w, nil)
                let seed = seedFor(index)
                let message = ChildProcess.trapMessage(in: stderr) ?? "the model \(termination)"
                crashedRuns += 1
                let key = FailureSignature(.crashed(message)).description
                var crash = crashes[key] ?? Crash(seed: seed, message: message, occurrences: 0)
                crash.occurrences += 1
                if seed <= crash.seed {
                    crash.seed = seed
                    crash.message = message
                }
                crashes[key] = crash
                if !config.keepGoing { board.lowerStopSeed(to: seed) }
                if !interrupted {
                    // The replacement finishes the dead worker's chunk, then claims new ones.
                    let end = board.chunkEnd(w)
                    let resume = index + 1 < end ? (index + 1)..<end : nil
                    workers[w] = Worker(child: try spawnWorker(w, resume: resume, board: board, deadline: deadline))
                }
            }
            if ContinuousClock.now - lastReport > .milliseconds(500) {
                lastReport = ContinuousClock.now
                progress(
                    board.totalRuns + crashedRuns, board.totalFailures + crashedRuns,
                    Self.failures(on: board, printed: printed).count + crashes.count,
                    (ContinuousClock.now - start).seconds)
            }
        }
        let seconds = (ContinuousClock.now - start).seconds
        return assemble(
            failures: Self.failures(on: board, printed: printed), failureCount: board.totalFailures + crashedRuns,
            crashes: Array(crashes.values), board: board,
            runs: board.totalRuns + crashedRuns, goalNames: goalNames, seconds: seconds, interrupted: interrupted)
    }

    /// Adds `failure` to its signature's entry: occurrences summed, the lowest seed (and its digest) kept.
    private static func merge(_ failure: Failure, as signature: UInt64, into table: inout [UInt64: Failure]) {
        guard var entry = table[signature] else {
            table[signature] = failure
            return
        }
        entry.occurrences += failure.occurrences
        if failure.seed <= entry.seed {
            entry.seed = failure.seed
            entry.digest = failure.digest
        }
        table[signature] = entry
    }

    /// The distinct failures of every worker's board slots and of the printed lines, merged.
    private static func failures(on board: WorkerBoard, printed: [UInt64: Failure]) -> [UInt64: Failure] {
        var table = printed
        for worker in 0..<board.workers {
            for slot in board.failureSlots(worker) {
                merge(
                    Failure(seed: slot.seed, digest: slot.digest, occurrences: slot.occurrences), as: slot.signature,
                    into: &table)
            }
        }
        return table
    }

    /// Re-runs each distinct failure's lowest seed here (a second process), for its tape and verdict.
    private func assemble(
        failures: [UInt64: Failure], failureCount: Int, crashes: [Crash], board: WorkerBoard, runs: Int,
        goalNames: [String], seconds: Double, interrupted: Bool
    ) -> Outcome {
        var findings: [Fuzzer.Finding] = []
        var nondeterministic: Set<UInt64> = []
        for failure in failures.values {
            let result = plan.run(seed: failure.seed, strategy: plan.makeStrategy())
            if result.digest.value != failure.digest { nondeterministic.insert(failure.seed) }
            findings.append(
                Fuzzer.Finding(
                    signature: FailureSignature(result.verdict), seed: failure.seed, verdict: result.verdict,
                    tape: result.tape, steps: result.steps, occurrences: failure.occurrences))
        }
        findings.sort { $0.seed < $1.seed }
        var crashList = crashes.sorted { $0.seed < $1.seed }
        var count = failureCount
        if !configuration.keepGoing {
            // Workers may have run seeds past the first failure before they saw the stop line.
            let firstFailure = findings.first?.seed ?? .max
            let firstCrash = crashList.first?.seed ?? .max
            if firstCrash < firstFailure {
                findings = []
                crashList = Array(crashList.prefix(1))
            } else {
                findings = Array(findings.prefix(1))
                crashList = []
            }
            count = min(count, 1)
        }
        let report = Fuzzer.Report(
            schedules: runs, failures: count, findings: findings, goals: goalNames, goalCounts: board.goalCounts(),
            seconds: seconds, exhausted: false)
        return Outcome(report: report, crashes: crashList, interrupted: interrupted, nondeterministic: nondeterministic)
    }

    private func seedFor(_ index: UInt64) -> UInt64 {
        configuration.seeds.lowerBound
            &+ (index &* UInt64(configuration.shard.count) &+ UInt64(configuration.shard.index))
    }

    private func spawnWorker(
        _ w: Int, resume: Range<UInt64>?, board: WorkerBoard, deadline: ContinuousClock.Instant?
    ) throws(CommandFailure) -> ChildProcess {
        let config = configuration
        var arguments = [
            "_worker", plan.scenario.name, "--variant", plan.variant, "--strategy", strategy,
            "--worker", String(w), "--workers", String(config.jobs), "--goals", String(board.goals),
            "--lower", String(config.seeds.lowerBound),
            "--estimated-steps", String(plan.estimatedSteps),
            "--shard-index", String(config.shard.index), "--shard-count", String(config.shard.count),
        ]
        if let deadline {
            let left = ContinuousClock.now.duration(to: deadline)
            arguments += [
                "--milliseconds",
                String(max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)),
            ]
        } else {
            arguments += ["--upper", String(config.seeds.upperBound)]
        }
        if let resume {
            arguments += ["--first-index", String(resume.lowerBound), "--chunk-end", String(resume.upperBound)]
        }
        if config.keepGoing { arguments.append("--keep-going") }
        if plan.noise > 0 { arguments += ["--noise", String(plan.noise)] }
        if let prefix = plan.prefix, let source = prefix.source {
            arguments += ["--from", source, "--keep", String(prefix.keep)]
        }
        return try ChildProcess.spawn(arguments, inherit: [(WorkerBoard.childDescriptor, board.descriptor)])
    }

    /// Parses `fail <index> <seed> <signature hash> <digest>` from a worker's stdout line, in place
    /// (no String per line: a worker prints one per failing run).
    package static func parseFailure(_ line: ArraySlice<UInt8>) -> (UInt64, UInt64, UInt64)? {
        var numbers: [UInt64] = []
        numbers.reserveCapacity(4)
        var position = line.startIndex
        let prefix: [UInt8] = Array("fail".utf8)
        guard line.count > prefix.count, line.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        position += prefix.count
        while position < line.endIndex {
            guard line[position] == 0x20 else { return nil }
            position += 1
            var value: UInt64 = 0
            var digits = 0
            while position < line.endIndex, line[position] != 0x20 {
                let digit = line[position] &- 0x30
                guard digit < 10 else { return nil }
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
                guard !o1 && !o2 else { return nil }
                value = sum
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            numbers.append(value)
        }
        guard numbers.count == 4 else { return nil }
        return (numbers[1], numbers[2], numbers[3])
    }
}
