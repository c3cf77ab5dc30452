import SimCore

/// What a fuzz campaign ran and found, in the form its result document encodes: `fuzz --json`
/// today, and any other report of a campaign (a shard's result file) by conforming to it.
public protocol CampaignReport {
    /// Schedules run.
    var schedules: Int { get }
    /// Runs that failed (every one, not only distinct ones).
    var failures: Int { get }
    /// Wall-clock seconds the campaign ran.
    var seconds: Double { get }
    /// True when an exhaustive strategy ran out of schedules.
    var exhausted: Bool { get }
    /// Each `sometimes` goal with the number of runs that reached it, in declaration order.
    var coverage: [(goal: String, runs: Int)] { get }
    /// One entry per distinct failure, lowest seed first.
    var distinctFailures: [CampaignFinding] { get }
    /// What a strategy that learns across runs learned from, or why it could not (nil otherwise).
    var learning: String? { get }
    /// The distinct schedules the runs took and what they saw but did not control (nil: not known,
    /// a document written before simrun counted them).
    var schedulesExplored: Explored? { get }
}

extension CampaignReport {
    /// None: only campaigns of learning strategies (`Fuzzer.Report`) carry a learning note.
    public var learning: String? { nil }
    /// Not known: a report that does not count its schedules says nothing about them.
    public var schedulesExplored: Explored? { nil }
}

/// One distinct failure of a campaign: its signature and the lowest seed that showed it.
public struct CampaignFinding: Sendable {
    /// The verdict of the run that showed it first (lowest seed).
    public var verdict: Verdict
    /// The seed of that run.
    public var seed: UInt64
    /// How many runs failed this way.
    public var occurrences: Int

    /// A finding from its first verdict, seed and count.
    public init(verdict: Verdict, seed: UInt64, occurrences: Int) {
        self.verdict = verdict
        self.seed = seed
        self.occurrences = occurrences
    }

    /// What makes two failures the same.
    public var signature: FailureSignature { FailureSignature(verdict) }
}

extension Fuzzer.Report: CampaignReport {
    /// What the runs explored (a campaign's report always knows).
    public var schedulesExplored: Explored? { explored }
    /// Each goal with the runs that reached it.
    public var coverage: [(goal: String, runs: Int)] { zip(goals, goalCounts).map { ($0, $1) } }
    /// The distinct failures, as campaign findings.
    public var distinctFailures: [CampaignFinding] {
        findings.map { CampaignFinding(verdict: $0.verdict, seed: $0.seed, occurrences: $0.occurrences) }
    }
}

/// A command's campaign outcome is a report with its crashes among the distinct failures, lowest
/// seed first: what `fuzz --json` (and a shard's result file) encodes.
extension CampaignOutcome: CampaignReport {
    package var schedules: Int { report.schedules }
    package var failures: Int { report.failures }
    package var seconds: Double { report.seconds }
    package var exhausted: Bool { report.exhausted }
    package var learning: String? { report.learning }
    package var schedulesExplored: Explored? { report.explored }
    package var coverage: [(goal: String, runs: Int)] { report.coverage }
    package var distinctFailures: [CampaignFinding] {
        let crashed = crashes.map {
            CampaignFinding(verdict: .crashed($0.message), seed: $0.seed, occurrences: $0.occurrences)
        }
        return (report.distinctFailures + crashed).sorted { $0.seed < $1.seed }
    }
}

/// The result-document members of a campaign (schema `simrun.result/1`, the article "Exit codes and the JSON schema").
public enum CampaignJSON {
    /// `schedules`, `seconds`, `rate`, `failures`, `distinct`, `findings`, `sometimes`, `explored`
    /// (``Explored/json(digests:)``, when known) (and `exhausted` when `exhaustive`, `learning` when the strategy
    /// learns across runs) for `report`; `details` adds members to each finding (its
    /// trace path, what the command knows about it).
    public static func members(
        of report: some CampaignReport, also extra: [CampaignFinding] = [], exhaustive: Bool = false,
        details: (CampaignFinding) -> [JSONValue.Member] = { _ in [] }
    ) -> [JSONValue.Member] {
        let findings = (report.distinctFailures + extra).map { finding -> JSONValue in
            .object(
                [
                    .init("signature", .string(finding.signature.description)),
                    .init("oracle", .string(finding.verdict.oracle)),
                    .init("message", .string(finding.verdict.message)),
                    .init("seed", .unsigned(finding.seed)),
                    .init("occurrences", .int(Int64(finding.occurrences))),
                ] + details(finding))
        }
        let rate = report.seconds > 0 ? Double(report.schedules) / report.seconds : 0
        var members: [JSONValue.Member] = [
            .init("schedules", .int(Int64(report.schedules))),
            .init("seconds", .number(report.seconds, decimals: 3)),
            .init("rate", .number(rate, decimals: 0)),
            .init("failures", .int(Int64(report.failures))),
            .init("distinct", .int(Int64(findings.count))),
            .init("findings", .array(findings)),
            .init(
                "sometimes",
                .array(
                    report.coverage.map {
                        .object(["goal": .string($0.goal), "runs": .int(Int64($0.runs))])
                    })),
        ]
        if let explored = report.schedulesExplored { members.append(.init("explored", explored.json())) }
        if exhaustive { members.append(.init("exhausted", .bool(report.exhausted))) }
        if let learning = report.learning { members.append(.init("learning", .string(learning))) }
        return members
    }
}
