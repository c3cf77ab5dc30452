import SimCore

/// What a recording or shrinking child (`simrun _record`, `_shrink`, a guarded campaign's re-run)
/// tells its parent: typed records, one JSON object a line on stdout, decoded by the parent; never
/// text to search for.
package enum ChildRecord: Equatable {
    /// The file the child is writing through a checkpointing sink: sealed by the parent if the child dies.
    case partial(String)
    /// A shrink's result.
    case shrunk(ShrinkReport)
    /// The failure did not reproduce: nothing to shrink.
    case notReproduced
    /// The child stopped with this failure.
    case failure(kind: SimEngineError.Kind, message: String)

    /// The record on one line.
    package var text: String {
        switch self {
        case .partial(let path): JSONValue.object(["partial": .string(path)]).text
        case .notReproduced: JSONValue.object(["notReproduced": .bool(true)]).text
        case .failure(let kind, let message):
            JSONValue.object(["failure": .object(["kind": .string(kind.rawValue), "message": .string(message)])]).text
        case .shrunk(let report):
            JSONValue.object([
                "shrunk": .object([
                    "runs": .int(Int64(report.runs)), "before": Self.encode(report.before),
                    "after": Self.encode(report.after), "verdict": ReplayChildRecord.encode(report.verdict),
                ])
            ]).text
        }
    }

    /// The record a line holds; nil for anything else.
    package init?(decoding line: Substring) {
        guard line.first == "{", let value = try? JSONValue(parsing: String(line)) else { return nil }
        if let path = value["partial"]?.stringValue {
            self = .partial(path)
        } else if value["notReproduced"] != nil {
            self = .notReproduced
        } else if let failure = value["failure"],
            let kind = failure["kind"]?.stringValue.flatMap(SimEngineError.Kind.init(rawValue:)),
            let message = failure["message"]?.stringValue
        {
            self = .failure(kind: kind, message: message)
        } else if let shrunk = value["shrunk"], let runs = shrunk["runs"]?.intValue,
            let before = Self.decodeCounts(shrunk["before"]), let after = Self.decodeCounts(shrunk["after"]),
            let verdict = ReplayChildRecord.decodeVerdict(shrunk["verdict"])
        {
            self = .shrunk(ShrinkReport(runs: runs, before: before, after: after, verdict: verdict))
        } else {
            return nil
        }
    }

    /// Every record in a child's stdout, in order (other lines are skipped).
    package static func records(in stdout: String) -> [ChildRecord] {
        stdout.split(separator: "\n").compactMap(ChildRecord.init(decoding:))
    }

    private static func encode(_ counts: ShrinkCounts) -> JSONValue {
        .object([
            "decisions": .int(Int64(counts.decisions)), "nonFifo": .int(Int64(counts.nonFifo)),
            "events": .unsigned(counts.events), "steps": .int(Int64(counts.steps)),
        ])
    }

    private static func decodeCounts(_ value: JSONValue?) -> ShrinkCounts? {
        guard let value, let decisions = value["decisions"]?.intValue, let nonFifo = value["nonFifo"]?.intValue,
            let events = value["events"]?.unsignedValue, let steps = value["steps"]?.intValue
        else { return nil }
        return ShrinkCounts(decisions: decisions, nonFifo: nonFifo, events: events, steps: steps)
    }
}
