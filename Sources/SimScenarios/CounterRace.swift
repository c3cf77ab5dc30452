import SimCapture
import SimCore

/// The lost update: two workers each read a shared counter, then write back what they read plus one,
/// in two separate jobs. When both reads land before either write, one increment is lost.
///
/// `buggy` splits read and write into two jobs (an `await` between them in real code); `fixed`
/// increments in one job, so nothing can come between the read and the write. `buggy-async` is the
/// same race in async/await: two tasks on the simulation's executor read an actor, await, then write.
public enum CounterRace {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario(
        name: "counter-race",
        summary:
            "two lanes read-then-write a shared counter; an interleaving loses an update"
            + " — deterministic: fifo fails",
        variants: [
            .init("buggy", "read and write are separate jobs: the second read can land between them"),
            .init("fixed", "read-modify-write in one job: increments cannot interleave"),
            .init("buggy-async", "two async tasks read an actor counter, await, then write back"),
        ],
        limits: RunLimits(maxSteps: 1_000)
    ) { simulation, variant in
        let counter = SharedCounter()
        let workers = ["worker.a", "worker.b"]
        if variant == "buggy-async" {
            spawnAsyncWorkers(workers, counter: counter, in: simulation)
        }
        for name in workers where variant != "buggy-async" {
            let lane = simulation.lane(name)
            simulation.post(lane, simulation.symbol("read")) {
                let seen = counter.value
                counter.reads += 1
                simulation.emit("counter.read", name, ["value": .int(seen)])
                if variant == "fixed" {
                    counter.value = seen + 1
                    counter.writes += 1
                    simulation.emit("counter.write", name, ["value": .int(seen + 1)])
                    return
                }
                simulation.post(lane, simulation.symbol("write")) {
                    counter.value = seen + 1
                    counter.writes += 1
                    simulation.emit("counter.write", name, ["value": .int(seen + 1)])
                }
            }
        }
        simulation.sometimes("interleaved reads") { counter.readsBeforeWrites }
        simulation.atEnd("no lost update") {
            counter.value == workers.count ? nil : "counter is \(counter.value) after \(workers.count) increments"
        }
    }
}

/// The async form: each worker is a task; the actor serializes each call, not the read-await-write.
private func spawnAsyncWorkers(_ workers: [String], counter: SharedCounter, in simulation: Simulation) {
    let store = CounterActor()
    for name in workers {
        simulation.spawn(name) {
            let seen = await store.read()
            counter.reads += 1
            simulation.emit("counter.read", name, ["value": .int(seen)])
            await Task.yield()
            await store.write(seen + 1)
            counter.value = seen + 1
            counter.writes += 1
            simulation.emit("counter.write", name, ["value": .int(seen + 1)])
        }
    }
}

/// A default actor: its calls follow the tasks' executor preference onto the simulation.
actor CounterActor {
    private var value = 0
    func read() -> Int { value }
    func write(_ newValue: Int) { value = newValue }
}

/// The counter both workers share (one simulation, one thread; async tasks run on that thread too,
/// hence `@unchecked Sendable`).
final class SharedCounter: @unchecked Sendable {
    var value = 0
    var reads = 0
    var writes = 0
    /// Both workers read before either wrote: the interleaving that loses an update.
    var readsBeforeWrites: Bool { reads == 2 && writes == 0 }
}
