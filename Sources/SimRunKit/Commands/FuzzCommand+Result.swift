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
        switch strategy.campaignShape {
        case .independentSeeds: break
        case .exhaustive:
            throw ValidationError("--result does not apply to \(strategy.kind), which seeds do not split")
        case .inOrder:
            // Each seed's schedule depends on the runs before it, so shards would not add up to one campaign.
            throw ValidationError("--result does not apply to \(strategy.kind), which learns from run to run")
        }
    }

    /// Checks the result file's place before any schedule runs, so a bad path fails first (73).
    func prepareResult() throws(CommandFailure) {
        guard let result else { return }
        // `--from t --result t` would replace the trace explored with the result document.
        if let from { try OutputPath.refuseInput(result, flag: "--result", inputs: [(from, "the --from trace")]) }
        try OutputPath.prepareFile(result, flag: "--result")
    }

    /// Writes the result document when `--result` was given: the `fuzz` document (`--json`) plus the
    /// shard's members (`ShardResult.members`). The findings' traces are already saved; a result that
    /// cannot be written is an error, but never hides a bug found (exit 1).
    func writeResult(
        _ document: ResultDocument, outcome: CampaignOutcome, explored: Explored, range: Range<UInt64>, shard: Shard,
        source: ShardEnvironment.Source?, status: Int32, console: Console
    ) throws(CommandFailure) {
        guard let result else { return }
        let lowest = (outcome.report.findings.map(\.seed) + outcome.crashes.map(\.seed)).min()
        // Without --keep-going a shard stops at its first failure, having run every seed below it.
        let through = keepGoing ? UInt64.max : lowest ?? .max
        let covered =
            outcome.interrupted ? [] : [SeedProgression(shard: shard, of: range, through: through)].compactMap { $0 }
        var document = document
        document.members += ShardResult.members(
            covered: covered, keepGoing: keepGoing, out: out, shard: shard, source: source?.rawValue ?? "none",
            explored: explored)
        do {
            try OutputPath.createParent(of: result)
            try AtomicFile.write(Array((document.text + "\n").utf8), to: result)
        } catch {
            guard status == ExitStatus.failure else { throw error }
            console.err("\(SimRun.programName): \(error.message) (the bug found is reported above)")
        }
    }
}
