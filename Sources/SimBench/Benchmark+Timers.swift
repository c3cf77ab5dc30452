import SimCore
import SimEngine

extension Benchmark {
    /// Timer jobs/s with many timers pending (the timer queue's insert and pop dominate) against the
    /// same chains posting their successors on lanes instead (no timer queue at all).
    func timerFigure() -> BenchFigure {
        let workload = TimerWorkload(jobs: configuration.timerJobs)
        var jobs = 0
        var timerSeconds = Double.infinity
        var laneSeconds = Double.infinity
        // Interleaved, so that a slow stretch of the machine hits both sides.
        for _ in 0..<repetitions {
            timerSeconds = min(timerSeconds, Stopwatch.time { jobs = workload.run(timers: true) })
            laneSeconds = min(laneSeconds, Stopwatch.time { _ = workload.run(timers: false) })
        }
        let timers = Double(jobs) / timerSeconds
        let lanes = Double(jobs) / laneSeconds
        return .rate(
            key: "timer_jobs_per_second", name: "timer jobs/s, \(workload.chains) pending timers", timers,
            against: "the same jobs posted on lanes", lanes,
            ratioMeaning: "lane-job rate / timer-job rate", target: "context", met: nil,
            note:
                "\(jobs) jobs in \(workload.chains) chains on \(workload.lanes) lanes, each setting its next timer 1-1024 µs ahead (a heap of \(workload.chains)), random strategy, null sink"
        )
    }
}

/// `chains` chains of jobs on `lanes` lanes; with timers each job sets its successor's timer a
/// pseudo-random delay ahead, so about `chains` timers are always pending with mostly distinct
/// deadlines; without, each job posts its successor on the chain's lane. Few lanes, so that the
/// baseline's ready list stays short and the difference is the timer queue.
struct TimerWorkload {
    var chains = 1024
    var lanes = 4
    var jobs: Int

    /// Runs the workload once; returns the jobs run.
    func run(timers: Bool) -> Int {
        let simulation = Simulation(
            seed: 1, strategy: RandomStrategy(), sink: NullSink(),
            limits: RunLimits(maxSteps: jobs + chains, maxVirtualNanoseconds: .max))
        simulation.retainsTape = false
        let perChain = Swift.max(1, jobs / chains)
        let all = (0..<chains).map {
            TimerChain(simulation, index: $0, lane: $0 % lanes, jobs: perChain, timers: timers)
        }
        for chain in all { chain.start() }
        return simulation.run().steps
    }
}

/// One chain of the timer workload. Lives as long as its simulation (its jobs capture it).
final class TimerChain {
    private unowned let simulation: Simulation
    private let lane: LaneID
    private let label: Symbol
    private let timers: Bool
    private var remaining: Int
    private var state: UInt64

    init(_ simulation: Simulation, index: Int, lane: Int, jobs: Int, timers: Bool) {
        self.simulation = simulation
        self.lane = simulation.lane("timers.\(lane)")
        label = simulation.symbol("timers.step")
        self.timers = timers
        remaining = jobs
        state = UInt64(index) &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    func start() { next() }

    private func next() {
        guard remaining > 0 else { return }
        remaining -= 1
        // xorshift: a cheap deterministic delay per job, so deadlines interleave across chains.
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        if timers {
            let delay = Int64(state & 1023) &+ 1
            simulation.schedule(at: simulation.now &+ delay * 1000, on: lane, "timers.wake") { [self] in next() }
        } else {
            simulation.post(lane, label) { [self] in next() }
        }
    }
}
