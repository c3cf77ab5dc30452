import ArgumentParser
import SimCore
import SimEngine

/// `fuzz --from <trace> [--keep N]`: the campaign runs around a recorded schedule, every run keeping
/// the trace's first N decisions (followed by job identity) and letting the strategy choose the rest.
extension FuzzCommand {
    func validateFrom() throws {
        if from == nil && scenario == nil { throw ValidationError("give a scenario to fuzz, or --from a trace") }
        if from == nil && keep != nil { throw ValidationError("--keep needs --from") }
        if from != nil && strategy.campaignShape == .exhaustive {
            throw ValidationError("--from varies the rest of a schedule at random; use random, pct, delay or portfolio")
        }
    }

    /// The plan before it is planned: the named scenario, or the trace's (its variant unless
    /// --variant), with the prefix. Nothing runs: its step estimate (1 here) and goals are learned by
    /// planning (`Isolation.plan`), in a child when there is one.
    func makePlan(_ context: CommandContext) throws(CommandFailure) -> RunPlan.Descriptor {
        func plan(_ found: Scenario, _ chosen: String, _ lanes: Int, recorded: CarrierMode = .off) -> RunPlan.Descriptor {
            RunPlan.Descriptor(
                scenario: found.name, variant: chosen, strategy: strategy, estimatedSteps: 1, noise: lanes,
                carriers: preempt ? .preemptLocks : recorded)
        }
        guard let from else {
            let found = try context.catalog.scenario(named: scenario ?? "")
            return plan(found, try context.catalog.variant(variant.variant, of: found), noise ?? 0)
        }
        let input = try TraceInput(path: from)
        // Another scenario's schedule would be followed by job identity and silently mostly ignored.
        if let scenario, scenario != input.header.scenario {
            throw .usage(
                "--from \(from): the trace is of scenario \(input.header.scenario), not \(scenario) (omit the scenario to fuzz the trace's own)"
            )
        }
        let found = try context.catalog.scenario(named: input.header.scenario)
        let chosen = try context.catalog.variant(
            variant.variant ?? (found.hasVariant(input.header.variant) ? input.header.variant : nil), of: found)
        let recordedNoise = try TraceInput.noise(of: input.header, path: from)
        let lanes = noise ?? recordedNoise
        var plan = plan(found, chosen, lanes, recorded: try TraceInput.carriers(of: input.header, path: from))
        // Half by default: the trace's opening is kept, its ending explored.
        plan.prefix = .init(source: from, keep: min(keep ?? input.tape.count / 2, input.tape.count))
        return plan
    }

    /// The campaign line's note on the prefix, e.g. `  from t.simtrace keeping 12 of 24 decisions`.
    func prefixNote(_ plan: RunPlan) -> String {
        guard let from, let prefix = plan.prefix else { return "" }
        return "  from \(from) keeping \(prefix.keep) of \(prefix.tape.count) decisions"
    }
}
