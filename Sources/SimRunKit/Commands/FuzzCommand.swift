import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct FuzzCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz", abstract: "Run many schedules; shrink and save each distinct failure.",
        discussion: """
            Exit 1 when a failure was found, 0 when none. Without --keep-going the campaign stops at the failure \
            with the lowest seed (the same one whatever --jobs is). --shard K/N runs every N-th seed starting at \
            the K-th, so N machines together run exactly the seeds one would.
            """)

    @Argument(help: "The scenario to fuzz (see `simrun list`); optional with --from.") var scenario: String?
    @Option(help: "Explore around this trace: keep its first --keep decisions, vary the rest.") var from: String?
    @Option(help: "With --from: decisions of the trace every run keeps (default: half of them).") var keep: Int?
    @Option(help: "The variant to fuzz (default: the scenario's first).") var variant: String?
    @Option(help: "The strategy: \(StrategySpec.names).") var strategy: StrategySpec = .init(kind: .pct)
    @Option(help: "Seeds to run, as A..<B (or N for 0..<N).") var seeds: String?
    @Option(help: "Run for this many seconds instead (e.g. 30 or 30s).") var time: String?
    @Option(help: "Worker processes, each running one simulation at a time.") var jobs: Int = 2
    @Option(help: "Run shard K of N (1-based), e.g. 1/4.") var shard: String?
    @Option(help: "Directory for the failing traces.") var out: String = "simrun-failures"
    @Flag(help: "Keep going after the first failure, collecting every distinct one.") var keepGoing = false
    @Flag(help: "Save failures as found, without shrinking.") var noShrink = false
    @Flag(help: "Do not print the timeline of the first failure.") var noShow = false
    @Option(
        help:
            "Add this many noise lanes: background jobs that touch nothing, scheduled across the whole run and recorded like any job (0...64)."
    ) var noise: Int?

    func validate() throws {
        guard jobs >= 1 && jobs <= 256 else { throw ValidationError("--jobs must be between 1 and 256") }
        if seeds != nil && time != nil { throw ValidationError("give either --seeds or --time, not both") }
        if let noise, !(0...RunPlan.maxNoise).contains(noise) {
            throw ValidationError("--noise must be 0...\(RunPlan.maxNoise), got \(noise)")
        }
        try validateFrom()
    }

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let plan = try makePlan(context)
        let found = plan.scenario
        let range = try parseSeeds(seeds)
        let seconds = try parseSeconds(time)
        let shardSpec = try parseShard(shard)
        let console = context.console
        let config = Fuzzer.Configuration(
            seeds: range, seconds: seconds, jobs: jobs, shard: shardSpec, keepGoing: keepGoing)
        let span =
            seconds.map { "for \(EventText.time(Int64($0 * 1e9)))" }
            ?? "seeds \(range.lowerBound)..<\(range.upperBound)"
        console.err(
            "fuzz \(found.name)/\(plan.variant)  strategy \(strategy)  \(span)  jobs \(jobs)"
                + (shard.map { "  shard \($0)" } ?? "") + prefixNote(plan))
        let outcome = try runCampaign(plan: plan, configuration: config, console: console)
        let report = outcome.report
        console.endProgress()
        var shownTimeline = noShow
        var oracleCounts: [String: Int] = [:]
        for finding in report.findings {
            // Distinct failures of one oracle (other message shapes) get -2, -3, … so none overwrites another.
            let seen = (oracleCounts[finding.signature.oracle] ?? 0) + 1
            oracleCounts[finding.signature.oracle] = seen
            if outcome.nondeterministic.contains(finding.seed) {
                console.out("NONDETERMINISTIC: seed \(finding.seed) ran differently in this process than in its worker")
            }
            try reportFinding(
                finding, plan: plan, context: context, showTimeline: !shownTimeline, shrink: !outcome.interrupted,
                suffix: seen == 1 ? "" : "-\(seen)")
            shownTimeline = true
        }
        for (number, crash) in outcome.crashes.enumerated() {
            try reportCrash(crash, number: number, plan: plan, context: context)
        }
        summarize(report, crashes: outcome.crashes.count, console: console)
        if outcome.interrupted { console.out("interrupted: stopped early; the summary covers what ran") }
        let anyFound = !report.findings.isEmpty || !outcome.crashes.isEmpty
        return anyFound ? ExitStatus.failure : outcome.interrupted ? ExitStatus.interrupted : ExitStatus.ok
    }

    private func reportFinding(
        _ finding: Fuzzer.Finding, plan: RunPlan, context: CommandContext, showTimeline: Bool, shrink: Bool,
        suffix: String
    ) throws(CommandFailure) {
        let console = context.console
        console.out("FAIL at seed \(finding.seed): \(finding.verdict)")
        try ensureDirectory(out)
        let path = "\(out)/\(plan.scenario.name)-\(plan.variant)-\(slug(finding.signature.oracle))\(suffix).simtrace"
        // Saved as found first, then shrunk in a child process: a candidate schedule may trap.
        let found = try Recorder.record(
            plan: plan, seed: finding.seed, tape: finding.tape, strategyName: strategy.description, to: path,
            options: [("foundAtSeed", String(finding.seed)), ("shrunk", "false")])
        var recorded = (verdict: found.verdict, eventCount: found.eventCount)
        if !noShrink && shrink, let footer = try shrinkInChild(path, plan: plan, console: console) {
            recorded = (footer.verdict, footer.eventCount)
        }
        if !FailureSignature(finding.verdict).matches(recorded.verdict) {
            console.out(
                "  warning: the saved schedule ended with \(recorded.verdict) — the scenario may not be deterministic")
        }
        if showTimeline && recorded.eventCount <= 400 {
            do {
                try Timeline(reader: try TraceReader(path: path), limit: 400).write { console.out($0) }
            } catch {
                throw TraceInput.failure(error)
            }
        }
        try checkReplay(of: path, plan: plan, console: console)
        console.out("  trace:  \(path)")
        console.out("  replay: \(context.programName) replay \(shellQuoted(path))")
        if plan.scenario.hasVariant("fixed") && plan.variant != "fixed" {
            console.out("  fixed:  \(context.programName) replay \(shellQuoted(path)) --variant fixed")
        }
    }

    private func summarize(_ report: Fuzzer.Report, crashes: Int, console: Console) {
        let rate = Int(report.schedulesPerSecond)
        var line =
            "summary: \(report.schedules) schedules in \(String(format: report.seconds, decimals: 2))s (\(rate)/s), \(report.failures) failures, \(report.findings.count + crashes) distinct"
        if strategy.kind == .dfs { line += report.exhausted ? ", space exhausted" : ", space NOT exhausted" }
        console.out(line)
        if strategy.kind == .dfs {
            // Iterative bounding: say which bounds were exhausted, and when.
            let rounds = report.exhaustedRounds.map { "≤\($0.bound) after \($0.runs)" }
            let bound = strategy.parameter ?? 2
            let open = report.exhausted ? "" : "; ≤\(report.exhaustedRounds.count) NOT exhausted"
            if !report.exhausted || bound > 0 {
                console.out(
                    "  preemption bounds exhausted: \(rounds.isEmpty ? "none" : rounds.joined(separator: ", "))\(open)")
            }
        }
        for (name, count) in zip(report.goals, report.goalCounts) {
            console.out("  sometimes \(name): \(count) of \(report.schedules) runs")
        }
    }

    private func slug(_ text: String) -> String {
        let mapped = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return String(mapped).split(separator: "-").joined(separator: "-")
    }

    private func parseSeeds(_ text: String?) throws(CommandFailure) -> Range<UInt64> {
        guard let text else { return 0..<(time == nil ? 10_000 : UInt64.max) }
        if let count = UInt64(text) { return 0..<count }
        let parts = text.split(separator: "..<", omittingEmptySubsequences: false)
        guard parts.count == 2 || text.contains("..."), let low = UInt64(parts.first ?? ""),
            let high = UInt64(parts.count == 2 ? parts[1] : ""), low < high
        else { throw .usage("--seeds must look like A..<B with A < B (got '\(text)')") }
        return low..<high
    }

    private func parseSeconds(_ text: String?) throws(CommandFailure) -> Double? {
        guard let text else { return nil }
        let number = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let value = Double(number), value > 0, value < 1e7 else {
            throw .usage("--time must be a positive number of seconds (got '\(text)')")
        }
        return value
    }

    private func parseShard(_ text: String?) throws(CommandFailure) -> (Int, Int) {
        guard let text else { return (0, 1) }
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else {
            throw .usage("--shard must be K/N with 1 <= K <= N (got '\(text)')")
        }
        return (k - 1, n)
    }
}
