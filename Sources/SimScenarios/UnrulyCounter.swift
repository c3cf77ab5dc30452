import SimCapture
import SimCore
import Synchronization

/// The counter race with models that break the harness's rules on purpose, so that simrun's
/// reliability can be tested end to end: a model that traps, one that reads the wall clock, ones that
/// depend on the process they run in (its id, as `Set` order did before simrun pinned the hash seed),
/// one that depends on `Set` order (the same in every simrun process now), one whose verdict is left
/// behind by earlier runs in its process, and two that never go quiet.
///
/// Every variant keeps counter-race's lost update (two workers read, then write back read + 1), so
/// fuzzing finds a failure; what differs is how each variant misbehaves around it.
public enum UnrulyCounter {
    /// The scenario: its variants, set-up and oracles (`simrun list --group fixtures` shows its summary).
    public static let scenario = Scenario(
        name: "unruly-counter",
        summary: "counter-race with models that trap, read the wall clock, use Set order or never stop",
        variants: [
            .init("crashing", "a stale write by worker.a trips a precondition (traps on some schedules)"),
            .init("crashing-always", "worker.a's write trips a precondition on every schedule, fifo included"),
            .init(
                "wall-clock",
                "records a real clock (CPU time; the wall clock is virtual) in an event: no two runs alike"),
            .init("set-order", "starts the workers in Set order: the same in every process, the hash seed pinned"),
            .init(
                "process-order", "starts the workers in an order drawn from the process id: stable in a process, not across processes"),
            .init(
                "process-verdict", "fails only when the process id picks worker.a: the verdict differs across processes"
            ),
            .init(
                "leaked-static",
                "counts its runs in a static that outlives each run: a process's first run passes, later ones fail"),
            .init("spinning", "a poller reposts itself forever: ends at the step limit"),
            .init("ticking", "a timer rearms itself forever: ends at the virtual-time limit"),
            .init(
                "stuck",
                "on schedules where one write landed between the reads and the other write, a job never returns (a loop that never yields): only real time ends it"
            ),
        ],
        limits: RunLimits(maxSteps: 1_000, maxVirtualNanoseconds: 60_000_000_000)
    ) { simulation, variant in
        let counter = SharedCounter()
        // set-order iterates a Set: its order follows the hash seed, which simrun pins in its processes.
        // Deliberately wrong for process-order: the order follows the process id.
        let three = ["worker.a", "worker.b", "worker.c"]
        let rotation = Int(getpid() % 3)
        let workers =
            variant == "set-order"
            ? Array(Set(three))
            : variant == "process-order" ? Array(three[rotation...] + three[..<rotation]) : ["worker.a", "worker.b"]
        for name in workers {
            let lane = simulation.lane(name)
            simulation.post(lane, simulation.symbol("read")) {
                let seen = counter.value
                counter.reads += 1
                simulation.emit("counter.read", name, ["value": .int(seen)])
                simulation.post(lane, simulation.symbol("write")) {
                    if variant == "crashing" && name == "worker.a" {
                        precondition(
                            counter.value == seen, "stale write: worker.a read \(seen), counter is now \(counter.value)"
                        )
                    }
                    if variant == "crashing-always" && name == "worker.a" {
                        preconditionFailure("worker.a always traps: read \(seen), counter is \(counter.value)")
                    }
                    counter.value = seen + 1
                    counter.writes += 1
                    simulation.emit("counter.write", name, ["value": .int(seen + 1)])
                }
            }
        }
        switch variant {
        case "wall-clock":
            // Deliberately wrong: real time leaks into the recorded events. The wall clock itself is the
            // run's virtual clock on its thread (VirtualClocks), so this reads the clock simrun keeps
            // real: the process's CPU time.
            simulation.post(on: "main", "stamp") {
                var now = timespec()
                clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
                simulation.emit("clock.read", "wall", ["nanoseconds": .int(Int(now.tv_nsec))])
            }
        case "spinning":
            let poller = simulation.lane("poller")
            func poll() { simulation.post(poller, simulation.symbol("poll")) { poll() } }
            poll()
        case "ticking":
            func tick() { simulation.after(.seconds(1), "tick") { tick() } }
            tick()
        case "stuck":
            // Deliberately wrong: when worker.b writes first (never in fifo order), a job spins on a
            // flag nothing ever sets.
            simulation.post(on: "poller", "watch") {
                simulation.post(on: "poller", "check") {
                    guard counter.writes == 1, counter.value == 1, counter.reads == 2 else { return }
                    let flag = Atomic<Bool>(false)
                    while !flag.load(ordering: .relaxed) {}
                }
            }
        default:
            break
        }
        simulation.sometimes("interleaved reads") { counter.reads == workers.count && counter.writes == 0 }
        if variant == "leaked-static" {
            // Deliberately wrong: state left by earlier runs in this process (a singleton never reset)
            // decides the verdict, and shows in an event.
            let earlier = runsInThisProcess.add(1, ordering: .relaxed).oldValue
            simulation.post(on: "main", "read the static") {
                simulation.emit("static.read", "runs", ["earlier": .int(earlier)])
            }
            simulation.atEnd("fresh state") { earlier == 0 ? nil : "\(earlier) earlier runs left state behind" }
            return
        }
        if variant == "process-verdict" {
            // Deliberately wrong: which name comes first depends on the process id.
            let names = ["worker.a", "worker.b", "worker.c", "worker.d"]
            let first = names[Int(getpid() % 4)]
            simulation.atEnd("process order") { first == "worker.a" ? "the process picked \(first) first" : nil }
            return
        }
        simulation.atEnd("no lost update") {
            counter.value == workers.count ? nil : "counter is \(counter.value) after \(workers.count) increments"
        }
    }.inGroup(BuiltinScenarios.fixtures)
}

/// Runs of `unruly-counter/leaked-static` in this process so far (the variant's deliberate leak).
private let runsInThisProcess = Atomic<Int>(0)
