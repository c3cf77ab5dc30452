import Dispatch
import SimCapture
import SimCore

extension Benchmark {
    /// The same async code in a simulation and on the platform's own executor, in this process:
    /// task-group children that each, per iteration, yield and call an actor. Outside a run simrun's
    /// executors hand every job to the platform's (jobs of no run go there), so the baseline is what
    /// the code costs without simrun scheduling it. `@MainActor` hops and sleeps are left out: the
    /// platform's main queue is not drained while the bench waits on the main thread, and its sleeps
    /// would be real ones.
    func asyncPlatformFigure() -> BenchFigure {
        let tasks = 8
        let iterations = max(1, configuration.kernelJobs / 80 / tasks)
        let scenario = Scenario.async(
            name: "bench-async-platform", summary: "tasks that yield and call an actor",
            variants: [.init("default", "")], limits: RunLimits(maxSteps: Int.max), concurrency: .eitherRoute
        ) { _, _ in
            await BenchAsyncWork.run(tasks: tasks, iterations: iterations)
        }
        var simSeconds = Double.infinity
        var platformSeconds = Double.infinity
        var jobs = 0
        var verdict = Verdict.pass
        for _ in 0..<repetitions {
            simSeconds = min(
                simSeconds,
                Stopwatch.time {
                    let result = scenario.run(variant: "default", seed: 1, strategy: RandomStrategy())
                    jobs = result.steps
                    verdict = result.verdict
                })
            platformSeconds = min(
                platformSeconds,
                Stopwatch.time {
                    let done = DispatchSemaphore(value: 0)
                    Task.detached {
                        await BenchAsyncWork.run(tasks: tasks, iterations: iterations)
                        done.signal()
                    }
                    done.wait()
                })
        }
        let work = Double(tasks * iterations)
        let simRate = work / simSeconds
        let platformRate = work / platformSeconds
        return .rate(
            key: "async_vs_platform_iterations_per_second",
            name: "async iterations/s in a simulation (yield + actor call)", simRate, unit: "iterations/s",
            against: "the same code on the platform's executor", platformRate,
            ratioMeaning: "platform rate / simulation rate", target: "within 1.5x",
            met: platformRate / simRate <= 1.5 && verdict == .pass,
            note:
                "\(tasks) task-group children × \(iterations) iterations (Task.yield(), then a call to a shared actor), "
                + "\(jobs) scheduler jobs, random strategy, \(ExecutorCapture.route) route; the baseline runs the "
                + "same function in a detached task outside any run, on the platform's thread pool"
                + (verdict == .pass ? "" : "; the simulated run did NOT pass: \(verdict)"))
    }
}

/// The async work both sides of `asyncPlatformFigure` run.
enum BenchAsyncWork {
    actor Counter {
        var value = 0
        func bump() { value += 1 }
    }

    static func run(tasks: Int, iterations: Int) async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<iterations {
                        await Task.yield()
                        await counter.bump()
                    }
                }
            }
        }
    }
}
