import SimCapture
import SimCore

extension Benchmark {
    /// Jobs/s of plain async code through the capture route (each `Task.yield()` is a job the runtime
    /// hands to simrun's executor and the scheduler picks) against kernel jobs posted directly, same
    /// lanes, same strategy, same run.
    func asyncFigure() -> BenchFigure {
        let tasks = 8
        let yields = max(1, configuration.kernelJobs / 40 / tasks)
        let scenario = Scenario.async(
            name: "bench-async", summary: "tasks that yield", variants: [.init("default", "")],
            limits: RunLimits(maxSteps: Int.max), concurrency: .eitherRoute
        ) { _, _ in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<tasks {
                    group.addTask { for _ in 0..<yields { await Task.yield() } }
                }
            }
        }
        var asyncJobs = 0
        var asyncSeconds = Double.infinity
        var kernelSeconds = Double.infinity
        var verdict = Verdict.pass
        for _ in 0..<repetitions {
            asyncSeconds = min(
                asyncSeconds,
                Stopwatch.time {
                    let result = scenario.run(variant: "default", seed: 1, strategy: RandomStrategy())
                    asyncJobs = result.steps
                    verdict = result.verdict
                })
            kernelSeconds = min(kernelSeconds, Stopwatch.time { Self.postChains(lanes: tasks, jobs: asyncJobs) })
        }
        let asyncRate = Double(asyncJobs) / asyncSeconds
        let kernelRate = Double(asyncJobs) / kernelSeconds
        return .rate(
            key: "async_jobs_per_second", name: "async jobs/s through the executor, one core", asyncRate,
            against: "kernel jobs posted directly", kernelRate,
            ratioMeaning: "baseline rate / async rate", target: ">= 1M/s",
            met: asyncRate >= 1e6 && verdict == .pass,
            note:
                "\(asyncJobs) jobs: \(tasks) task-group children × \(yields) Task.yield() on the \(ExecutorCapture.route) "
                + "route, random strategy; the baseline reposts a closure on \(tasks) lanes as many times"
        )
    }

    /// The baseline: `jobs` kernel jobs on `lanes` lanes, each job posting the next on its lane.
    static func postChains(lanes: Int, jobs: Int) {
        let simulation = Simulation(seed: 1, strategy: RandomStrategy(), limits: RunLimits(maxSteps: Int.max))
        let label = simulation.symbol("step")
        var left = jobs
        func step(_ lane: LaneID) {
            guard left > 0 else { return }
            left -= 1
            simulation.post(lane, label) { step(lane) }
        }
        for index in 0..<lanes { step(simulation.lane("lane.\(index)")) }
        _ = simulation.run()
    }
}
