import SimCore
import SimTrace
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shrinks a crash trace: every candidate schedule runs in a child (`simrun _record`), where its trap
/// ends only that child and the parent seals the candidate's trace up to it. A candidate keeps the
/// recorded schedule's first K decisions (followed by job identity, as `fuzz --from --keep K` does)
/// and lets `fifo` choose the rest; the smallest K found by bisection whose run crashes at the same
/// place — the same trap message (numbers aside, as findings are grouped) in the same job — is
/// recorded as the shrunk trace. Departures from fifo after the K-th decision are all dropped.
package enum CrashShrink {
    /// Where a crash trace trapped: its failure signature and the job running (`lane/label`).
    private struct Place: Equatable {
        var signature: FailureSignature
        var job: String?

        init(path: String, verdict: Verdict) throws(SimEngineError) {
            signature = FailureSignature(verdict)
            job = try CrashShrink.runningJob(path: path).map { job in
                job.split(separator: "#").first.map(String.init) ?? job
            }
        }
    }

    /// Shrinks the crash trace `input` (of `plan`) and records the shrunk run at `path`; nil when no
    /// candidate, the whole recorded schedule included, crashes at the recorded place on this build.
    package static func shrink(_ input: TraceInput, footer: TraceFooter, plan: RunPlan, to path: String)
        throws(SimEngineError) -> ShrinkReport?
    {
        let target = try Place(path: input.path, verdict: footer.verdict)
        let before = counts(input, footer)
        var runs = 0
        // Records the candidate keeping `keep` decisions; true when it crashed at `target` and is
        // smaller (fewer non-fifo decisions, or as many and fewer events). With `anySize`, only the place counts.
        func attempt(_ keep: Int, to output: String, anySize: Bool = false) throws(SimEngineError) -> Bool {
            runs += 1
            let recording = IsolatedRecording(
                scenario: input.header.scenario, variant: plan.variant, strategy: StrategySpec.plainOrder.description, noise: plan.noise,
                prefix: (input.path, keep), estimatedSteps: plan.estimatedSteps, carriers: plan.carriers)
            let outcome = try recording.record(seed: input.header.seed, to: output)
            guard outcome.crashed, try Place(path: output, verdict: outcome.verdict) == target else { return false }
            if anySize { return true }
            let candidate = try TraceInput(path: output)
            guard let end = candidate.footer else { return false }
            let after = counts(candidate, end)
            return after.nonFifo < before.nonFifo || after.nonFifo == before.nonFifo && after.events < before.events
        }
        // Bisection over K: the smallest K tried whose candidate crashes at the target.
        var low = 0
        var high = input.tape.count
        var found: Int?
        let scratch = try DeterminismCheck.temporaryTracePath("crash-shrink")
        defer { unlink(scratch) }
        while low < high {
            let middle = low + (high - low) / 2
            if try attempt(middle, to: scratch) {
                found = middle
                high = middle
            } else {
                low = middle + 1
            }
            unlink(scratch)
        }
        // The whole schedule kept when no shorter prefix crashed there smaller (it must crash there).
        // Recorded beside `path` and renamed over it: `path` may be the trace shrunk (fuzz shrinks in place).
        let written = path + ".shrinking"
        // Removed if a signal ends the command while the child records it.
        let pending = PendingFiles.add(written)
        defer { PendingFiles.remove(pending) }
        guard try attempt(found ?? input.tape.count, to: written, anySize: true) else {
            unlink(written)
            return nil
        }
        do throws(Errno) {
            try SystemIO.publish(written, as: path)
        } catch {
            unlink(written)
            throw SimEngineError(.cannotWrite, "cannot write \(path): \(error)")
        }
        let shrunk = try TraceInput(path: path)
        guard let after = shrunk.footer else {
            throw SimEngineError(.badTrace, "\(path): the shrunk crash trace has no footer")
        }
        return ShrinkReport(runs: runs, before: before, after: counts(shrunk, after), verdict: after.verdict)
    }

    /// The job running at the end of the trace at `path` (`lane/label#ordinal`, from its last
    /// `sched.pick`); nil when no job was picked.
    package static func runningJob(path: String) throws(SimEngineError) -> String? {
        var job: String?
        do {
            let reader = try TraceReader(path: path)
            while let record = try reader.next() {
                guard case .event(let event) = record, reader.text(event.kind) == "sched.pick" else { continue }
                let ordinal = event.fields.first.flatMap { field -> Int64? in
                    if case .int(let n) = field.value { return n } else { return nil }
                }
                job = "\(reader.text(event.lane))/\(reader.text(event.subject))" + (ordinal.map { "#\($0)" } ?? "")
            }
        } catch {
            throw TraceInput.failure(error)
        }
        return job
    }

    private static func counts(_ input: TraceInput, _ footer: TraceFooter) -> ShrinkCounts {
        ShrinkCounts(
            decisions: input.tape.count, nonFifo: input.tape.decisions.reduce(0) { $0 + ($1.isDeviation ? 1 : 0) },
            events: footer.eventCount, steps: Int(footer.steps))
    }
}
