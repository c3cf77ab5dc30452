import SimCore

/// The plan a child process rebuilds from the members every request carries (scenario, variant,
/// strategy, step estimate, noise, carriers, schedule prefix), so that `WorkerRequest`,
/// `RecordRequest`, `InOrderRequest` and `DigestsRequest` cannot rebuild it four different ways. An
/// unknown strategy or carrier mode is a usage error naming it: never a silent `fifo`.
enum RequestPlan {
    static func make(
        in catalog: ScenarioCatalog, scenario: String, variant: String, strategy: String, estimatedSteps: Int?,
        noise: Int, carriers: CarrierMode, from: String? = nil, keep: Int = 0, what: String
    ) throws(SimEngineError) -> RunPlan {
        let found = try catalog.scenario(named: scenario)
        let chosen = try catalog.variant(variant, of: found)
        guard let spec = StrategySpec(parsing: strategy) else {
            throw .usage("\(what): unknown strategy '\(strategy)' (strategies: \(StrategySpec.names))")
        }
        var plan =
            estimatedSteps.map {
                RunPlan(scenario: found, variant: chosen, strategy: spec, estimatedSteps: $0, noise: noise)
            } ?? RunPlan(scenario: found, variant: chosen, strategy: spec, noise: noise, carriers: carriers)
        plan.carriers = carriers
        if let from { plan.prefix = SchedulePrefix(tape: try TraceInput(path: from).tape, keep: keep, source: from) }
        return plan
    }
}
