import SimCore
import SimTrace
import SystemPackage

/// Shrinks a crash trace: every candidate schedule runs in a child (``ChildJob/record(_:)``), where its trap
/// ends only that child and the parent seals the candidate's trace up to it. A candidate keeps the
/// recorded schedule's first K decisions (followed by job identity, as `fuzz --from --keep K` does)
/// and lets `fifo` choose the rest; the smallest K found by bisection whose run is the same crash
/// is recorded as the shrunk trace. Departures from fifo after the K-th decision are all dropped.
///
/// The same crash is the same ``CrashPlace``: first the whole recorded schedule is run on this
/// build, and its crash must be the recorded one (the same job, the same message where both have
/// one, the same functions where both name them: a release build's crash without a message is a
/// debug build's with one). That run's place, named the way this build names it, is then the place
/// every candidate must match, so a smaller trace of another crash is never kept.
package enum CrashShrink {
    /// Shrinks the crash trace `input` (of `plan`) and records the shrunk run at `path`, every
    /// candidate in a child `launcher` starts; nil when the whole recorded schedule is not the
    /// recorded crash on this build.
    package static func shrink(
        _ input: TraceInput, footer: TraceFooter, plan: RunPlan, to path: String, launcher: ProcessLauncher
    ) throws(SimEngineError) -> ShrinkReport? {
        let recorded = try CrashPlace(path: input.path, footer: footer)
        let before = counts(input, footer)
        let base = try plan.descriptor()
        var runs = 0
        // Records the candidate keeping `keep` decisions into `output`; its place when it crashed.
        func record(_ keep: Int, to output: String) throws(SimEngineError) -> CrashPlace? {
            runs += 1
            let recording = IsolatedRecording(
                plan: base.with(strategy: .plainOrder, prefix: .init(source: input.path, keep: keep)),
                launcher: launcher)
            let outcome = try recording.record(seed: input.header.seed, to: output)
            guard outcome.crashed else { return nil }
            return try CrashPlace(path: output)
        }
        // This build's crash on the whole schedule, beside `path` (renamed over it when nothing
        // shorter crashes there: `path` may be the trace shrunk, as fuzz shrinks in place).
        let whole = path + ".shrinking"
        // Removed if a signal ends the command while a child records it.
        let pending = PendingFiles.add(whole)
        defer {
            unlink(whole)
            PendingFiles.remove(pending)
        }
        guard let target = try record(input.tape.count, to: whole), recorded.isSameCrash(as: target) else {
            return nil
        }
        // True when the candidate keeping `keep` decisions is the same crash and smaller (fewer
        // non-fifo decisions, or as many and fewer events).
        func attempt(_ keep: Int, to output: String) throws(SimEngineError) -> Bool {
            guard let place = try record(keep, to: output), target.isSameCrash(as: place) else { return false }
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
        if let found {
            // Recorded again beside `path`: bisection went on past it with other candidates.
            guard let place = try record(found, to: whole), target.isSameCrash(as: place) else { return nil }
        }
        do throws(Errno) {
            try SystemIO.publish(whole, as: path)
        } catch {
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
