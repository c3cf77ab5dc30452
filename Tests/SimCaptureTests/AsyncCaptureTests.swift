import Testing

@testable import SimCapture
@testable import SimCore

/// Plain Swift concurrency in a test process: the executor factory, installed by simrun's load-time
/// constructor before the test runner's `main`.
@Suite struct AsyncCaptureTests {
    /// Two task-group children increment an actor through a read-yield-write: the lost update depends
    /// on the seed. (Task-group children inherit the body's executor preference, so their yields reach
    /// simrun on the hook route; see the capture matrix.)
    static let racyTasks = Scenario.async(
        name: "racy-tasks", summary: "two tasks, one actor", variants: [.init("default", "")], concurrency: .eitherRoute
    ) { simulation, _ in
        let counter = HookCounter()
        let lanes = LaneLog()
        await withTaskGroup(of: Void.self) { group in
            for _ in 1...2 {
                group.addTask {
                    lanes.record(simulation)
                    await counter.increment()
                }
            }
        }
        let value = await counter.value
        simulation.atEnd("no lost update") { value == 2 ? nil : "counter is \(value)" }
        // One lane per child: where creation sites are read, both are the one `addTask` closure's,
        // numbered 1 and 2 (`task>racyTasks{1}{1}{1}.1`); elsewhere the body's job's.
        let expected =
            TaskNames.creationSitesAreRead
            ? ["task>AsyncCaptureTests.racyTasks{1}{1}{1}.1", "task>AsyncCaptureTests.racyTasks{1}{1}{1}.2"]
            : ["task.1", "task.2"]
        simulation.atEnd("task lanes") { lanes.names == expected ? nil : "lanes \(lanes.names)" }
    }

    @Test func theTestProcessHasTheExecutorFactoryFromTheLoadTimeConstructor() {
        #expect(ExecutorFactoryGate.atLoad == .install, "\(String(describing: ExecutorFactoryGate.atLoad))")
        #expect(ExecutorCapture.ensureRoute() == .executorFactory)
        #expect(ExecutorCapture.route.capturesMainActor)
        #expect(ExecutorCapture.routeNote == nil)
        // Installing again (as SimRun.main does) changes nothing and never hangs.
        #expect(ExecutorCapture.installExecutorFactory() == .executorFactory)
    }

    @Test func tasksAndActorsInterleaveBySeedAndRepeatForASeed() {
        var verdicts = Set<Bool>()
        for seed in 0..<40 as Range<UInt64> {
            let first = Self.racyTasks.run(variant: "default", seed: seed, strategy: RandomStrategy())
            let second = Self.racyTasks.run(variant: "default", seed: seed, strategy: RandomStrategy())
            #expect(first.digest == second.digest, "seed \(seed)")
            #expect(first.tape == second.tape)
            if case .fail(let oracle, _) = first.verdict { #expect(oracle == "no lost update") }
            verdicts.insert(first.verdict == .pass)
        }
        #expect(verdicts == [true, false], "both the lost update and the correct count must occur")
    }

    @Test func aMainActorScenarioRunsInATestProcess() {
        let scenario = Scenario.async(name: "main", summary: "", variants: [.init("default", "")]) { simulation, _ in
            let lanes = LaneLog()
            await MainActor.run { lanes.record(simulation) }
            simulation.atEnd("on main") { lanes.names == ["main"] ? nil : "ran on \(lanes.names)" }
        }
        let result = scenario.run(variant: "default", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict == .pass, "\(result.verdict)")
    }

    /// Only where the clocks stay real (macOS): see `VirtualClockTests` for exact sleeps.
    @Test func sleepsBecomeTheRoundDurationTheyAskedForWhereClocksAreReal() {
        func delay(_ lower: Int64, _ span: Int64) -> Int64 {
            SleepDelay.roundest(lower: .nanoseconds(lower), span: .nanoseconds(span)).nanosecondsClamped
        }
        #expect(delay(299_990_000, 50_000) == 300_000_000)
        #expect(delay(4_990_295_731, 9_800_000) == 5_000_000_000)
        #expect(delay(1_499_900_000, 1_000_000) == 1_500_000_000)
        #expect(delay(12_345, 0) == 12_345, "an exact delay stays exact")
        #expect(delay(0, 0) == 0)
        #expect(delay(-5, 0) == 0, "a deadline already passed is due now")
    }
}

actor HookCounter {
    var value = 0
    func increment() async {
        let seen = value
        await Task.yield()
        value = seen + 1
    }
}

/// The lanes tasks ran on (one simulation thread).
final class LaneLog: @unchecked Sendable {
    var names: [String] = []
    func record(_ simulation: Simulation) {
        guard let lane = simulation.currentLane else { return names.append("outside") }
        names.append(simulation.symbols.strings[Int(lane.name.raw)])
        names.sort()
    }
}
