import SimCore
import SimTrace

/// What a shrinking child (`simrun _shrink`) is asked to shrink, as one typed, versioned value on
/// its stdin, answered with one `ChildRecord` (shrunk, not reproduced, or a failure). `simrun shrink`
/// and `FindingCampaign` both shrink through it, in a child, because a candidate schedule may trap:
/// the trap ends the child, never the command. Every member is always written and always required
/// when read (`ChildRequestTests`).
package struct ShrinkRequest: Sendable, Equatable {
    /// The version of this encoding; a child refuses any other.
    package static let version: Int64 = 1

    /// The failing trace.
    package var trace: String
    /// Where the shrunk trace goes (the trace itself: shrunk in place).
    package var out: String

    package init(trace: String, out: String) {
        self.trace = trace
        self.out = out
    }

    /// The request as one line of JSON.
    package var text: String {
        JSONValue.object(["version": .int(Self.version), "trace": .string(trace), "out": .string(out)]).text
    }

    /// Decodes a request written by `text`: every member required, the version this one's.
    package init(decoding text: String) throws(SimEngineError) {
        let fields = try RequestFields(parsing: text, what: "shrink request", version: Self.version)
        self.init(trace: try fields.string("trace"), out: try fields.string("out"))
    }

    /// Reads a request from `descriptor` (the child's stdin) to its end.
    package static func read(from descriptor: Int32) throws(SimEngineError) -> ShrinkRequest {
        try ShrinkRequest(decoding: try RequestFields.readAll(descriptor, what: "shrink request"))
    }

    /// The child's work: shrinks `trace` into `out` and says how in one record (never throws: a
    /// failure is a record too, with its kind).
    package func run(in catalog: ScenarioCatalog) -> ChildRecord {
        do throws(SimEngineError) {
            let input = try TraceInput(path: trace)
            guard let footer = input.footer, footer.verdict.isFailure else {
                throw .usage("\(trace): no failure to shrink")
            }
            let plan = try input.plan(in: catalog)
            return try TraceShrink.shrink(input, footer: footer, plan: plan, to: out).map { .shrunk($0) }
                ?? .notReproduced
        } catch {
            return .failure(kind: error.kind, message: error.message)
        }
    }

    /// How a shrinking child ended, as the parent sees it.
    package enum Outcome: Equatable {
        /// The child's record.
        case record(ChildRecord)
        /// A candidate schedule trapped and took the child down, with the trap's message.
        case trapped(String)
        /// Ctrl-C or SIGTERM, passed on, stopped it.
        case interrupted
    }

    /// Runs this request in a child (`forwardingInterruption`: Ctrl-C is passed on, as for a
    /// command that runs there; killed after `timeoutSeconds`) and reads its one record.
    package func runInChild(forwardingInterruption: Bool = false, timeoutSeconds: Double = 300) throws(SimEngineError)
        -> Outcome
    {
        let output = try ChildProcess.run(
            ["_shrink"], input: Array(text.utf8), timeoutSeconds: timeoutSeconds,
            forwardingInterruption: forwardingInterruption)
        if case .signaled = output.termination {
            if Interruption.isRequested { return .interrupted }
            return .trapped(ChildProcess.trapMessage(in: output.stderr) ?? output.termination.description)
        }
        if Interruption.isRequested && output.termination != .exited(0) { return .interrupted }
        guard let record = ChildRecord.records(in: output.stdout).last else {
            throw SimEngineError(.failed, "the shrinking process \(output.termination) without its record")
        }
        return .record(record)
    }
}
