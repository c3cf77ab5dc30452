import SimCore
import SimEngine

/// Nondeterminism as a finding that explains itself (the engine's `FindingCampaign` gathers the
/// evidence of a finding; `--check-determinism` here): a seed that runs differently in two processes
/// is reported with both verdicts, the first event where the runs part, and both traces saved under
/// names that say so (`<scenario>-<variant>-seed<S>-nondeterministic-<which>.simtrace`). A run that
/// passed is never saved as a failure.
extension FuzzCommand {
    /// What `--check-determinism` found, for the summary and `--json`.
    struct DeterminismSummary {
        var every: Int
        var checked: Int
        var differences: [(seed: UInt64, verdicts: [String], traces: [String])]
        var incomplete: String?
        /// Seeds that trapped the same way in both processes (deterministic crashes).
        var trapped: [(seed: UInt64, message: String)] = []

        var failed: Bool { !differences.isEmpty || incomplete != nil }

        var json: JSONValue {
            .object([
                "every": .int(Int64(every)), "checked": .int(Int64(checked)),
                "differences": .int(Int64(differences.count)),
                "seeds": .array(
                    differences.map { difference in
                        .object([
                            "seed": .unsigned(difference.seed),
                            "verdicts": .array(difference.verdicts.map { .string($0) }),
                            "traces": .array(difference.traces.map { .string($0) }),
                        ])
                    }),
                "incomplete": incomplete.map { .string($0) } ?? .null,
                "trapped": .array(
                    trapped.map { .object(["seed": .unsigned($0.seed), "message": .string($0.message)]) }),
            ])
        }
    }

    /// The differing runs of one seed are explained for at most this many seeds (each costs recordings).
    static let explainedDifferences = 3

    /// `--check-determinism[=N]`: every N-th seed of those the campaign ran, in two more processes.
    func checkDeterminism(
        every: Int, plan: RunPlan, range: Range<UInt64>, shard: Shard, schedules: Int, context: CommandContext
    ) throws(CommandFailure) -> DeterminismSummary {
        let console = context.console
        // The shard's seeds are lower + index + i * count; the campaign ran about the first `schedules`.
        // (With --time the range is open-ended: only the schedules run count.)
        let span = range.upperBound - range.lowerBound
        let after = span <= UInt64(shard.index) ? 0 : span - UInt64(shard.index)
        let shardSeeds = after / UInt64(shard.count) + (after % UInt64(shard.count) == 0 ? 0 : 1)
        let ran = Int(min(UInt64(schedules), shardSeeds))
        let seeds = DeterminismCampaign.Seeds(
            start: range.lowerBound &+ UInt64(shard.index), stride: UInt64(shard.count) &* UInt64(every),
            count: (ran + every - 1) / every)
        let campaign = DeterminismCampaign(recording: try recording(plan, context))
        let report = try campaign.run(seeds)
        var summary = DeterminismSummary(
            every: every, checked: report.checked, differences: [], incomplete: report.incomplete,
            trapped: report.trapped)
        for difference in report.differences {
            guard summary.differences.count < Self.explainedDifferences else {
                summary.differences.append((difference.seed, [], []))
                continue
            }
            console.out("NONDETERMINISTIC: seed \(difference.seed) ran differently in two processes")
            let evidence = try NondeterminismEvidence.gather(
                seed: difference.seed, firstDigest: difference.first.digest, recording: try recording(plan, context),
                directory: out, stem: stem(plan, seed: difference.seed), labels: ("first", "second"))
            let verdicts = [difference.first, difference.second].map { sample in
                if let trap = sample.trap { return "CRASH — \(trap)" }
                return Verdict(code: sample.verdictCode, oracle: "", message: "").map { $0 == .pass ? "pass" : "FAIL" }
                    ?? "verdict \(sample.verdictCode)"
            }
            for (label, sample, verdict) in [
                ("first process: ", difference.first, verdicts[0]), ("second process:", difference.second, verdicts[1]),
            ] {
                console.out("  \(label) \(verdict)\(sample.trap == nil ? " (digest \(Self.hex(sample.digest)))" : "")")
            }
            summary.differences.append((difference.seed, verdicts, Self.present(evidence, console: console)))
        }
        let shown = summary.differences.count - min(summary.differences.count, Self.explainedDifferences)
        if shown > 0 { console.out("  (\(shown) more differing seeds not explained)") }
        console.out(
            "determinism: \(summary.checked) seeds checked in two more processes (\(every == 1 ? "every seed" : "one in \(every)")), \(summary.differences.count) difference\(summary.differences.count == 1 ? "" : "s")"
        )
        // The campaign ran these seeds too: their crashes are its CRASH findings, and two more
        // processes trapped on each the same way, so they are deterministic, not a check cut short.
        var messages: [String] = []
        for (_, message) in summary.trapped where !messages.contains(message) { messages.append(message) }
        for message in messages {
            let seeds = summary.trapped.filter { $0.message == message }.map(\.seed)
            let listed = seeds.prefix(8).map(String.init).joined(separator: ", ") + (seeds.count > 8 ? ", …" : "")
            console.out(
                "  \(seeds.count) seed\(seeds.count == 1 ? "" : "s") trapped the same way in both processes (deterministic crash): seed\(seeds.count == 1 ? "" : "s") \(listed): \(message)"
            )
        }
        if let incomplete = summary.incomplete {
            console.out("  NOT COMPLETE: \(incomplete); the seeds it did not reach were not compared")
        }
        return summary
    }

    /// Prints the first difference and the saved traces; returns the traces' paths.
    static func present(_ evidence: NondeterminismEvidence, console: Console) -> [String] {
        if let divergence = evidence.divergence {
            for line in divergence { console.out("  \(line)") }
        } else {
            console.out(
                "  every one of \(evidence.recordings) recordings here ran \(evidence.reproducedFirst ? "like" : "like the others, unlike") the first process: no pair of differing traces to compare"
            )
        }
        for (label, outcome) in evidence.traces {
            console.out("  trace (\(label)): \(outcome.path) — \(Self.describe(outcome.verdict, outcome.digest.value))")
        }
        return evidence.traces.map(\.outcome.path)
    }

    private func recording(_ plan: RunPlan, _ context: CommandContext) throws(CommandFailure) -> IsolatedRecording {
        IsolatedRecording(
            plan: try plan.descriptor(), launcher: try context.isolation.launcher(for: "fuzz --check-determinism"))
    }

    private func stem(_ plan: RunPlan, seed: UInt64) -> String {
        "\(plan.scenario.name)-\(plan.variant)-seed\(seed)-nondeterministic"
    }

    static func describe(_ verdict: Verdict, _ digest: UInt64?) -> String {
        (verdict.isFailure ? "FAIL — \(verdict)" : "pass") + (digest.map { " (digest \(hex($0)))" } ?? "")
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// `--check-determinism` alone means every seed: ArgumentParser has no option with an optional
    /// value, so the bare flag of `fuzz` becomes `--check-determinism=1` before parsing.
    static func normalizingCheckDeterminism(_ arguments: [String]) -> [String] {
        guard arguments.first == "fuzz" else { return arguments }
        return arguments.map { $0 == "--check-determinism" ? "--check-determinism=1" : $0 }
    }
}
