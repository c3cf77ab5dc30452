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

    /// `in job main/view.update, in BlueprintView.updateViewHierarchyIfNeeded()`, for messages; a
    /// trap inside a shared library names it (`in libdispatch.so (dispatch_group_leave)`).
    package var description: String {
        var parts: [String] = []
        parts.append(job.map { "in job \($0)" } ?? "before any job ran")
        if let function = functions.first {
            let (name, library) = Self.parts(of: function)
            parts.append(library.map { "in \($0) (\(name))" } ?? "in \(name)")
        }
        return parts.joined(separator: ", ")
    }

    /// The shared library the process trapped inside (`libFoundation.so`, `libdispatch.so`), when
    /// the innermost frame that is not the trap's own way down (the runtime, the C library) is in
    /// one rather than in the program: the crash is in that library's code, whoever misused it.
    package var library: String? { functions.first.flatMap { Self.parts(of: $0).library } }

    /// The frames as one line for a crash report: `inside libdispatch.so: dispatch_group_leave,
    /// called from DispatchGroup.leave() (libswiftDispatch.so), from Prefetcher.finish()`; nil when
    /// the crash is not inside a shared library.
    package static func libraryLine(_ frames: [String]) -> String? {
        guard let first = frames.first, case (let name, let library?) = parts(of: first) else { return nil }
        let callers = frames.dropFirst().map { frame -> String in
            let (function, library) = parts(of: frame)
            return library.map { "\(function) (\($0))" } ?? function
        }
        let from = callers.isEmpty ? "" : ", called from " + callers.joined(separator: ", from ")
        return "the trap is inside \(library), a library the program calls: \(name)\(from)"
    }

    /// A trap frame's name: `function`, or `<library>: function` for a shared library's.
    package static func frameName(_ function: String, library: String?) -> String {
        library.map { "\($0): \(function)" } ?? function
    }

    /// A frame name's function and library (see ``frameName(_:library:)``).
    static func parts(of frame: String) -> (function: String, library: String?) {
        guard let colon = frame.firstRange(of: ": ") else { return (frame, nil) }
        let library = frame[..<colon.lowerBound]
        guard isLibraryFile(library) else { return (frame, nil) }
        return (String(frame[colon.upperBound...]), String(library))
    }

    /// A shared library's file name: no spaces, `lib….so`, `….so.N` or `….dylib`.
    private static func isLibraryFile(_ name: Substring) -> Bool {
        !name.contains(" ") && (name.hasSuffix(".dylib") || name.contains(".so"))
    }

    /// The libraries a trap passes through on its way down, never the crash's place: the C library
    /// (`abort`, `raise`, the dynamic loader) and the Swift runtime (`swift::fatalError`).
    package static func isTrapMachinery(_ library: String) -> Bool {
        ["libc.so", "libc-", "libpthread", "ld-linux", "libswiftCore.so", "libswiftRuntime.so", "libsystem_"]
            .contains { library.hasPrefix($0) }
    }
}
