import SimCore

/// What a determinism-checking child (`simrun _digests`) is asked to run, as one typed, versioned
/// value on its stdin: `DeterminismCampaign` writes it, the child decodes it and calls
/// `run(in:emit:)`, which answers with one `DigestsRequest.Sample` record a seed. Every member is
/// always written and always required when read (`DigestsRequestTests` holds both sides to every
/// stored property).
package struct DigestsRequest: Sendable, Equatable {
    /// The version of this encoding; a child refuses any other.
    package static let version: Int64 = 1

    package var scenario: String
    package var variant: String
    /// The strategy as the command line spells it.
    package var strategy: String
    /// The seeds to run.
    package var seeds: DeterminismCampaign.Seeds
    /// Noise lanes added to each run.
    package var noise: Int
    /// Where each run's jobs run.
    package var carriers: CarrierMode
    /// The parent's step estimate: given, the child runs no fifo probe of its own (a probe that traps
    /// would be taken for a trap of the first seed).
    package var estimatedSteps: Int?

    package init(
        scenario: String, variant: String, strategy: String, seeds: DeterminismCampaign.Seeds, noise: Int,
        carriers: CarrierMode, estimatedSteps: Int?
    ) {
        self.scenario = scenario
        self.variant = variant
        self.strategy = strategy
        self.seeds = seeds
        self.noise = noise
        self.carriers = carriers
        self.estimatedSteps = estimatedSteps
    }

    /// The request as one line of JSON.
    package var text: String {
        JSONValue.object([
            "version": .int(Self.version), "scenario": .string(scenario), "variant": .string(variant),
            "strategy": .string(strategy),
            "seeds": .object([
                "start": .unsigned(seeds.start), "stride": .unsigned(seeds.stride), "count": .int(Int64(seeds.count)),
            ]),
            "noise": .int(Int64(noise)), "carriers": .string(carriers.rawValue),
            "estimatedSteps": estimatedSteps.map { .int(Int64($0)) } ?? .null,
        ]).text
    }

    /// Decodes a request written by `text`: every member required, the version this one's.
    package init(decoding text: String) throws(SimEngineError) {
        let fields = try RequestFields(parsing: text, what: "digests request", version: Self.version)
        let seeds = try fields.object("seeds")
        self.init(
            scenario: try fields.string("scenario"), variant: try fields.string("variant"),
            strategy: try fields.string("strategy"),
            seeds: DeterminismCampaign.Seeds(
                start: try seeds.unsigned("start"), stride: try seeds.unsigned("stride"), count: try seeds.int("count")),
            noise: try fields.int("noise"), carriers: try WorkerRequest.carriers(fields),
            estimatedSteps: try fields.optionalInt("estimatedSteps"))
    }

    /// Reads a request from `descriptor` (the child's stdin) to its end.
    package static func read(from descriptor: Int32) throws(SimEngineError) -> DigestsRequest {
        try DigestsRequest(decoding: try RequestFields.readAll(descriptor, what: "digests request"))
    }

    /// The child's work: runs each seed and hands `emit` its sample record as it ends, so that a
    /// parent sees how far a child got when a seed traps and kills it.
    package func run(in catalog: ScenarioCatalog, emit: (String) -> Void) throws(SimEngineError) {
        let plan = try RequestPlan.make(
            in: catalog, scenario: scenario, variant: variant, strategy: strategy, estimatedSteps: estimatedSteps,
            noise: noise, carriers: carriers, what: "digests request")
        for seed in seeds.all {
            let result = plan.run(seed: seed, strategy: plan.makeStrategy())
            emit(Self.record(seed: seed, digest: result.digest.value, verdictCode: result.verdict.code))
        }
    }

    /// The record of one seed's run: one JSON object on a line.
    package static func record(seed: UInt64, digest: UInt64, verdictCode: UInt8) -> String {
        JSONValue.object([
            "sample": .object([
                "seed": .unsigned(seed), "digest": .unsigned(digest), "verdict": .int(Int64(verdictCode)),
            ])
        ]).text
    }

    /// The seed and sample a record line holds; nil for any other line.
    package static func sample(in line: Substring) -> (UInt64, DeterminismCampaign.Sample)? {
        guard line.first == "{", let value = try? JSONValue(parsing: String(line)), let sample = value["sample"],
            let seed = sample["seed"]?.unsignedValue, let digest = sample["digest"]?.unsignedValue,
            let code = sample["verdict"]?.intValue, let verdictCode = UInt8(exactly: code)
        else { return nil }
        return (seed, DeterminismCampaign.Sample(digest: digest, verdictCode: verdictCode))
    }
}
