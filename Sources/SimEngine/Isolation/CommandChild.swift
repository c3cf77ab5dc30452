import SimCore

/// What `simrun run` asks of the child it runs its schedule in (`simrun _run`), as one typed,
/// versioned value on the child's stdin instead of its own command line again: the options as the
/// parent parsed them. Every member is always written and always required when read
/// (`CommandChildRequestTests` holds both sides to every stored property).
package struct RunRequest: Sendable, Equatable {
    /// The version of this encoding; a child refuses any other.
    package static let version: Int64 = 1

    /// The scenario to run.
    package var scenario: String
    /// The variant the parent chose (the scenario's default already resolved).
    package var variant: String
    /// The seed of the schedule.
    package var seed: UInt64
    /// The strategy as the command line spells it (`StrategySpec.description`).
    package var strategy: String
    /// `--out`: the trace is always written there.
    package var out: String?
    /// `--failure-dir`: where a failing run's trace goes without `--out`.
    package var failureDir: String
    /// Noise lanes added to the run.
    package var noise: Int
    /// Where the run's jobs run (`--preempt`).
    package var carriers: CarrierMode
    /// The console's styles (`--json`, `--quiet`, `--progress`).
    package var output: CommandOutput

    /// A request for one schedule of `simrun run`, each member as the parent parsed it.
    package init(
        scenario: String, variant: String, seed: UInt64, strategy: String, out: String?, failureDir: String,
        noise: Int, carriers: CarrierMode, output: CommandOutput
    ) {
        self.scenario = scenario
        self.variant = variant
        self.seed = seed
        self.strategy = strategy
        self.out = out
        self.failureDir = failureDir
        self.noise = noise
        self.carriers = carriers
        self.output = output
    }

    /// The request as one line of JSON.
    package var text: String {
        JSONValue.object([
            "version": .int(Self.version), "scenario": .string(scenario), "variant": .string(variant),
            "seed": .unsigned(seed), "strategy": .string(strategy), "out": .optional(out),
            "failureDir": .string(failureDir), "noise": .int(Int64(noise)), "carriers": .string(carriers.rawValue),
            "output": output.value,
        ]).text
    }

    /// Decodes a request written by `text`: every member required, the version this one's.
    package init(decoding text: String) throws(SimEngineError) {
        let fields = try RequestFields(parsing: text, what: "run request", version: Self.version)
        self.init(
            scenario: try fields.string("scenario"), variant: try fields.string("variant"),
            seed: try fields.unsigned("seed"), strategy: try fields.string("strategy"),
            out: try fields.optionalString("out"), failureDir: try fields.string("failureDir"),
            noise: try fields.int("noise"), carriers: try WorkerRequest.carriers(fields),
            output: try CommandOutput(fields.object("output")))
    }

    /// The strategy the run follows; an unknown one is a usage error naming it.
    package func strategySpec() throws(SimEngineError) -> StrategySpec {
        guard let spec = StrategySpec(parsing: strategy) else {
            throw .usage("run request: unknown strategy '\(strategy)' (strategies: \(StrategySpec.names))")
        }
        return spec
    }

    /// Reads a request from `descriptor` (the child's stdin) to its end.
    package static func read(from descriptor: Int32) throws(SimEngineError) -> RunRequest {
        try RunRequest(decoding: try RequestFields.readAll(descriptor, what: "run request"))
    }
}

/// What `simrun explain` asks of the child it explains in (`simrun _explain`): the trace (already a
/// file: a trace read from a pipe was spooled by the parent) and the options as the parent parsed
/// them, as one typed, versioned value on the child's stdin.
package struct ExplainRequest: Sendable, Equatable {
    /// The version of this encoding; a child refuses any other.
    package static let version: Int64 = 1

    /// The trace explained, as the parent reads it (a spooled copy of a pipe).
    package var trace: String
    /// Re-fuzzed runs per decision (resolved: `--runs`, or the default for the trace's verdict).
    package var runs: Int
    /// Worker threads (`--jobs`).
    package var jobs: Int
    /// Timeline events shown around the decisive decision (`--context`).
    package var context: Int
    /// The console's styles (`--json`, `--quiet`, `--progress`).
    package var output: CommandOutput

    /// A request to explain `trace`, each member as the parent parsed or resolved it.
    package init(trace: String, runs: Int, jobs: Int, context: Int, output: CommandOutput) {
        self.trace = trace
        self.runs = runs
        self.jobs = jobs
        self.context = context
        self.output = output
    }

    /// The request as one line of JSON.
    package var text: String {
        JSONValue.object([
            "version": .int(Self.version), "trace": .string(trace), "runs": .int(Int64(runs)),
            "jobs": .int(Int64(jobs)), "context": .int(Int64(context)), "output": output.value,
        ]).text
    }

    /// Decodes a request written by `text`: every member required, the version this one's.
    package init(decoding text: String) throws(SimEngineError) {
        let fields = try RequestFields(parsing: text, what: "explain request", version: Self.version)
        self.init(
            trace: try fields.string("trace"), runs: try fields.int("runs"), jobs: try fields.int("jobs"),
            context: try fields.int("context"), output: try CommandOutput(fields.object("output")))
    }

    /// Reads a request from `descriptor` (the child's stdin) to its end.
    package static func read(from descriptor: Int32) throws(SimEngineError) -> ExplainRequest {
        try ExplainRequest(decoding: try RequestFields.readAll(descriptor, what: "explain request"))
    }
}

/// The console options a command's child prints with, as the parent parsed them.
package struct CommandOutput: Sendable, Equatable {
    /// `--json`: one document on stdout.
    package var json: Bool
    /// `--quiet`: only the verdict line.
    package var quiet: Bool
    /// `--progress`: a progress line every 10 s off a terminal.
    package var progress: Bool
    /// `--full-names`: task identities whole in tables and timelines.
    package var fullNames: Bool

    /// The console flags.
    package init(json: Bool, quiet: Bool, progress: Bool, fullNames: Bool = false) {
        self.json = json
        self.quiet = quiet
        self.progress = progress
        self.fullNames = fullNames
    }

    /// The options as one JSON object (a request's `output` member).
    var value: JSONValue {
        .object([
            "json": .bool(json), "quiet": .bool(quiet), "progress": .bool(progress), "fullNames": .bool(fullNames),
        ])
    }

    /// Decodes a request's `output` member: every flag required.
    init(_ fields: RequestFields) throws(SimEngineError) {
        self.init(
            json: try fields.bool("json"), quiet: try fields.bool("quiet"), progress: try fields.bool("progress"),
            fullNames: try fields.bool("fullNames"))
    }
}

/// A command (`run`, `explain`) whose work runs in a child of its own, the child printing straight
/// to this process's stdout and stderr: work that may trap (a model that crashes on some schedule)
/// ends the child, never this process. The child is told what to do by a typed request on stdin.
package enum CommandChild {
    /// A command's child runs as long as the command would (a year: no limit in practice).
    static let noTimeout: Double = 365 * 24 * 3600

    /// How the child's work ended, as the parent reports it.
    package enum Outcome: Sendable, Equatable {
        /// The child ran the command to its end with this exit status.
        case exited(Int32)
        /// Ctrl-C or SIGTERM was passed on and the child died of it: an interruption, not a crash.
        case interrupted
        /// The child died of this signal on its own: the work trapped.
        case crashed(signal: Int32)

        /// The outcome of a child that ended with `termination`, `interrupted` telling whether an
        /// interruption was passed on to it.
        package init(_ termination: ChildProcess.Termination, interrupted: Bool) {
            switch termination {
            case .exited(let status): self = .exited(status)
            case .signaled where interrupted: self = .interrupted
            case .signaled(let signal): self = .crashed(signal: signal)
            }
        }
    }

    /// Runs `simrun <subcommand>` with `request` (one line of JSON) on its stdin and this process's
    /// output, Ctrl-C and SIGTERM passed on; nil when there is no child to run (the command tree
    /// hosted by another program): then the caller does the work itself.
    package static func run(_ subcommand: String, request: String) throws(SimEngineError) -> Outcome? {
        guard ChildProcess.isAvailable else { return nil }
        // The child prints on this process's stdout, its `--json` document included: this process
        // prints none of its own for an interruption (`ChildCrashReport` does when the child died
        // of the signal before it could).
        Interruption.armDocument(nil)
        let termination = try ChildProcess.runInheritingOutput(
            [subcommand], input: Array(request.utf8), timeoutSeconds: noTimeout, forwardingInterruption: true)
        return Outcome(termination, interrupted: Interruption.isRequested)
    }
}
