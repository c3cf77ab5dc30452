import SimCore
import SimEngine

/// The synthetic job mix behind the kernel, recording, replay and memory figures: `lanes` serial
/// chains, each job doing a little arithmetic and posting its successor on its lane, every
/// `timerEvery`-th one after a virtual-time delay instead (so timers and clock jumps are in the mix).
///
/// With `eventsPerJob == 1` each job also records one model event with an int field, which makes two
/// events per job (its `sched.pick` and that one): the shape of a model step.
struct BenchWorkload: Sendable {
    var lanes: Int = 4
    /// Jobs in the whole run (spread evenly over the lanes).
    var jobs: Int
    /// Model events per job besides its `sched.pick`: 0 or 1.
    var eventsPerJob: Int
    var timerEvery: Int = 64

    var jobsPerLane: Int { Swift.max(1, jobs / lanes) }

    /// Enough jobs for about `events` events with one model event per job.
    static func recording(events: Int) -> BenchWorkload {
        BenchWorkload(jobs: Swift.max(4, events / 2), eventsPerJob: 1)
    }

    /// A fresh simulation with the chains' first jobs posted.
    func makeSimulation(seed: UInt64, strategy: any Strategy, sink: any EventSink, retainsTape: Bool)
        -> (Simulation, [BenchChain])
    {
        let simulation = Simulation(
            seed: seed, strategy: strategy, sink: sink, limits: limits)
        simulation.retainsTape = retainsTape
        return (simulation, install(on: simulation))
    }

    var limits: RunLimits { RunLimits(maxSteps: jobsPerLane * lanes + 16, maxVirtualNanoseconds: .max) }

    /// Posts the first job of every chain.
    @discardableResult
    func install(on simulation: Simulation) -> [BenchChain] {
        let chains = makeChains(on: simulation)
        for chain in chains { chain.start() }
        return chains
    }

    /// The chains, not started (the plain-array baseline calls their `work` directly).
    func makeChains(on simulation: Simulation) -> [BenchChain] {
        (0..<lanes).map { BenchChain(simulation, lane: $0, workload: self) }
    }

    /// This workload as a scenario, so that replay goes through the same path as `simrun replay`.
    var scenario: Scenario {
        let workload = self
        return Scenario(
            name: "bench-lanes", summary: "the benchmark's synthetic job mix",
            variants: [.init("default", "\(lanes) lanes, \(jobs) jobs")], limits: limits
        ) { simulation, _ in workload.install(on: simulation) }
    }
}

/// One lane's chain of jobs. Lives as long as its simulation (its jobs capture it).
final class BenchChain {
    private unowned let simulation: Simulation
    private let lane: LaneID
    private let label: Symbol
    private let kind: Symbol
    private let subject: Symbol
    private let key: Symbol
    private let delay: Duration
    private let eventsPerJob: Int
    private let timerEvery: Int
    private var remaining: Int
    private(set) var done = 0
    /// Stands in for a model's state so that the work is not optimized away.
    private(set) var state: UInt64

    init(_ simulation: Simulation, lane index: Int, workload: BenchWorkload) {
        self.simulation = simulation
        lane = simulation.lane("bench.\(index)")
        label = simulation.symbol("bench.step")
        kind = simulation.symbol("bench.work")
        subject = simulation.symbol("chain.\(index)")
        key = simulation.symbol("n")
        delay = .microseconds(index + 1)
        eventsPerJob = workload.eventsPerJob
        timerEvery = workload.timerEvery
        remaining = workload.jobsPerLane
        state = UInt64(index)
    }

    func start() {
        remaining -= 1
        simulation.post(lane, label) { [self] in step() }
    }

    /// The job body's own work, the part the plain-array baseline calls too.
    @inline(never)
    func work() {
        state = (state ^ UInt64(truncatingIfNeeded: done)) &* 0x9E37_79B9_7F4A_7C15
        done += 1
    }

    private func step() {
        work()
        if eventsPerJob > 0 {
            var fields = EventFields()
            fields.append(EventField(key, .int(Int64(done))))
            simulation.emit(kind, subject: subject, fields: fields)
        }
        guard remaining > 0 else { return }
        remaining -= 1
        if done % timerEvery == 0 {
            simulation.after(delay, on: lane, "bench.wake") { [self] in step() }
        } else {
            simulation.post(lane, label) { [self] in step() }
        }
    }
}
