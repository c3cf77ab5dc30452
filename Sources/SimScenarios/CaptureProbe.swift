import Dispatch
import SimCapture
import SimCore
import Synchronization

/// What the capture route of this process puts under the scheduler, one construct per variant: the
/// The capture matrix (SimCore's article "Your own async code") is this scenario run on each route (`CaptureMatrixTests` checks it).
///
/// A variant passes when its construct's code ran inside the run, on the lane its identity says,
/// with sleeps on virtual time; it fails (never passes) when the construct left the run: the
/// `stays-in-simulation` oracle names what escaped, or `captured` says where the code ran instead.
public enum CaptureProbe {
    /// How the lane of a task the body made begins: `task>` (named where it was made) where creation
    /// sites are read, else `task.` (named after the body's job).
    static var childTask: String { TaskNames.creationSitesAreRead ? "task>" : "task." }

    /// One row of the matrix: a variant, its summary, and whether each route captures it.
    public typealias Construct = (
        variant: String, summary: String, factory: Bool, inTest: Bool, hook: Bool, uninterposed: Bool
    )

    /// Each construct, and whether it is captured by the executor-factory route in an executable built
    /// on `SimRun.main` (`factory`), by the same route installed at load time inside `swift test`
    /// (`inTest`), by the enqueue-hook route (`hook`: a process where the factory is off), and by
    /// `simrun` with the interposition layer switched off (`uninterposed`: `SIMRUN_INTERPOSE=off`, the
    /// shape of a platform without the layer, macOS today) — where what is not captured is reported.
    public static let constructs: [Construct] = concurrencyConstructs + dispatchConstructs + foundationConstructs

    /// The constructs simrun itself cannot always see with the interposition layer off: work GCD
    /// runs on its own threads or inline that hands nothing back to the run (or resumes the body
    /// before it waits, which enqueues nothing), and real clock reads. Only the probe's
    /// own check fails them there; the article "Your own async code" says why simrun cannot.
    public static let unseenWithoutInterposition: Set<String> = [
        "dispatch-global", "dispatch-global-queue", "dispatch-serial", "dispatch-barrier", "dispatch-sync",
        "dispatch-concurrent-perform", "dispatch-source-data", "clock-reads", "clock-reads-in-main-and-task",
        "notification-center", "operation-queue",
    ]

    static let concurrencyConstructs: [Construct] = [
        ("task", "Task {} started by the body", true, true, true, true),
        ("detached", "Task.detached", true, true, true, true),
        ("task-group", "withTaskGroup children", true, true, true, true),
        ("async-stream", "an AsyncStream fed by another task", true, true, true, true),
        ("continuation", "withCheckedContinuation resumed by another task", true, true, true, true),
        ("actor-in-group", "an actor method that yields, called from task-group children", true, true, true, true),
        ("actor-in-task", "an actor method that yields, called from Task {}", true, true, false, true),
        ("yield-in-task", "Task.yield() inside Task {}", true, true, true, true),
        ("main-actor", "a @MainActor function, and Task {} from it", true, true, false, true),
        ("task-sleep", "Task.sleep(for:) in the body", true, true, true, true),
        ("sleep-in-task", "Task.sleep(for:) inside Task {}", true, true, true, true),
        ("continuous-clock", "ContinuousClock().sleep(for:) in the body", true, true, true, true),
        ("suspending-clock", "SuspendingClock().sleep(for:) in the body", true, true, true, true),
        ("sim-clock", "the injected sim.clock, inside Task {}", true, true, true, true),
        // Captured where GCD is (issue #31): the block runs in the run, its 20 ms wait on virtual time.
        (
            "dispatch-global", "a continuation resumed from DispatchQueue.global().async",
            DispatchCapturing.isActive, DispatchCapturing.isActive, DispatchCapturing.isActive, false
        ),
        // Where the clocks stay real (macOS: `VirtualClocks.areVirtual` is false) these two fail.
        (
            "clock-reads", "ContinuousClock, SuspendingClock, DispatchTime, C clocks read around 7/16/333 ms sleeps",
            VirtualClocks.areVirtual, VirtualClocks.areVirtual, VirtualClocks.areVirtual, false
        ),
        (
            "clock-reads-in-main-and-task", "the same clocks read in @MainActor and Task {} code after odd sleeps",
            VirtualClocks.areVirtual, VirtualClocks.areVirtual, false, false
        ),
    ]

    /// The scenario: its variants, set-up and oracles (`simrun list --group fixtures` shows its summary).
    public static let scenario = Scenario.async(
        name: "capture-probe",
        summary: "one Swift concurrency construct per variant: passes when captured, fails when it escapes",
        variants: constructs.map { .init($0.variant, $0.summary) },
        limits: RunLimits(maxSteps: 1_000),
        concurrency: .eitherRoute
    ) { simulation, variant in
        let log = ProbeLog()
        simulation.atEnd("captured") { log.verdict() }
        await probe(variant, simulation, log)
    }.inGroup(BuiltinScenarios.fixtures)

    static func probe(_ variant: String, _ simulation: Simulation, _ log: ProbeLog) async {
        let sim = SimulationRef(simulation)
        switch variant {
        case "task":
            let tasks = (1...2).map { _ in Task { log.expect(sim, lanePrefix: CaptureProbe.childTask) } }
            for task in tasks { await task.value }
        case "detached":
            await Task.detached { log.expect(sim, lanePrefix: CaptureProbe.childTask) }.value
        case "actor-in-group":
            let counter = ProbeCounter(log: log, sim: sim)
            await withTaskGroup(of: Void.self) { group in
                for _ in 1...2 { group.addTask { await counter.bump() } }
            }
        case "actor-in-task":
            let counter = ProbeCounter(log: log, sim: sim)
            let tasks = (1...2).map { _ in Task { await counter.bump() } }
            for task in tasks { await task.value }
        case "yield-in-task":
            await Task {
                await Task.yield()
                log.expect(sim, lanePrefix: CaptureProbe.childTask)
            }.value
        case "task-group":
            await withTaskGroup(of: Void.self) { group in
                for _ in 1...3 { group.addTask { log.expect(sim, lanePrefix: CaptureProbe.childTask) } }
            }
        case "async-stream":
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            Task {
                for value in 1...3 { continuation.yield(value) }
                continuation.finish()
            }
            for await _ in stream { log.expect(sim, lanePrefix: "task") }
        case "continuation":
            let value = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                Task { continuation.resume(returning: 7) }
            }
            log.expect(sim, lanePrefix: "task")
            if value != 7 { log.note("the continuation returned \(value)") }
        case "main-actor":
            await onMain(sim, log)
        case "task-sleep":
            try? await Task.sleep(for: .seconds(5))
            log.expect(sim, lanePrefix: "task", at: .seconds(5))
        case "continuous-clock":
            try? await ContinuousClock().sleep(for: .milliseconds(250))
            log.expect(sim, lanePrefix: "task", at: .milliseconds(250))
        case "suspending-clock":
            try? await SuspendingClock().sleep(for: .milliseconds(40))
            log.expect(sim, lanePrefix: "task", at: .milliseconds(40))
        case "sleep-in-task":
            await Task {
                try? await Task.sleep(for: .seconds(5))
                log.expect(sim, lanePrefix: CaptureProbe.childTask, at: .seconds(5))
            }.value
        case "sim-clock":
            let clock = simulation.clock
            await Task {
                try? await clock.sleep(for: .seconds(2))
                log.expect(sim, lanePrefix: CaptureProbe.childTask, at: .seconds(2))
            }.value
        case "dispatch-global":
            // Blocking work moved off the caller, the way apps use a global queue. (A resume that
            // lands before the task has suspended enqueues nothing and cannot be seen: "Your own async code".)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    blockingWork()
                    continuation.resume()
                }
            }
            log.expect(sim, lanePrefix: "task")
        case "clock-reads":
            await clockReads(sim, log)
        case "clock-reads-in-main-and-task":
            await clockReadsInMainAndTask(sim, log)
        default:
            if await foundationProbe(variant, sim, log) { return }
            await dispatchProbe(variant, sim, log)
        }
    }

    /// Stands for work that blocks a thread (file or network I/O) for a few milliseconds.
    static func blockingWork() {
        let semaphore = DispatchSemaphore(value: 0)
        _ = semaphore.wait(timeout: .now() + .milliseconds(20))
    }

    @MainActor static func onMain(_ sim: SimulationRef, _ log: ProbeLog) async {
        log.expect(sim, lanePrefix: "main")
        await Task { @MainActor in log.expect(sim, lanePrefix: "main") }.value
    }
}

/// The simulation, for code that may run on another thread when it escapes: it is only read there.
struct SimulationRef: @unchecked Sendable {
    let simulation: Simulation
    init(_ simulation: Simulation) { self.simulation = simulation }
}

/// Where probe code saw itself run; written from any thread (escaped code runs elsewhere).
final class ProbeLog: Sendable {
    private let notes = Mutex<[String]>([])
    private let checks = Atomic<Int>(0)

    func note(_ text: String) { notes.withLock { $0.append(text) } }

    /// The code calling this must run inside a job of the run, on a lane whose name starts with
    /// `lanePrefix`, at virtual time `at` (when given).
    func expect(_ sim: SimulationRef, lanePrefix: String, at time: Duration? = nil) {
        checks.add(1, ordering: .relaxed)
        // The run's current lane is what its thread runs now: code on another thread reads it too.
        guard sim.simulation.runsOnCallingThread, let lane = sim.simulation.currentLane else {
            note("code ran outside the simulation's jobs (on another thread)")
            return
        }
        let name = sim.simulation.symbols.strings[Int(lane.name.raw)]
        if !name.hasPrefix(lanePrefix) { note("code ran on lane \(name), expected \(lanePrefix)…") }
        if let time, sim.simulation.now != time.nanosecondsClamped {
            note("virtual time is \(Duration.nanoseconds(sim.simulation.now)) after a sleep of \(time)")
        }
    }

    func verdict() -> String? {
        if let first = notes.withLock({ $0.first }) { return first }
        return checks.load(ordering: .relaxed) == 0 ? "the probe's code never ran" : nil
    }
}

actor ProbeCounter {
    let log: ProbeLog
    let sim: SimulationRef
    var value = 0

    init(log: ProbeLog, sim: SimulationRef) {
        self.log = log
        self.sim = sim
    }

    func bump() async {
        let seen = value
        await Task.yield()
        value = seen + 1
        log.expect(sim, lanePrefix: "task")
    }
}
