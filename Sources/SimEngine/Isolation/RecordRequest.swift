import SimCore
import SimTrace

/// What a recording child (`simrun _record`) is asked to record, as one typed, versioned value on
/// its stdin: `IsolatedRecording` writes it, the child decodes it and calls `plan(in:)` and
/// `strategy(for:)`. Every member is always written and always required when read
/// (`RecordRequestTests` holds both sides to every stored property).
package struct RecordRequest: Sendable, Equatable {
    /// The version of this encoding; a child refuses any other (2: `inOrder`).
    package static let version: Int64 = 2

    /// The run of an in-order campaign to record: the child re-runs the campaign over `seeds` up to
    /// run `run` (from 0), learning what it learned, and records that run.
    package struct InOrderRun: Sendable, Equatable {
        package var run: Int
        package var seeds: Range<UInt64>

        package init(run: Int, seeds: Range<UInt64>) {
            self.run = run
            self.seeds = seeds
        }
    }

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
    /// With `byIdentity`: the trace is another build's; its schedule is read as a replay on another
    /// build reads it (``TraceReplayer/scheduleForOtherBuild(rerunning:)``).
    package var scheduleFromTrace: Bool
    /// With `scheduleFromTrace`: the file alone, the recording not re-run here (a re-run of another
    /// build's recording can trap before the run to record starts).
    package var fileScheduleOnly: Bool
    /// Noise lanes added to the run.
    package var noise: Int
    /// A trace whose first `keep` decisions the run keeps (the prefix of a `fuzz --from` campaign).
    package var from: String?
    package var keep: Int
    /// The plan's step estimate (nil: the child probes with a fifo run, which may trap).
    package var estimatedSteps: Int?
    /// Where the run's jobs run (the plan's `--preempt`).
    package var carriers: CarrierMode
    /// Record run `inOrder.run` of an in-order campaign instead of `seed` alone (nil: `seed` alone).
    package var inOrder: InOrderRun?

    package init(
        scenario: String, variant: String, strategy: String, seed: UInt64, out: String, tapeFrom: String? = nil,
        byIdentity: Bool = false, scheduleFromTrace: Bool = false, fileScheduleOnly: Bool = false, noise: Int = 0,
        from: String? = nil, keep: Int = 0, estimatedSteps: Int? = nil,
        carriers: CarrierMode = .off, inOrder: InOrderRun? = nil
    ) {
        self.scenario = scenario
        self.variant = variant
        self.strategy = strategy
        self.seed = seed
        self.out = out
        self.tapeFrom = tapeFrom
        self.byIdentity = byIdentity
        self.scheduleFromTrace = scheduleFromTrace
        self.fileScheduleOnly = fileScheduleOnly
        self.noise = noise
        self.from = from
        self.keep = keep
        self.estimatedSteps = estimatedSteps
        self.carriers = carriers
        self.inOrder = inOrder
    }

    /// The request as one line of JSON.
    package var text: String {
        JSONValue.object([
            "version": .int(Self.version), "scenario": .string(scenario), "variant": .string(variant),
            "strategy": .string(strategy), "seed": .unsigned(seed), "out": .string(out),
            "tapeFrom": .optional(tapeFrom), "byIdentity": .bool(byIdentity),
            "scheduleFromTrace": .bool(scheduleFromTrace), "fileScheduleOnly": .bool(fileScheduleOnly),
            "noise": .int(Int64(noise)),
            "from": .optional(from), "keep": .int(Int64(keep)),
            "estimatedSteps": estimatedSteps.map { .int(Int64($0)) } ?? .null,
            "carriers": .string(carriers.rawValue),
            "inOrder": inOrder.map {
                .object([
                    "run": .int(Int64($0.run)), "from": .unsigned($0.seeds.lowerBound),
                    "to": .unsigned($0.seeds.upperBound),
                ])
            } ?? .null,
        ]).text
    }

    /// Decodes a request written by `text`: every member required, the version this one's.
    package init(decoding text: String) throws(SimEngineError) {
        let fields = try RequestFields(parsing: text, what: "record request", version: Self.version)
        var inOrder: InOrderRun?
        if try !fields.isNull("inOrder") {
            let run = try fields.object("inOrder")
            let (number, from, to) = (try run.int("run"), try run.unsigned("from"), try run.unsigned("to"))
            guard number >= 0, from <= to else {
                throw .usage("record request: inOrder run \(number) of seeds \(from)..<\(to) is not a campaign run")
            }
            inOrder = InOrderRun(run: number, seeds: from..<to)
        }
        self.init(
            scenario: try fields.string("scenario"), variant: try fields.string("variant"),
            strategy: try fields.string("strategy"), seed: try fields.unsigned("seed"), out: try fields.string("out"),
            tapeFrom: try fields.optionalString("tapeFrom"), byIdentity: try fields.bool("byIdentity"),
            scheduleFromTrace: try fields.bool("scheduleFromTrace"),
            fileScheduleOnly: try fields.bool("fileScheduleOnly"),
            noise: try fields.int("noise"), from: try fields.optionalString("from"), keep: try fields.int("keep"),
            estimatedSteps: try fields.optionalInt("estimatedSteps"), carriers: try WorkerRequest.carriers(fields),
            inOrder: inOrder)
    }

    /// Reads a request from `descriptor` (the child's stdin) to its end.
    package static func read(from descriptor: Int32) throws(SimEngineError) -> RecordRequest {
        try RecordRequest(decoding: try RequestFields.readAll(descriptor, what: "record request"))
    }

    /// The plan the child runs.
    package func plan(in catalog: ScenarioCatalog) throws(SimEngineError) -> RunPlan {
        try RequestPlan.make(
            in: catalog, scenario: scenario, variant: variant, strategy: strategy, estimatedSteps: estimatedSteps,
            noise: noise, carriers: carriers, from: from, keep: keep, what: "record request")
    }

    /// The strategy the child's run follows: `tapeFrom`'s schedule (by decision, or by job identity),
    /// else the plan's own.
    package func strategy(for plan: RunPlan) throws(SimEngineError) -> any Strategy {
        guard let tapeFrom else { return plan.makeStrategy() }
        let input = try TraceInput(path: tapeFrom)
        guard byIdentity else { return ReplayStrategy(tape: input.tape) }
        let replayer = TraceReplayer(input: input, plan: plan)
        let schedule =
            scheduleFromTrace
            ? try replayer.scheduleForOtherBuild(rerunning: !fileScheduleOnly).schedule
            : replayer.identitySchedule().schedule
        return ScheduleStrategy(schedule: schedule)
    }

    /// Records what this request names into `out` through a checkpointing sink (`simrun _record`'s
    /// work): `announce` gets the `partial` record, the file the parent seals if this process dies,
    /// before the run starts. With `inOrder`, the campaign runs again up to that run (keeping going
    /// past failures, as the campaign that reached it did) and records it.
    package func record(in catalog: ScenarioCatalog, announce: (String) -> Void) throws(SimEngineError) {
        let plan = try plan(in: catalog)
        let strategyObject = inOrder == nil ? try strategy(for: plan) : nil
        let header = TraceHeader(
            toolVersion: SimRunVersion.current, scenario: plan.scenario.name, variant: plan.variant, seed: seed,
            strategy: strategy, options: plan.options.map { TraceOption($0.0, $0.1) }, build: BuildIdentity.current)
        let writer: TraceWriter
        do {
            writer = try TraceWriter(path: out, header: header)
        } catch {
            throw SimEngineError(.cannotWrite, "cannot write \(out): \(error)")
        }
        announce(ChildRecord.partial(writer.temporaryPath ?? out).text)
        let sink = CheckpointingSink(writer: writer)
        let result: RunResult
        if let inOrder {
            let recording = InOrderRecording(run: inOrder.run, sink: sink)
            var configuration = Fuzzer.Configuration(seeds: inOrder.seeds, keepGoing: true)
            configuration.recording = recording
            _ = Fuzzer(plan: plan, configuration: configuration).runCampaign(progress: { _, _, _, _ in })
            guard let reached = recording.result, recording.seed == seed else {
                writer.abandon()
                throw SimEngineError(.failed, "the campaign re-run did not reach run \(inOrder.run + 1) (seed \(seed))")
            }
            result = reached
        } else {
            result = plan.run(seed: seed, strategy: strategyObject ?? plan.makeStrategy(), sink: sink)
        }
        do {
            try writer.finish(Recorder.footer(for: result))
        } catch {
            writer.abandon()
            throw SimEngineError(.cannotWrite, "cannot write \(out): \(error)")
        }
    }
}
