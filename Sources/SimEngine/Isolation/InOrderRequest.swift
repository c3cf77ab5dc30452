import SimCore
import SimTrace

/// What the child that runs an in-order campaign (`simrun _campaign`) is asked to run, as one typed,
/// versioned value on its stdin: `InOrderSupervisor` writes it, the child decodes it and calls
/// `run(in:emit:)`. Every member is always written and always required when read
/// (`InOrderRequestTests` holds both sides to every stored property).
///
/// In-order strategies (one strategy object learning or walking from run to run) cannot be split
/// over worker processes; the whole campaign runs in this one child, so that a trap ends the child
/// and not the command. What the child found comes back as one `InOrderOutcome` record.
package struct InOrderRequest: Sendable, Equatable {
    /// The version of this encoding; a child refuses any other.
    package static let version: Int64 = 1

    package var scenario: String
    package var variant: String
    /// The strategy as the command line spells it.
    package var strategy: String
    /// The seeds, in order (for `dfs`, run numbers start at 0 whatever they say).
    package var seeds: Range<UInt64>
    /// Stop after this many milliseconds (a `--time` campaign).
    package var milliseconds: Int64?
    package var keepGoing: Bool
    /// Noise lanes added to every run.
    package var noise: Int
    /// A trace whose first `keep` decisions every run follows (`fuzz --from`).
    package var from: String?
    package var keep: Int
    /// The plan's step estimate (nil: the child probes with a fifo run).
    package var estimatedSteps: Int?
    /// Where each run's jobs run.
    package var carriers: CarrierMode
    /// The file each run is marked in before it starts (`RunMarker`): the run that trapped.
    package var marker: String
    /// The directory the child writes each finding's trace into, as found (its tape crosses as a trace).
    package var findings: String

    package init(
        scenario: String, variant: String, strategy: String, seeds: Range<UInt64>, milliseconds: Int64?,
        keepGoing: Bool, noise: Int, from: String?, keep: Int, estimatedSteps: Int?, carriers: CarrierMode,
        marker: String, findings: String
    ) {
        self.scenario = scenario
        self.variant = variant
        self.strategy = strategy
        self.seeds = seeds
        self.milliseconds = milliseconds
        self.keepGoing = keepGoing
        self.noise = noise
        self.from = from
        self.keep = keep
        self.estimatedSteps = estimatedSteps
        self.carriers = carriers
        self.marker = marker
        self.findings = findings
    }

    /// The request for a campaign of `plan` over `configuration`.
    package init(plan: RunPlan, configuration: Fuzzer.Configuration, marker: String, findings: String) {
        self.init(
            scenario: plan.scenario.name, variant: plan.variant, strategy: plan.strategy.description,
            seeds: configuration.seeds, milliseconds: configuration.seconds.map { Int64($0 * 1000) },
            keepGoing: configuration.keepGoing, noise: plan.noise, from: plan.prefix?.source,
            keep: plan.prefix?.keep ?? 0, estimatedSteps: plan.estimatedSteps, carriers: plan.carriers,
            marker: marker, findings: findings)
    }

    /// The request as one line of JSON.
    package var text: String {
        JSONValue.object([
            "version": .int(Self.version), "scenario": .string(scenario), "variant": .string(variant),
            "strategy": .string(strategy),
            "seeds": .object(["from": .unsigned(seeds.lowerBound), "to": .unsigned(seeds.upperBound)]),
            "milliseconds": milliseconds.map { .int($0) } ?? .null, "keepGoing": .bool(keepGoing),
            "noise": .int(Int64(noise)), "from": .optional(from), "keep": .int(Int64(keep)),
            "estimatedSteps": estimatedSteps.map { .int(Int64($0)) } ?? .null,
            "carriers": .string(carriers.rawValue), "marker": .string(marker), "findings": .string(findings),
        ]).text
    }

    /// Decodes a request written by `text`: every member required, the version this one's.
    package init(decoding text: String) throws(SimEngineError) {
        let fields = try RequestFields(parsing: text, what: "in-order campaign request", version: Self.version)
        let seeds = try fields.object("seeds")
        let (lower, upper) = (try seeds.unsigned("from"), try seeds.unsigned("to"))
        guard lower <= upper else { throw .usage("in-order campaign request: seeds \(lower)..<\(upper) is not a range") }
        self.init(
            scenario: try fields.string("scenario"), variant: try fields.string("variant"),
            strategy: try fields.string("strategy"), seeds: lower..<upper,
            milliseconds: try fields.optionalInt("milliseconds").map(Int64.init),
            keepGoing: try fields.bool("keepGoing"), noise: try fields.int("noise"),
            from: try fields.optionalString("from"), keep: try fields.int("keep"),
            estimatedSteps: try fields.optionalInt("estimatedSteps"), carriers: try WorkerRequest.carriers(fields),
            marker: try fields.string("marker"), findings: try fields.string("findings"))
    }

    /// Reads a request from `descriptor` (the child's stdin) to its end.
    package static func read(from descriptor: Int32) throws(SimEngineError) -> InOrderRequest {
        try InOrderRequest(decoding: try RequestFields.readAll(descriptor, what: "in-order campaign request"))
    }

    /// The plan the child runs: the campaign's, rebuilt from the request.
    package func plan(in catalog: ScenarioCatalog) throws(SimEngineError) -> RunPlan {
        try RequestPlan.make(
            in: catalog, scenario: scenario, variant: variant, strategy: strategy, estimatedSteps: estimatedSteps,
            noise: noise, carriers: carriers, from: from, keep: keep, what: "in-order campaign request")
    }

    /// The child's work: runs the campaign on this thread, marking each run before it starts, writes
    /// each finding's trace (as found) into `findings`, and hands `emit` the one `InOrderOutcome`
    /// record. With `Interruption` installed (the child command does), Ctrl-C passed on by the parent
    /// stops the campaign, which still reports what ran.
    package func run(in catalog: ScenarioCatalog, emit: (String) -> Void) throws(SimEngineError) {
        let plan = try plan(in: catalog)
        guard !plan.strategy.campaignShape.isIndependent else {
            throw .usage("in-order campaign request: \(strategy) runs its seeds independently, in worker processes")
        }
        var configuration = Fuzzer.Configuration(
            seeds: seeds, seconds: milliseconds.map { Double($0) / 1000 }, keepGoing: keepGoing)
        configuration.runMarker = try RunMarker(path: marker)
        let outcome = Fuzzer(plan: plan, configuration: configuration).runCampaign(progress: { _, _, _, _ in })
        var traces: [String] = []
        for (index, finding) in outcome.report.findings.enumerated() {
            let path = "\(findings)/finding-\(index).simtrace"
            _ = try Recorder.record(
                plan: plan, seed: finding.seed, tape: finding.tape, strategyName: strategy, to: path)
            traces.append(path)
        }
        emit(InOrderOutcome(outcome: outcome, traces: traces).text)
    }
}
