import SimCore
import SimTrace

/// Where a crash happened: what makes two crashes the same crash, across build configurations too.
///
/// A debug build's trap carries the runtime's message (`Precondition failed: …`); an optimized
/// build of the same code dies of a signal without one (SIGILL, SIGTRAP on arm64), and may inline
/// the function that trapped into its caller. So a crash is identified by where it trapped: the job
/// that was running (`lane/label`, from the trace's last `sched.pick`) and the functions it trapped
/// in (innermost first, as the crashed child's trap reporter named them; see
/// ``ChildProcess/trapFrames(in:)``), with the message only where both crashes have one.
///
/// Two places are the same crash when:
/// - their jobs are the same (or neither ran a job);
/// - where both have a runtime message, the messages are the same, numbers aside
///   (``FailureSignature``);
/// - where both name the functions they trapped in, the innermost function of one is among the
///   other's (the same function, or one an optimizer inlined the other into).
///
/// Where neither the messages nor the functions can be compared (a crash recorded with a message by
/// a build that named no functions, against one that died without a message), the job alone
/// decides.
package struct CrashPlace: Sendable, Equatable, CustomStringConvertible {
    /// The job running when the process trapped, `lane/label` (no ordinal); nil when none ran.
    package var job: String?
    /// The functions it trapped in, innermost first; empty when unknown.
    package var functions: [String]
    /// The runtime's message, numbers blanked; nil when the process died without one.
    package var message: FailureSignature?

    /// A place from its parts.
    package init(job: String?, functions: [String], message: String?) {
        self.job = job
        self.functions = functions
        self.message = message.map { FailureSignature(.crashed($0)) }
    }

    /// The place of the crash the trace at `path` records (its footer's verdict must be `crashed`).
    package init(path: String, footer: TraceFooter) throws(SimEngineError) {
        let job = try CrashShrink.runningJob(path: path).map { job in
            job.split(separator: "#").first.map(String.init) ?? job
        }
        self.init(job: job, functions: footer.trapFrames, message: Self.runtimeMessage(footer.verdict.message))
    }

    /// The place of a crash the trace at `path` records, reading its footer.
    package init(path: String) throws(SimEngineError) {
        let input = try TraceInput(path: path)
        guard let footer = input.footer else {
            throw SimEngineError(.badTrace, "\(path): a crash trace without footer")
        }
        try self.init(path: path, footer: footer)
    }

    /// `message` when it is the runtime's reason for a trap, nil when it only says how the process
    /// died (`the model killed by signal 4 (SIGILL)`, what an optimized build leaves).
    static func runtimeMessage(_ message: String) -> String? {
        ChildProcess.trapMessage(in: message) != nil ? message : nil
    }

    /// Whether `other` is the same crash (see the type's rules).
    package func isSameCrash(as other: CrashPlace) -> Bool {
        guard job == other.job else { return false }
        if let message, let otherMessage = other.message, message != otherMessage { return false }
        if let inner = functions.first, let otherInner = other.functions.first {
            return other.functions.contains(inner) || functions.contains(otherInner)
        }
        return true
    }

    /// `in job main/view.update, in BlueprintView.updateViewHierarchyIfNeeded()`, for messages.
    package var description: String {
        var parts: [String] = []
        parts.append(job.map { "in job \($0)" } ?? "before any job ran")
        if let function = functions.first { parts.append("in \(function)") }
        return parts.joined(separator: ", ")
    }
}
