import SimCore

/// The lost update: two workers each read a shared counter, then write back what they read plus one,
/// in two separate jobs. When both reads land before either write, one increment is lost.
///
/// `buggy` splits read and write into two jobs (an `await` between them in real code); `fixed`
/// increments in one job, so nothing can come between the read and the write.
public enum CounterRace {
    public static let scenario = Scenario(
        name: "counter-race",
        summary: "two lanes read-then-write a shared counter; an interleaving loses an update",
        variants: [
            .init("buggy", "read and write are separate jobs: the second read can land between them"),
            .init("fixed", "read-modify-write in one job: increments cannot interleave"),
        ],
        limits: RunLimits(maxSteps: 1_000)
    ) { simulation, variant in
        let counter = SharedCounter()
        let workers = ["worker.a", "worker.b"]
        for name in workers {
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

/// The counter both workers share (one simulation, one thread).
final class SharedCounter {
    var value = 0
    var reads = 0
    var writes = 0
    /// Both workers read before either wrote: the interleaving that loses an update.
    var readsBeforeWrites: Bool { reads == 2 && writes == 0 }
}
