import SimCore
import SimTrace

/// What the child of an in-order campaign (`simrun _campaign`) hands back: the campaign's report as
/// one typed, versioned JSON record on its stdout, each finding's tape as the trace the child wrote
/// (a trace is the tape's encoding already). Every member is written and required, like the
/// requests (`InOrderRequestTests` holds both sides to every member of `Fuzzer.Report`).
package struct InOrderOutcome: Sendable {
    /// The version of this encoding; a parent refuses any other.
    package static let version: Int64 = 1

    package var outcome: CampaignOutcome
    /// The trace of each of `outcome.report.findings`, in order.
    package var traces: [String]

    package init(outcome: CampaignOutcome, traces: [String]) {
        self.outcome = outcome
        self.traces = traces
    }

    /// The record on one line.
    package var text: String {
        let report = outcome.report
        let findings = zip(report.findings, traces).map { finding, trace in
            JSONValue.object([
                "seed": .unsigned(finding.seed), "verdict": ReplayChildRecord.encode(finding.verdict),
                "steps": .int(Int64(finding.steps)), "occurrences": .int(Int64(finding.occurrences)),
                "trace": .string(trace),
            ])
        }
        return JSONValue.object([
            "version": .int(Self.version), "schedules": .int(Int64(report.schedules)),
            "failures": .int(Int64(report.failures)), "findings": .array(findings),
            "goals": .array(report.goals.map { .string($0) }),
            "goalCounts": .array(report.goalCounts.map { .int(Int64($0)) }),
            // Exactly: the summary's rate is computed from it.
            "seconds": .number(report.seconds, decimals: 9), "exhausted": .bool(report.exhausted),
            "exhaustedRounds": .array(
                report.exhaustedRounds.map { .object(["bound": .int(Int64($0.bound)), "runs": .int(Int64($0.runs))]) }),
            "learning": .optional(report.learning), "interrupted": .bool(outcome.interrupted),
            "explored": report.explored.json(digests: true),
        ]).text
    }

    /// The record's `explored` member.
    private static func explored(_ fields: RequestFields) throws(SimEngineError) -> Explored {
        guard let explored = Explored(json: try fields.member("explored")) else {
            throw .usage("in-order campaign outcome: 'explored' is not the campaign's schedules")
        }
        return explored
    }

    /// Decodes the record in a child's stdout (the last line that is one): every member required,
    /// each finding's tape read from its trace.
    package init(childOutput stdout: String) throws(SimEngineError) {
        guard let line = stdout.split(separator: "\n").last(where: { $0.first == "{" }) else {
            throw SimEngineError(.failed, "the in-order campaign's process ended without its outcome")
        }
        let fields = try RequestFields(parsing: String(line), what: "in-order campaign outcome", version: Self.version)
        var findings: [Fuzzer.Finding] = []
        var traces: [String] = []
        for item in try fields.array("findings") {
            guard let verdict = ReplayChildRecord.decodeVerdict(try item.member("verdict")) else {
                throw .usage("in-order campaign outcome: a finding's 'verdict' is not a verdict")
            }
            let trace = try item.string("trace")
            findings.append(
                Fuzzer.Finding(
                    signature: FailureSignature(verdict), seed: try item.unsigned("seed"), verdict: verdict,
                    tape: try TraceInput(path: trace).tape, steps: try item.int("steps"),
                    occurrences: try item.int("occurrences")))
            traces.append(trace)
        }
        var rounds: [DFSStrategy.Round] = []
        for item in try fields.array("exhaustedRounds") {
            rounds.append(DFSStrategy.Round(bound: try item.int("bound"), runs: try item.int("runs")))
        }
        guard let seconds = try fields.member("seconds").doubleValue else {
            throw .usage("in-order campaign outcome: 'seconds' is not a number")
        }
        let report = Fuzzer.Report(
            schedules: try fields.int("schedules"), failures: try fields.int("failures"), findings: findings,
            goals: try fields.array("goals").map { (item: RequestFields) throws(SimEngineError) in try item.text() },
            goalCounts: try fields.array("goalCounts").map { (item: RequestFields) throws(SimEngineError) in
                try item.integer()
            },
            seconds: seconds, exhausted: try fields.bool("exhausted"), exhaustedRounds: rounds,
            learning: try fields.optionalString("learning"), explored: try Self.explored(fields))
        self.init(
            outcome: CampaignOutcome(
                report: report, crashes: [], interrupted: try fields.bool("interrupted"), nondeterministic: []),
            traces: traces)
    }
}
