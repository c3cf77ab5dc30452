import ArgumentParser
import SimCore
import SimEngine

/// `fuzz --result FILE`: one shard's result document for `simrun merge` — what `fuzz` found and
/// ran, and exactly which seeds it covered — written atomically when the campaign ends.
extension FuzzCommand {
    /// A shard result must say exactly which seeds it ran: a seed range, not a deadline; and `dfs`
    /// walks one tree, which seeds do not split.
    func validateResult() throws {
        guard result != nil else { return }
        if time != nil {
            throw ValidationError("--result needs a seed range (--seeds), not --time: a result says which seeds it ran")
        }
        if strategy.kind == .dfs { throw ValidationError("--result does not apply to dfs, which seeds do not split") }
    }

    /// Creates the result file's directory before any schedule runs, so a bad path fails first.
    func prepareResult() throws(CommandFailure) {
        guard let result else { return }
        let directory = result.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        if !directory.isEmpty { try ensureDirectory(directory) }
    }

    /// Writes the result document when `--result` was given. The findings' traces are already
    /// saved; a result that cannot be written is an error, but never hides a bug found (exit 1).
    func writeResult(
        _ outcome: CampaignOutcome, plan: RunPlan, range: Range<UInt64>, shard: Shard,
        source: ShardEnvironment.Source?, traces: [UInt64: String], status: Int32, console: Console
    ) throws(CommandFailure) {
        guard let result else { return }
        let report = outcome.report
        let lowest = (report.findings.map(\.seed) + outcome.crashes.map(\.seed)).min()
        // Without --keep-going a shard stops at its first failure, having run every seed below it.
        let through = keepGoing ? UInt64.max : lowest ?? .max
        let covered =
            outcome.interrupted ? [] : [SeedProgression(shard: shard, of: range, through: through)].compactMap { $0 }
        let findings =
            report.findings.map { ($0.verdict, $0.seed, $0.occurrences) }
            + outcome.crashes.map { (Verdict.crashed($0.message), $0.seed, $0.occurrences) }
        let verdict = status == ExitStatus.failure ? "fail" : outcome.interrupted ? "interrupted" : "pass"
        let rate = report.seconds > 0 ? Double(report.schedules) / report.seconds : 0
        let members: [JSONValue.Member] =
            [
                .init("schema", .string("simrun.result/1")), .init("command", .string("fuzz")),
                .init("verdict", .string(verdict)), .init("exitCode", .int(Int64(status))),
                .init("scenario", .string(plan.scenario.name)), .init("variant", .string(plan.variant)),
                .init("strategy", .string(strategy.description)),
                .init("seeds", .object(["from": .unsigned(range.lowerBound), "to": .unsigned(range.upperBound)])),
                .init("jobs", .int(Int64(jobs))), .init("shard", .string(shard.description)),
                .init("from", .optional(from)), .init("interrupted", .bool(outcome.interrupted)),
                .init("schedules", .int(Int64(report.schedules))),
                .init("seconds", .number(report.seconds, decimals: 3)),
                .init("rate", .number(rate, decimals: 0)), .init("failures", .int(Int64(report.failures))),
                .init("distinct", .int(Int64(findings.count))),
                .init(
                    "findings",
                    .array(
                        findings.sorted { $0.1 < $1.1 }.map { verdict, seed, occurrences in
                            .object([
                                "signature": .string(FailureSignature(verdict).description),
                                "oracle": .string(verdict.oracle), "message": .string(verdict.message),
                                "seed": .unsigned(seed), "occurrences": .int(Int64(occurrences)),
                                "trace": .optional(traces[seed]),
                                "nondeterministic": .bool(outcome.nondeterministic.contains(seed)),
                            ])
                        })),
                .init(
                    "sometimes",
                    .array(
                        zip(report.goals, report.goalCounts).map {
                            .object(["goal": .string($0.0), "runs": .int(Int64($0.1))])
                        })),
            ]
            + ShardResult.members(
                covered: covered, keepGoing: keepGoing, out: out, shard: shard,
                source: source?.rawValue ?? "none")
        do {
            try AtomicFile.write(Array((JSONValue.object(members).text + "\n").utf8), to: result)
        } catch {
            guard status == ExitStatus.failure else { throw error }
            console.err("simrun: \(error.message) (the bug found is reported above)")
        }
    }
}
