import SimCore
import SimEngine
import SimScenarios

extension Benchmark {
    /// Fuzz schedules/s on lost-input-navigation with two workers against one, through what
    /// `simrun fuzz` runs: worker processes under `FuzzSupervisor` (spawning them included). Only
    /// when this process cannot re-execute itself (the command tree hosted by another program) does
    /// it fall back to the in-process `Fuzzer`, and the note says so. Then the `--jobs` scaling curve:
    /// one row per point of `jobsCurve` (1, 2, 4, … up to this machine's cores), each against one job.
    func fuzzFigures() throws(SimEngineError) -> [BenchFigure] {
        let spec = StrategySpec(kind: .pct)
        let plan = RunPlan.probed(scenario: LostInputNavigation.scenario, variant: "buggy", strategy: spec)
        let seeds = 0..<UInt64(configuration.fuzzSeeds)
        let inProcesses = launcher != nil
        func rate(jobs: Int) throws(SimEngineError) -> Double {
            let config = Fuzzer.Configuration(seeds: seeds, jobs: jobs, keepGoing: true)
            guard let launcher else { return Fuzzer(plan: plan, configuration: config).run().schedulesPerSecond }
            let outcome = try supervised(plan, config, launcher)
            guard outcome.report.schedules == seeds.count else {
                throw SimEngineError(
                    .failed, "bench: fuzz ran \(outcome.report.schedules) of \(seeds.count) seeds")
            }
            return outcome.report.schedulesPerSecond
        }
        let cores = Self.processorCount
        let curve = Self.jobsCurve(upTo: cores)
        var rates = [Int: Double]()
        for _ in 0..<repetitions {
            for jobs in curve { rates[jobs] = max(rates[jobs] ?? 0, try rate(jobs: jobs)) }
        }
        let one = rates[1] ?? 0
        let two = rates[2] ?? 0
        let how =
            "\(seeds.count) seeds, pct, buggy variant, --keep-going (every failure kept), "
            + (inProcesses
                ? "worker processes as `simrun fuzz` runs them (spawn included)"
                : "in-process threads (this program cannot re-execute itself)")
        let main = BenchFigure(
            key: "fuzz_schedules_per_second", name: "fuzz schedules/s, lost-input-navigation, --jobs 2", value: two,
            unit: "schedules/s", baselineName: "--jobs 1", baseline: one,
            ratioText: "\((two / one).rounded(significant: 3))x", ratio: two / one,
            ratioMeaning: "jobs-2 rate / jobs-1 rate", target: ">= 50k/s, >= 1.8x",
            met: two >= 50_000 && two / one >= 1.8, note: how)
        let scaling = curve.dropFirst().map { jobs in
            let speedup = (rates[jobs] ?? 0) / one
            return BenchFigure(
                key: "fuzz_scaling_jobs_\(jobs)", name: "fuzz scaling, --jobs \(jobs) of \(cores) cores",
                value: rates[jobs] ?? 0, unit: "schedules/s", baselineName: "--jobs 1", baseline: one,
                ratioText:
                    "\(speedup.rounded(significant: 3))x, \(Int((speedup / Double(jobs) * 100).rounded()))% of linear",
                ratio: speedup, ratioMeaning: "jobs-N rate / jobs-1 rate", target: "context", met: nil,
                note: "the --jobs scaling curve up to this machine's \(cores) cores; " + how)
        }
        return [main] + scaling + (try isolationFigures(plan: plan))
    }

    /// What isolating runs costs, measured in one run on the same seeds' kind of work: schedules/s on
    /// one thread in this process, in one long-lived worker process (a `ChildJob.work` child, running schedules
    /// until one traps, then replaced: what `simrun fuzz` does), and with one child process per
    /// schedule (the same worker, started for one seed at a time). The first row is the long-lived
    /// worker against in process; the second, the long-lived worker against a child per schedule.
    func isolationFigures(plan: RunPlan) throws(SimEngineError) -> [BenchFigure] {
        let seeds = 0..<UInt64(configuration.fuzzSeeds)
        let perChildSeeds = UInt64(configuration.isQuick ? 20 : 500)
        guard let launcher else {
            let why = "not measured: this program cannot re-execute itself (no worker processes)"
            return [
                BenchFigure(
                    key: "fuzz_isolation_worker", name: "fuzz schedules/s, one long-lived worker process", value: 0,
                    unit: "schedules/s", baselineName: "in process", baseline: nil, ratioText: "n/a", ratio: nil,
                    ratioMeaning: "worker rate / in-process rate", target: "context", met: nil, note: why),
                BenchFigure(
                    key: "fuzz_isolation_child_per_schedule", name: "fuzz schedules/s, one child process per schedule",
                    value: 0, unit: "schedules/s", baselineName: "long-lived worker", baseline: nil, ratioText: "n/a",
                    ratio: nil, ratioMeaning: "worker rate / child-per-schedule rate", target: "context", met: nil,
                    note: why),
            ]
        }
        var inProcess = 0.0
        var worker = 0.0
        var perChild = 0.0
        for _ in 0..<repetitions {
            let config = Fuzzer.Configuration(seeds: seeds, jobs: 1, keepGoing: true)
            inProcess = max(inProcess, Fuzzer(plan: plan, configuration: config).run().schedulesPerSecond)
            let outcome = try supervised(plan, config, launcher)
            guard outcome.report.schedules == seeds.count else {
                throw SimEngineError(
                    .failed, "bench: the worker ran \(outcome.report.schedules) of \(seeds.count) seeds")
            }
            worker = max(worker, outcome.report.schedulesPerSecond)
            let start = ContinuousClock.now
            for seed in 0..<perChildSeeds {
                let one = Fuzzer.Configuration(seeds: seed..<(seed + 1), jobs: 1, keepGoing: true)
                let ran = try supervised(plan, one, launcher)
                guard ran.report.schedules == 1 else {
                    throw SimEngineError(
                        .failed, "bench: a one-seed child ran \(ran.report.schedules) seeds")
                }
            }
            perChild = max(perChild, Double(perChildSeeds) / (ContinuousClock.now - start).seconds)
        }
        // What a schedule costs more than in process, in microseconds (none measurable below zero: noise).
        let overhead = { (rate: Double) -> String in
            let extra = (1 / rate - 1 / inProcess) * 1e6
            return extra > 0 ? "\(extra.rounded(significant: 3)) µs" : "nothing measurable (it ran faster here: noise)"
        }
        let how =
            "lost-input-navigation buggy, pct, --keep-going, one job; in process and the worker: \(seeds.count) seeds, a child per schedule: \(perChildSeeds) seeds (spawn, board and plan each time)"
        return [
            BenchFigure(
                key: "fuzz_isolation_worker", name: "fuzz schedules/s, one long-lived worker process", value: worker,
                unit: "schedules/s", baselineName: "in process", baseline: inProcess,
                ratioText: "\((worker / inProcess).rounded(significant: 3))x", ratio: worker / inProcess,
                ratioMeaning: "worker rate / in-process rate", target: "context", met: nil,
                note: "isolation in a long-lived worker costs \(overhead(worker)) a schedule; " + how),
            BenchFigure(
                key: "fuzz_isolation_child_per_schedule", name: "fuzz schedules/s, one child process per schedule",
                value: perChild, unit: "schedules/s", baselineName: "long-lived worker", baseline: worker,
                ratioText: "worker \((worker / perChild).rounded(significant: 3))x faster", ratio: worker / perChild,
                ratioMeaning: "worker rate / child-per-schedule rate", target: "context", met: nil,
                note: "a child per schedule costs \(overhead(perChild)) a schedule; " + how),
        ]
    }

    /// A campaign in worker processes, as `simrun fuzz` runs it (its failures recorded again in a
    /// scratch directory of its own).
    private func supervised(_ plan: RunPlan, _ configuration: Fuzzer.Configuration, _ launcher: ProcessLauncher)
        throws(SimEngineError) -> CampaignOutcome
    {
        let scratch = try TemporaryDirectory.makeDirectory(prefix: "simrun-bench-fuzz")
        defer { TemporaryDirectory.removeDirectory(scratch) }
        return try FuzzSupervisor(plan: plan, configuration: configuration, launcher: launcher, scratch: scratch)
            .runCampaign { _, _, _, _ in }
    }

    /// The `--jobs` values the scaling curve measures: 1, 2, 4, 8, … and `cores` itself (at least 1, 2).
    static func jobsCurve(upTo cores: Int) -> [Int] {
        var curve = [1]
        var jobs = 2
        while jobs < cores {
            curve.append(jobs)
            jobs *= 2
        }
        curve.append(max(2, cores))
        return curve
    }

    /// The processors online (1 when the system will not say).
    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Schedules until the first lost-input failure for `fifo`, `random` and `pct`, averaged over
    /// campaigns started at different seeds.
    func untilBugFigures() -> [BenchFigure] {
        let limit = UInt64(configuration.bugSeedLimit)
        let campaigns = configuration.bugCampaigns
        func schedules(_ kind: StrategySpec.Kind, campaigns: Int) -> (mean: Double?, first: UInt64?, missed: Int) {
            let plan = RunPlan.probed(
                scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: kind))
            var total: UInt64 = 0
            var found = 0
            var first: UInt64?
            for campaign in 0..<campaigns {
                let base = UInt64(campaign) &* 1_000_003
                let report = Fuzzer(plan: plan, configuration: .init(seeds: base..<(base + limit), jobs: 1)).run()
                guard let finding = report.findings.first else { continue }
                let count = finding.seed - base + 1
                if campaign == 0 { first = count }
                total += count
                found += 1
            }
            return (found > 0 ? Double(total) / Double(found) : nil, first, campaigns - found)
        }
        let fifo = schedules(.fifo, campaigns: 1)
        let random = schedules(.random, campaigns: campaigns)
        let pct = schedules(.pct, campaigns: campaigns)
        func describe(_ outcome: (mean: Double?, first: UInt64?, missed: Int)) -> String {
            guard let mean = outcome.mean else { return "never in \(limit)" }
            return mean.rounded(significant: 3)
        }
        let span = "\(campaigns) campaigns of up to \(limit) seeds, each from its own first seed"
        let pctMean = pct.mean ?? .infinity
        return [
            BenchFigure(
                key: "until_bug_pct", name: "schedules until the lost-input bug, pct", value: pctMean,
                unit: "schedules", baselineName: "random", baseline: random.mean,
                ratioText: random.mean.map { "\(($0 / pctMean).rounded(significant: 3))x fewer" } ?? "n/a",
                ratio: random.mean.map { $0 / pctMean }, ratioMeaning: "random mean / pct mean", target: "<= 20",
                met: pctMean <= 20,
                note:
                    "mean of \(span); from seed 0: \(pct.first.map(String.init) ?? "none"); missed in \(pct.missed)"),
            BenchFigure(
                key: "until_bug_random", name: "schedules until the lost-input bug, random",
                value: random.mean ?? .infinity, unit: "schedules", baselineName: "fifo", baseline: fifo.mean,
                ratioText: "fifo: \(describe(fifo))", ratio: nil, ratioMeaning: "none: fifo never finds it",
                target: "baseline", met: nil,
                note:
                    "mean of \(span); from seed 0: \(random.first.map(String.init) ?? "none"); missed in \(random.missed)"
            ),
        ]
    }
}
