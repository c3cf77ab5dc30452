import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct FuzzCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz", abstract: "Run many schedules; shrink and save each distinct failure.",
        discussion: """
            Without --keep-going the campaign stops at the failure with the lowest seed (the same one whatever \
            --jobs is). --shard K/N runs every N-th seed starting at the K-th, so N machines together run \
            exactly the seeds one would; --shard auto reads K/N from SIMRUN_SHARD, a Slurm job array or a \
            Kubernetes Indexed Job, and --result FILE writes the shard's result for `simrun merge` (the article \
            "Running a campaign on a cluster"). --out is checked before the first schedule runs; a trace that still \
            cannot be saved there goes to a temporary directory (the warning says where).

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `fuzz` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.failure, ExitStatus.inconclusive, ExitStatus.usage, ExitStatus.badTrace, ExitStatus.missingInput,
        ExitStatus.cannotWrite, ExitStatus.interrupted,
    ]

    @Argument(help: "The scenario to fuzz (see `list`); optional with --from.") var scenario: String?
    @Option(help: "Explore around this trace: keep its first --keep decisions, vary the rest.") var from: String?
    @Option(
        parsing: .unconditional, help: "With --from: decisions of the trace every run keeps (default: half of them).",
        transform: NumberArgument.int(0...Int.max))
    var keep: Int?
    @OptionGroup var variant: VariantOption
    @Option(help: StrategyArgument.help, transform: StrategyArgument.parse) var strategy: StrategySpec =
        StrategyArgument.defaultSpec
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seeds to run, as A..<B (or N for 0..<N).", valueName: "A..<B"),
        transform: SeedRange.parse)
    var seeds: SeedRange?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Run for this long instead: seconds, or with a unit (30, 30s, 5m, 2h).", valueName: "seconds"),
        transform: TimeLimit.parse)
    var time: TimeLimit?
    @Option(
        parsing: .unconditional, help: "Worker processes, each running one simulation at a time.",
        transform: NumberArgument.int(1...256))
    var jobs: Int = 2
    @Option(
        help: ArgumentHelp(
            "Run shard K of N (1-based), e.g. 1/4, or 'auto' to read it from SIMRUN_SHARD, Slurm or Kubernetes.",
            valueName: "K/N|auto"), transform: ShardOption.parse)
    var shard: ShardOption?
    @Option(
        parsing: .unconditional,
        help: "With --shard auto: the number of shards (required under a Kubernetes Indexed Job).",
        transform: NumberArgument.int(1...1_000_000))
    var shards: Int?
    @Option(help: "Write this shard's result (JSON, for `simrun merge`) to this file, atomically.") var result: String?
    @Option(help: "Directory for the failing traces.") var out: String = "simrun-failures"
    @Flag(help: "Keep going after the first failure, collecting every distinct one.") var keepGoing = false
    @Flag(help: "Save failures as found, without shrinking.") var noShrink = false
    @Flag(help: "Do not print the timeline of the first failure.") var noShow = false
    @Option(
        name: .customLong("check-determinism"),
        help: ArgumentHelp(
            "Re-run every N-th seed the campaign ran (alone: every seed) in two more processes and compare their events; a seed that differs is a finding, explained with both traces.",
            valueName: "N"),
        transform: NumberArgument.int(1...Int.max))
    var checkDeterminism: Int?
    @Option(
        parsing: .unconditional,
        help:
            "Add this many noise lanes: background jobs that touch nothing, scheduled across the whole run and recorded like any job (0...64).",
        transform: NumberArgument.int(0...RunPlan.maxNoise)
    ) var noise: Int?
    @Flag(
        help:
            "Preempt inside synchronous code: jobs run on carrier threads that take turns, and every pthread mutex lock and condition operation (NSLock, NSCondition, the concurrency runtime's locks) is a point where the schedule may switch carriers (Linux)."
    ) var preempt = false
    @OptionGroup var output: OutputOptions
    @OptionGroup var build: BuildLabelOption

    func validate() throws {
        if seeds != nil && time != nil { throw ValidationError("give either --seeds or --time, not both") }
        if let noise, !(0...RunPlan.maxNoise).contains(noise) {
            throw ValidationError("--noise must be 0...\(RunPlan.maxNoise), got \(noise)")
        }
        try validateFrom()
        try validateResult()
        if shards != nil && shard != .auto { throw ValidationError("--shards is for --shard auto") }
        if checkDeterminism != nil && (!strategy.campaignShape.isIndependent || from != nil) {
            // Their runs depend on the runs before them (or on a trace): a seed alone does not repeat one.
            throw ValidationError(
                "--check-determinism needs runs that a seed alone decides (not \(from != nil ? "--from" : "\(strategy.kind)"))"
            )
        }
        if checkDeterminism != nil && result != nil {
            // A shard result carries findings for `simrun merge`, not the determinism check's differences.
            throw ValidationError("--check-determinism is not carried into --result files: run it without --result")
        }
        if shard != nil && strategy.campaignShape == .inOrder {
            // A learning strategy's schedules depend on the runs before them: split seeds would not add up.
            throw ValidationError("--shard does not apply to \(strategy.kind), which learns from run to run")
        }
    }

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        output.apply(to: console)
        // From here a signal stops the campaign and reports what ran (not the immediate exit of
        // other commands).
        Interruption.install()
        try OutputPath.prepareDirectory(out, flag: "--out")
        try prepareResult()
        // Planning runs the fifo schedule once: in a child when there are children, where a trap is
        // the campaign's crash finding.
        let unplanned = try makePlan(context)
        let plan: RunPlan
        switch try context.isolation.plan(unplanned, in: context.catalog) {
        case .planned(let planned): plan = planned
        case .trapped: return try fuzzFifoCrash(plan: unplanned, context: context)
        }
        let found = plan.scenario
        let range = seeds?.range ?? 0..<(time == nil ? 10_000 : UInt64.max)
        let (shardSpec, shardSource) = try resolveShard()
        // A shard past the last seed would run nothing and pass: say so instead.
        let seedCount = range.upperBound - range.lowerBound  // (range.count traps past Int.max)
        if UInt64(shardSpec.index) >= seedCount {
            throw .usage(
                "shard \(shardSpec) of seeds \(range.lowerBound)..<\(range.upperBound) holds no seed (\(seedCount) seeds for \(shardSpec.count) shards): give at least \(shardSpec.count) seeds, or at most \(seedCount) shards"
            )
        }
        let config = Fuzzer.Configuration(
            seeds: range, seconds: time?.seconds, jobs: jobs, shard: (shardSpec.index, shardSpec.count),
            keepGoing: keepGoing)
        let span =
            time.map { "for \(EventText.time(Int64($0.seconds * 1e9)))" }
            ?? "seeds \(range.lowerBound)..<\(range.upperBound)"
        // The opening line is progress, not a result: --quiet leaves only the verdict line.
        if console.outputStyle != .quiet {
            console.err(
                "fuzz \(found.name)/\(plan.variant)  strategy \(strategy)  \(span)  jobs \(jobs)"
                    + (strategy.campaignShape == .inOrder
                        ? " (one thread: \(strategy.kind) learns from run to run)" : "")
                    + (shardSource.map { "  shard \(shardSpec)\($0 == .option ? "" : " (\($0.rawValue))")" } ?? "")
                    + prefixNote(plan))
        }
        // The engine runs the seeds and saves, shrinks and re-checks each finding; this command
        // presents each one as it is handled (FindingPresenter).
        let presenter = FindingPresenter(command: self, plan: plan, context: context)
        let campaign = FindingCampaign(
            plan: plan, configuration: config,
            options: .init(directory: out, shrink: !noShrink, isolation: context.isolation))
        let result = try campaign.run(observer: presenter)
        let outcome = result.outcome
        let report = outcome.report
        let traces = presenter.traces
        summarize(report, crashes: outcome.crashes.count, console: console)
        if !result.potentialDeadlocks.isEmpty {
            let count = result.potentialDeadlocks.count
            console.out(
                "  \(count) potential deadlock\(count == 1 ? "" : "s"): lock classes taken in both orders (POTENTIAL DEADLOCK above)")
        }
        if let run = outcome.crashedAtRun {
            console.out(
                "  the campaign ended at its crash, run \(run + 1): \(strategy.kind) runs in one process, which the trap ended (findings before it in that process were not kept)"
            )
        }
        if outcome.interrupted { console.out("interrupted: stopped early; the summary covers what ran") }
        var determinism: DeterminismSummary?
        if let every = checkDeterminism, !outcome.interrupted {
            determinism = try checkDeterminism(
                every: every, plan: plan, range: range, shard: shardSpec, schedules: report.schedules,
                context: context)
        }
        let anyFound =
            !report.findings.isEmpty || !outcome.crashes.isEmpty || determinism?.failed == true
            || !result.potentialDeadlocks.isEmpty
        let campaignVerdict = CampaignVerdict(
            foundSomething: anyFound, interrupted: outcome.interrupted, explored: report.explored)
        let status: Int32 =
            switch campaignVerdict {
            case .fail: ExitStatus.failure
            case .interrupted: ExitStatus.interrupted
            case .inconclusive: ExitStatus.inconclusive
            case .pass: ExitStatus.ok
            }
        let verdict = campaignVerdict.rawValue
        let saved = (report.findings.map(\.seed) + outcome.crashes.map(\.seed)).compactMap { traces[$0] }
        if console.outputStyle == .quiet {
            let distinct = report.findings.count + outcome.crashes.count
            console.verdict(
                "fuzz \(found.name)/\(plan.variant): \(anyFound ? "FAIL" : verdict) — \(distinct) distinct failure\(distinct == 1 ? "" : "s") in \(report.schedules) schedules"
                    + (campaignVerdict == .pass || campaignVerdict == .inconclusive
                        ? " (\(report.explored.distinctText))"
                        : "")
                    + (saved.isEmpty ? "" : "; trace\(saved.count == 1 ? "" : "s") \(saved.joined(separator: " "))"))
        }
        var document = document(
            outcome, plan: plan, verdict: verdict, status: status, range: range,
            shard: shardSource.map { _ in shardSpec },
            traces: traces, determinism: determinism)
        document.members.append(.init("potentialDeadlocks", .array(result.potentialDeadlocks.map(Self.json))))
        // The result file first: when it cannot be written, the one JSON document on stdout is the
        // error (exit 73), not a "pass" followed by a second document.
        try writeResult(
            document, outcome: outcome, explored: report.explored, range: range, shard: shardSpec, source: shardSource, status: status,
            console: console)
        console.json(document.text)
        return status
    }

    private func summarize(_ report: Fuzzer.Report, crashes: Int, console: Console) {
        let rate = Int(report.schedulesPerSecond)
        var line =
            "summary: \(report.schedules) schedules in \(String(format: report.seconds, decimals: 2))s (\(rate)/s), \(report.failures) failures, \(report.findings.count + crashes) distinct"
        if strategy.campaignShape == .exhaustive {
            line += report.exhausted ? ", space exhausted" : ", space NOT exhausted"
        }
        console.out(line)
        if strategy.campaignShape == .exhaustive {
            // Iterative bounding: say which bounds were exhausted, and when.
            let rounds = report.exhaustedRounds.map { "≤\($0.bound) after \($0.runs)" }
            let bound = strategy.parameter ?? 2
            let open = report.exhausted ? "" : "; ≤\(report.exhaustedRounds.count) NOT exhausted"
            if !report.exhausted || bound > 0 {
                console.out(
                    "  preemption bounds exhausted: \(rounds.isEmpty ? "none" : rounds.joined(separator: ", "))\(open)")
            }
            if report.exhausted && report.findings.isEmpty {
                // What the proof covers: dfs's preemptions are not `show`'s non-fifo decisions.
                console.out(
                    "  no failure with at most \(bound) preemptions: a preemption is any pick off the default order (continue the lane that ran last, else fifo), so a schedule can need more of them than its non-fifo decisions; raise the bound with --strategy dfs:preemptions=P"
                )
            }
        }
        if let learning = report.learning { console.out("  learning: \(learning)") }
        for (name, count) in zip(report.goals, report.goalCounts) {
            console.out("  sometimes \(name): \(count) of \(report.schedules) runs")
        }
        ExploredLines.print(report.explored, console: console)
    }

    /// The `--json` document: the campaign (`CampaignJSON`) with what this command knows about each
    /// finding (its trace, whether it crashed or ran differently in another process).
    private func document(
        _ outcome: CampaignOutcome, plan: RunPlan, verdict: String, status: Int32,
        range: Range<UInt64>, shard: Shard?, traces: [UInt64: String], determinism: DeterminismSummary?
    ) -> ResultDocument {
        var members = ResultDocument.run(
            scenario: plan.scenario.name, variant: plan.variant, strategy: strategy.description, seed: nil)
        members += [
            .init(
                "seeds",
                time == nil ? .object(["from": .unsigned(range.lowerBound), "to": .unsigned(range.upperBound)]) : .null),
            .init("time", time.map { .number($0.seconds, decimals: 3) } ?? .null),
            .init("jobs", .int(Int64(jobs))), .init("shard", .optional(shard?.description)),
            .init("from", .optional(from)), .init("interrupted", .bool(outcome.interrupted)),
            // Interrupted: the document covers what ran, not the campaign asked for.
            .init("partial", .bool(outcome.interrupted)),
            .init("determinism", determinism?.json ?? .null),
            // What else makes shards comparable, for `merge` to check.
            .init("noise", .int(Int64(plan.noise))), .init("version", .string(SimRunVersion.current)),
        ]
        members += CampaignJSON.members(of: outcome, exhaustive: strategy.campaignShape == .exhaustive) { finding in
            [
                .init("trace", .optional(traces[finding.seed])),
                .init("nondeterministic", .bool(outcome.nondeterministic.contains(finding.seed))),
                // A crash inside a shared library names it (as the CRASH lines do); null otherwise.
                .init("library", .optional(traces[finding.seed].flatMap(Self.crashLibrary))),
            ]
        }
        return ResultDocument(command: "fuzz", verdict: verdict, exitCode: status, members: members)
    }

    /// The shared library the crash recorded in `trace` trapped inside, if any (its footer's frames).
    static func crashLibrary(_ trace: String) -> String? {
        guard let footer = (try? TraceInput(path: trace))?.footer, case .crashed = footer.verdict else { return nil }
        return CrashPlace(job: nil, functions: footer.trapFrames, message: nil).library
    }

    /// A potential deadlock in `--json`: both orders (classes, where taken, lane, seed), the traces and
    /// the aimed search.
    static func json(_ potential: PotentialDeadlock) -> JSONValue {
        func order(_ sighting: LockOrderSighting) -> JSONValue {
            .object([
                .init("held", .string(sighting.edge.from)), .init("taken", .string(sighting.edge.to)),
                .init("heldAt", .string(sighting.edge.fromSite)), .init("takenAt", .string(sighting.edge.toSite)),
                .init("lane", .string(sighting.edge.lane)), .init("seed", .unsigned(sighting.seed)),
            ])
        }
        return .object([
            .init("first", order(potential.first)), .init("second", order(potential.second)),
            .init("traces", .array(potential.traces.map { .string($0) })),
            .init("aimedSchedules", .int(Int64(potential.aimedSchedules))),
            .init("aimedDeadlockSeed", potential.aimedDeadlockSeed.map { .unsigned($0) } ?? .null),
            .init("problem", .optional(potential.problem)),
        ])
    }

    /// `--shard K/N`, `--shard auto` (from the environment), or the whole campaign; with the source
    /// (nil for the whole campaign).
    private func resolveShard() throws(CommandFailure) -> (Shard, ShardEnvironment.Source?) {
        switch shard {
        case nil: return (.whole, nil)
        case .fixed(let fixed)?: return (fixed, .option)
        case .auto?:
            do {
                let (found, source) = try ShardEnvironment.process.resolve(count: shards)
                return (found, source)
            } catch {
                throw .usage(error.message)
            }
        }
    }
}
