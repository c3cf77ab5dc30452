import SimCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a fuzz worker process is asked to do, as one typed, versioned value: the supervisor encodes
/// it (one JSON object) onto the worker's stdin, `simrun _worker` decodes it and calls `run`. Every
/// member is always written and always required when read, so a member added on one side and
/// forgotten on the other is an error in the first campaign, not a silently different run
/// (`WorkerRequestTests` holds both sides to every stored property).
///
/// Nothing of the campaign logic is here: `run` drives `CampaignWorker` on the board it finds on
/// descriptor 3.
package struct WorkerRequest: Sendable, Equatable {
    /// The version of this encoding; a worker refuses any other.
    package static let version: Int64 = 1

    package var scenario: String
    package var variant: String
    package var strategy: String
    package var worker: Int
    package var workers: Int
    package var goals: Int
    package var space: SeedSpace
    /// The plan's step estimate, learned by the parent (nil: the worker probes with a fifo run).
    package var estimatedSteps: Int?
    package var keepGoing: Bool
    /// Stop after this many milliseconds (a `--time` campaign).
    package var milliseconds: Int64?
    /// The rest of a chunk whose worker died, run before claiming new chunks.
    package var resume: Range<UInt64>?
    /// A trace whose first `keep` decisions every run follows (`fuzz --from`).
    package var from: String?
    package var keep: Int
    /// Noise lanes added to every run (the plan's `--noise`).
    package var noise: Int
    /// Where each run's jobs run (the plan's `--preempt`).
    package var carriers: CarrierMode

    package init(
        scenario: String, variant: String, strategy: String, worker: Int, workers: Int, goals: Int, space: SeedSpace,
        estimatedSteps: Int?, keepGoing: Bool, milliseconds: Int64?, resume: Range<UInt64>?, from: String?, keep: Int,
        noise: Int, carriers: CarrierMode = .off
    ) {
        self.scenario = scenario
        self.variant = variant
        self.strategy = strategy
        self.worker = worker
        self.workers = workers
        self.goals = goals
        self.space = space
        self.estimatedSteps = estimatedSteps
        self.keepGoing = keepGoing
        self.milliseconds = milliseconds
        self.resume = resume
        self.from = from
        self.keep = keep
        self.noise = noise
        self.carriers = carriers
    }

    /// The request for worker `worker` of a campaign of `plan`: everything the worker's plan needs
    /// comes from `plan` here, and `plan(in:)` rebuilds the same plan there.
    package init(
        plan: RunPlan, worker: Int, workers: Int, goals: Int, space: SeedSpace, keepGoing: Bool,
        milliseconds: Int64?, resume: Range<UInt64>?
    ) {
        self.init(
            scenario: plan.scenario.name, variant: plan.variant, strategy: plan.strategy.description, worker: worker,
            workers: workers, goals: goals, space: space, estimatedSteps: plan.estimatedSteps, keepGoing: keepGoing,
            milliseconds: milliseconds, resume: resume, from: plan.prefix?.source, keep: plan.prefix?.keep ?? 0,
            noise: plan.noise, carriers: plan.carriers)
    }

    /// The request as one line of JSON.
    package var text: String {
        func optional<T>(_ value: T?, _ encode: (T) -> JSONValue) -> JSONValue { value.map(encode) ?? .null }
        return JSONValue.object([
            "version": .int(Self.version), "scenario": .string(scenario), "variant": .string(variant),
            "strategy": .string(strategy), "worker": .int(Int64(worker)), "workers": .int(Int64(workers)),
            "goals": .int(Int64(goals)),
            "space": .object([
                "lower": .unsigned(space.seeds.lowerBound), "upper": .unsigned(space.seeds.upperBound),
                "shardIndex": .int(Int64(space.shardIndex)), "shardCount": .int(Int64(space.shardCount)),
                "bounded": .bool(space.bounded),
            ]),
            "estimatedSteps": optional(estimatedSteps) { .int(Int64($0)) }, "keepGoing": .bool(keepGoing),
            "milliseconds": optional(milliseconds) { .int($0) },
            "resume": optional(resume) { .object(["from": .unsigned($0.lowerBound), "to": .unsigned($0.upperBound)]) },
            "from": optional(from) { .string($0) }, "keep": .int(Int64(keep)), "noise": .int(Int64(noise)),
            "carriers": .string(carriers.rawValue),
        ]).text
    }

    /// Decodes a request written by `text`: every member required, the version this one's.
    package init(decoding text: String) throws(SimEngineError) {
        let fields = try RequestFields(parsing: text, what: "worker request", version: Self.version)
        let space = try fields.object("space")
        let lower = try space.unsigned("lower")
        let upper = try space.unsigned("upper")
        let shardIndex = try space.int("shardIndex")
        let shardCount = try space.int("shardCount")
        guard lower <= upper, shardCount >= 1, (0..<shardCount).contains(shardIndex) else {
            throw .usage(
                "worker request: space \(lower)..<\(upper) shard \(shardIndex) of \(shardCount) is not a seed space")
        }
        var resume: Range<UInt64>?
        if try !fields.isNull("resume") {
            let bounds = try fields.object("resume")
            let from = try bounds.unsigned("from")
            let to = try bounds.unsigned("to")
            guard from <= to else { throw .usage("worker request: resume \(from)..<\(to) is not a range") }
            resume = from..<to
        }
        self.init(
            scenario: try fields.string("scenario"), variant: try fields.string("variant"),
            strategy: try fields.string("strategy"), worker: try fields.int("worker"),
            workers: try fields.int("workers"),
            goals: try fields.int("goals"),
            space: SeedSpace(
                seeds: lower..<upper, shardIndex: shardIndex, shardCount: shardCount,
                bounded: try space.bool("bounded")),
            estimatedSteps: try fields.optionalInt("estimatedSteps"), keepGoing: try fields.bool("keepGoing"),
            milliseconds: try fields.optionalInt("milliseconds").map(Int64.init), resume: resume,
            from: try fields.optionalString("from"), keep: try fields.int("keep"), noise: try fields.int("noise"),
            carriers: try Self.carriers(fields))
        guard (0..<workers).contains(worker) else {
            throw .usage("worker request: worker \(worker) of \(workers)")
        }
    }

    /// The carrier mode a request names, or a usage error naming the member.
    static func carriers(_ fields: RequestFields) throws(SimEngineError) -> CarrierMode {
        let name = try fields.string("carriers")
        guard let mode = CarrierMode(rawValue: name) else {
            throw .usage("request: carriers '\(name)' is not one of \(CarrierMode.allCases.map(\.rawValue))")
        }
        return mode
    }

    /// The plan this worker runs: the campaign's, rebuilt from the request.
    package func plan(in catalog: ScenarioCatalog) throws(SimEngineError) -> RunPlan {
        try RequestPlan.make(
            in: catalog, scenario: scenario, variant: variant, strategy: strategy, estimatedSteps: estimatedSteps,
            noise: noise, carriers: carriers, from: from, keep: keep, what: "worker request")
    }

    /// Runs this worker: maps the board on `WorkerBoard.childDescriptor` and runs seeds on it until
    /// the campaign is over for it. Failures that find no free board slot go to `overflow` (a line
    /// each, which the parent reads on the worker's stdout).
    package func run(catalog: ScenarioCatalog, overflow: @escaping @Sendable (String) -> Void) throws(SimEngineError) {
        let board = try WorkerBoard.attach(
            descriptor: WorkerBoard.childDescriptor, workers: workers, goals: goals, overflow: overflow)
        let plan = try plan(in: catalog)
        let deadline = milliseconds.map { ContinuousClock.now + .milliseconds($0) }
        // Stop when the parent is gone (a SIGKILL of `simrun fuzz` leaves no orphan running seeds).
        // Linux's `prctl(PR_SET_PDEATHSIG)` is not imported into Swift and Darwin has none, so the
        // parent id is watched instead: a system call, so only every `wantedCheckInterval` runs.
        let parent = getppid()
        CampaignWorker(plan: plan, space: space, keepGoing: keepGoing, deadline: deadline)
            .run(on: board, worker: worker, resume: resume, stillWanted: { getppid() == parent })
    }

    /// Reads a request from `descriptor` (the worker's stdin) to its end.
    package static func read(from descriptor: Int32) throws(SimEngineError) -> WorkerRequest {
        try WorkerRequest(decoding: try RequestFields.readAll(descriptor, what: "worker request"))
    }
}
