import SimCore
import SimTrace

/// What a recording child (`simrun _record`) is asked to record, as one typed, versioned value on
/// its stdin: `IsolatedRecording` writes it, the child decodes it and calls `plan(in:)` and
/// `strategy(for:)`. Every member is always written and always required when read
/// (`RecordRequestTests` holds both sides to every stored property).
package struct RecordRequest: Sendable, Equatable {
    /// The version of this encoding; a child refuses any other.
    package static let version: Int64 = 1

    package var scenario: String
    package var variant: String
    /// The strategy as the command line spells it (also the name the header records).
    package var strategy: String
    package var seed: UInt64
    /// The trace to write.
    package var out: String
    /// Follow this trace's schedule instead of the strategy.
    package var tapeFrom: String?
    /// Follow `tapeFrom`'s schedule by job identity (a replay on another variant), not decision by decision.
    package var byIdentity: Bool
    /// With `byIdentity`: read the schedule from the trace alone (it is another build's).
    package var scheduleFromTrace: Bool
    /// Noise lanes added to the run.
    package var noise: Int
    /// A trace whose first `keep` decisions the run keeps (the prefix of a `fuzz --from` campaign).
    package var from: String?
    package var keep: Int
    /// The plan's step estimate (nil: the child probes with a fifo run, which may trap).
    package var estimatedSteps: Int?
    /// Where the run's jobs run (the plan's `--preempt`).
    package var carriers: CarrierMode

    package init(
        scenario: String, variant: String, strategy: String, seed: UInt64, out: String, tapeFrom: String? = nil,
        byIdentity: Bool = false, scheduleFromTrace: Bool = false, noise: Int = 0, from: String? = nil, keep: Int = 0, estimatedSteps: Int? = nil,
        carriers: CarrierMode = .off
    ) {
        self.scenario = scenario
        self.variant = variant
        self.strategy = strategy
        self.seed = seed
        self.out = out
        self.tapeFrom = tapeFrom
        self.byIdentity = byIdentity
        self.scheduleFromTrace = scheduleFromTrace
        self.noise = noise
        self.from = from
        self.keep = keep
        self.estimatedSteps = estimatedSteps
        self.carriers = carriers
    }

    /// The request as one line of JSON.
    package var text: String {
        JSONValue.object([
            "version": .int(Self.version), "scenario": .string(scenario), "variant": .string(variant),
            "strategy": .string(strategy), "seed": .unsigned(seed), "out": .string(out),
            "tapeFrom": .optional(tapeFrom), "byIdentity": .bool(byIdentity),
            "scheduleFromTrace": .bool(scheduleFromTrace), "noise": .int(Int64(noise)),
            "from": .optional(from), "keep": .int(Int64(keep)),
            "estimatedSteps": estimatedSteps.map { .int(Int64($0)) } ?? .null,
            "carriers": .string(carriers.rawValue),
        ]).text
    }

    /// Decodes a request written by `text`: every member required, the version this one's.
    package init(decoding text: String) throws(SimEngineError) {
        let fields = try RequestFields(parsing: text, what: "record request", version: Self.version)
        self.init(
            scenario: try fields.string("scenario"), variant: try fields.string("variant"),
            strategy: try fields.string("strategy"), seed: try fields.unsigned("seed"), out: try fields.string("out"),
            tapeFrom: try fields.optionalString("tapeFrom"), byIdentity: try fields.bool("byIdentity"),
            scheduleFromTrace: try fields.bool("scheduleFromTrace"),
            noise: try fields.int("noise"), from: try fields.optionalString("from"), keep: try fields.int("keep"),
            estimatedSteps: try fields.optionalInt("estimatedSteps"), carriers: try WorkerRequest.carriers(fields))
    }

    /// Reads a request from `descriptor` (the child's stdin) to its end.
    package static func read(from descriptor: Int32) throws(SimEngineError) -> RecordRequest {
        try RecordRequest(decoding: try RequestFields.readAll(descriptor, what: "record request"))
    }

    /// The plan the child runs.
    package func plan(in catalog: ScenarioCatalog) throws(SimEngineError) -> RunPlan {
        let found = try catalog.scenario(named: scenario)
        guard let spec = StrategySpec(parsing: strategy) else {
            throw .usage("record request: unknown strategy '\(strategy)' (strategies: \(StrategySpec.names))")
        }
        let chosen = try catalog.variant(variant, of: found)
        var plan =
            estimatedSteps.map {
                RunPlan(scenario: found, variant: chosen, strategy: spec, estimatedSteps: $0, noise: noise)
            } ?? RunPlan(scenario: found, variant: chosen, strategy: spec, noise: noise)
        plan.carriers = carriers
        if let from { plan.prefix = SchedulePrefix(tape: try TraceInput(path: from).tape, keep: keep, source: from) }
        return plan
    }

    /// The strategy the child's run follows: `tapeFrom`'s schedule (by decision, or by job identity),
    /// else the plan's own.
    package func strategy(for plan: RunPlan) throws(SimEngineError) -> any Strategy {
        guard let tapeFrom else { return plan.makeStrategy() }
        let input = try TraceInput(path: tapeFrom)
        guard byIdentity else { return ReplayStrategy(tape: input.tape) }
        let schedule =
            scheduleFromTrace
            ? try TraceSchedule.read(path: tapeFrom)
            : TraceReplayer(input: input, plan: plan).identitySchedule().schedule
        return ScheduleStrategy(schedule: schedule)
    }
}
