import SimCapture
import SimCore
import SimScenarios

extension Benchmark {
    /// Jobs/s on carriers against the one-thread path, same scenario, same seed, same run: when
    /// nothing pauses (target: within 3x), and with every job taking a pthread mutex under
    /// `--preempt` (each acquisition a scheduling point, so twice the steps).
    func carrierFigures() -> [BenchFigure] {
        let tasks = 8
        let yields = max(1, configuration.kernelJobs / 80 / tasks)
        // Preempting runs switch threads at most picks: a twentieth of the jobs keeps the bench short.
        let lockYields = max(1, yields / 20)
        let lock = BenchMutex()
        let scenario = Scenario.async(
            name: "bench-carriers", summary: "tasks that yield, optionally taking a mutex per job",
            variants: [.init("yield", ""), .init("lock", "")], limits: RunLimits(maxSteps: Int.max),
            concurrency: .eitherRoute
        ) { _, variant in
            let locking = variant == "lock"
            let count = locking ? lockYields : yields
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<tasks {
                    group.addTask {
                        for _ in 0..<count {
                            if locking { lock.touch() }
                            await Task.yield()
                        }
                    }
                }
            }
        }
        func measure(_ variant: String, _ mode: CarrierMode) -> (rate: Double, steps: Int, verdict: Verdict) {
            var best = Double.infinity
            var steps = 0
            var verdict = Verdict.pass
            let moded = scenario.running(on: mode)
            for _ in 0..<repetitions {
                best = min(
                    best,
                    Stopwatch.time {
                        let result = moded.run(variant: variant, seed: 1, strategy: RandomStrategy())
                        steps = result.steps
                        verdict = result.verdict
                    })
            }
            return (Double(steps) / best, steps, verdict)
        }
        let threadsBefore = Carriers.threads.started
        let oneThread = measure("yield", .off)
        let carriers = measure("yield", .carriers)
        let lockOneThread = measure("lock", .off)
        let preempting = measure("lock", .preemptLocks)
        let threads = Carriers.threads.started - threadsBefore
        let ratio = oneThread.rate / carriers.rate
        let campaign = cancellationCampaign()
        return [
            .rate(
                key: "carrier_jobs_per_second", name: "async jobs/s on carriers, nothing pauses", carriers.rate,
                against: "the one-thread path", oneThread.rate, ratioMeaning: "one-thread rate / carrier rate",
                target: "within 3x", met: ratio <= 3 && carriers.verdict == .pass && oneThread.verdict == .pass,
                note:
                    "\(carriers.steps) jobs (\(tasks) task-group children × \(yields) Task.yield()), random strategy; the "
                    + "carrier holding the turn picks and runs each job on its own thread: the difference is the "
                    + "per-job lock binding and the watchdog's counter, plus a hand-off to a pool carrier at the start and "
                    + "back at the end (the driver runs no job off the main thread); \(threads) carrier threads started "
                    + "over the four runs"),
            .rate(
                key: "preempting_jobs_per_second", name: "async jobs/s under --preempt, a mutex per job",
                Double(lockOneThread.steps) / (Double(preempting.steps) / preempting.rate),
                against: "the same jobs on the one-thread path", lockOneThread.rate,
                ratioMeaning: "one-thread rate / preempting rate", target: "measured", met: nil,
                note:
                    "\(lockOneThread.steps) jobs each taking a pthread mutex once: under --preempt every acquisition is "
                    + "a scheduling point (\(preempting.steps) steps: a pick per lock), and a switch to a paused "
                    + "carrier is a semaphore hand-off between two threads (two futex calls and a context switch)"),
            .rate(
                key: "preempting_campaign_schedules_per_second",
                name: "schedules/s of a --preempt campaign with cancellation", campaign.preempting.rate,
                against: "the same schedules' seeds on the one-thread path", campaign.oneThread.rate,
                ratioMeaning: "one-thread rate / preempting rate", target: "measured", met: nil,
                note:
                    "subject-cancel-deadlock/fixed, seeds 0..<\(campaign.seeds), random: a subscriber, two senders and a "
                    + "Task.cancel() racing over NSLock, an AsyncStream and the runtime's task status locks; "
                    + "\(campaign.preempting.steps) steps under --preempt against \(campaign.oneThread.steps) without "
                    + "(every lock point is a step, most of them a hand-off between carriers), and each run records its "
                    + "lock order (one backtrace per mutex made, a hook per nested acquisition)"),
        ]
    }

    /// A `--preempt` campaign of a scenario with cancellation (issue #41) against the same seeds on
    /// one thread: schedules per second and steps.
    private func cancellationCampaign() -> (
        seeds: Int, preempting: (rate: Double, steps: Int), oneThread: (rate: Double, steps: Int)
    ) {
        let seeds = max(20, configuration.kernelJobs / 4_000)
        func measure(_ mode: CarrierMode) -> (rate: Double, steps: Int) {
            let scenario = SubjectCancelDeadlock.scenario.running(on: mode)
            var best = Double.infinity
            var steps = 0
            for _ in 0..<repetitions {
                var total = 0
                best = min(
                    best,
                    Stopwatch.time {
                        for seed in 0..<UInt64(seeds) {
                            total += scenario.run(variant: "fixed", seed: seed, strategy: RandomStrategy()).steps
                        }
                    })
                steps = total
            }
            return (Double(seeds) / best, steps)
        }
        return (seeds, measure(.preemptLocks), measure(.off))
    }
}

/// A pthread mutex, as `NSLock` wraps one (SimRunKit does not import Foundation).
private final class BenchMutex: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    func touch() {
        pthread_mutex_lock(mutex)
        pthread_mutex_unlock(mutex)
    }
}
