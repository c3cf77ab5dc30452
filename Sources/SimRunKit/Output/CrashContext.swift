import SimCore
import SimEngine
import SimTrace

/// Where a crashed run was when it trapped, read from its sealed trace: the job that was running and
/// the last events before the trap. An optimized build drops `precondition` messages (the runtime
/// reports only the signal), so these lines are what says where the model died.
struct CrashContext {
    /// The job running at the trap, `lane/label#ordinal`; nil when the trap came before any job.
    var job: String?
    /// The last events before the trap, as `show` prints them.
    var lastEvents: [String]
    /// The functions it trapped in (the footer's, innermost first; see `CrashPlace`).
    var trapFrames: [String] = []

    /// Reads the trace at `path`, keeping the last `count` events.
    init(path: String, count: Int = 4) throws(CommandFailure) {
        job = nil
        lastEvents = []
        do {
            let reader = try TraceReader(path: path)
            let text = EventText { reader.text($0) }
            while let record = try reader.next() {
                guard case .event(let event) = record else { continue }
                if text.text(event.kind) == "sched.pick" {
                    let ordinal = event.fields.first.flatMap { field -> Int64? in
                        if case .int(let n) = field.value { return n } else { return nil }
                    }
                    job = "\(text.text(event.lane))/\(text.text(event.subject))" + (ordinal.map { "#\($0)" } ?? "")
                }
                lastEvents.append(ExplainCommand.line(event, text: text, marked: false))
                if lastEvents.count > count { lastEvents.removeFirst() }
            }
            trapFrames = reader.footer?.trapFrames ?? []
        } catch {
            throw TraceInput.failure(error)
        }
    }

    /// The lines to print under a crash report; a trap inside a shared library (Foundation,
    /// libdispatch) names it first, since the program's own code is then only its caller.
    var lines: [String] {
        (CrashPlace.libraryLine(trapFrames).map { ["  \($0)"] } ?? [])
            + ["  in job \(job ?? "(none: the trap came before the first job)"); the last events before the trap:"]
            + lastEvents
    }
}

/// Where a trap came, for "crashed at event N (…)": after the last event recorded, or before the
/// run's first event (a trap in the fifo run that sizes `--noise` lanes, or in the set-up).
func crashPlace(_ lastEventText: String) -> String {
    lastEventText.isEmpty ? "before the run's first event" : "after \(lastEventText)"
}

extension IsolatedRecording.Outcome {
    /// What a crash recorded again ran to when it did not trap this time: "pass" or "FAIL — …".
    var reranTo: String { verdict.isFailure ? "FAIL — \(verdict)" : "pass" }
}

extension SavedFinding {
    /// The lines under a crash finding (fuzz's three ways to one): where the saved trace at `path`
    /// trapped — its verdict and event count as the engine left them (the shrunk trace's once
    /// shrinking kept a smaller schedule of the same crash, whose message may differ in its numbers)
    /// — and the last events before it; or, when recording it again did not trap,
    /// `nondeterministic(reranTo)`. Nothing when the crash was not recorded again.
    func crashLines(path: String, nondeterministic: (String) -> String) throws(CommandFailure) -> [String] {
        guard let recorded = recording else { return [] }
        guard recorded.crashed else { return ["  NONDETERMINISTIC: " + nondeterministic(recorded.reranTo)] }
        return ["  crashed at event \(eventCount) (\(crashPlace(recorded.lastEventText))): \(verdict.message)"]
            + (try CrashContext(path: path).lines)
    }
}
