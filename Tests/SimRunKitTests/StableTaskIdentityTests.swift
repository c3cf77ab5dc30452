import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// Two `Task {}`s race on a flag: the read before the write fails. The body creates them in its
/// second job (after a yield); variant `extra` adds an unrelated `Task {}` before them, in the body's
/// first job; variant `extra-elsewhere` has a helper task create one. Neither renames the racing tasks.
private let taskRace = Scenario.async(
    name: "task-race", summary: "a read task that must run after a write task",
    variants: [
        .init("buggy", "writer and reader"), .init("extra", "an unrelated Task {} first"),
        .init("extra-elsewhere", "a helper task creates an unrelated Task {}"),
        .init("named", "writer and reader made with Task(name:)"),
        .init("named-extra", "named, and an unrelated Task {} first in the same job"),
        .init("extra-same-job", "an unrelated Task {} first in the same job"),
        .init("clashing-names", "tasks given the body's name, a repeated name and another task's name"),
    ]
) { simulation, variant in
    let flags = RaceFlags()
    simulation.always("read-after-write") { flags.readEarly ? "the read ran before the write" : nil }
    if variant == "extra" { Task { simulation.emit("unrelated", "ran") } }
    if variant == "extra-elsewhere" {
        Task { Task { simulation.emit("unrelated", "ran") } }
    }
    await Task.yield()
    if variant == "clashing-names" {
        _ = await (Task(name: "task") {}.value, Task(name: "w") {}.value, Task(name: "w") {}.value)
        _ = await (Task(name: "w#2") {}.value, Task(name: "task@7.1") {}.value)
    }
    if variant == "named-extra" || variant == "extra-same-job" { Task { simulation.emit("unrelated", "ran") } }
    let named = variant.hasPrefix("named")
    let writer = Task(name: named ? "writer" : nil) { flags.written = true }
    let reader = Task(name: named ? "reader" : nil) { if !flags.written { flags.readEarly = true } }
    _ = await (writer.value, reader.value)
}

private final class RaceFlags: @unchecked Sendable {
    var written = false
    var readEarly = false
}

@Suite struct StableTaskIdentityTests {
    /// Task names as a run of `variant` creates them (the `task.create` events).
    private func created(_ variant: String, seed: UInt64) -> [String] {
        let sink = MemorySink()
        _ = taskRace.run(variant: variant, seed: seed, strategy: RandomStrategy(), sink: sink)
        return sink.events.filter { sink.text($0.kind) == "task.create" }.map { sink.text($0.subject) }
    }

    @Test func aTaskIsNamedAfterTheJobThatCreatedIt() {
        #expect(created("buggy", seed: 1) == ["task", "task@2.1", "task@2.2"])
        #expect(created("extra", seed: 1).contains("task.1"))
        #expect(Array(created("extra", seed: 1).filter { $0.hasPrefix("task@2") }) == ["task@2.1", "task@2.2"])
    }

    @Test func aTaskMadeWithANameIsNamedByIt() throws {
        try #require(TaskNames.areRead, "Task(name:) names are not read on this platform")
        #expect(created("named", seed: 1) == ["task", "writer", "reader"])
        #expect(created("named-extra", seed: 1) == ["task", "task@2.1", "writer", "reader"])
    }

    @Test func givenNamesNeverShareALane() throws {
        try #require(TaskNames.areRead, "Task(name:) names are not read on this platform")
        let names = created("clashing-names", seed: 1)
        #expect(names == ["task", "task#1", "w", "w#2", "w#2#2", "task@7.1", "task@7.1#2", "task@7.2"], "\(names)")
        #expect(Set(names).count == names.count)
    }

    /// Records `recorded` (a failing seed of random), replays the trace on `variant`: the output and status.
    private func replay(recorded: String, on variant: String) throws -> (status: Int32, output: String) {
        let directory = try makeTemporaryDirectory("identity-async")
        let path = directory.appendingPathComponent("race.simtrace").path
        let plan = RunPlan(scenario: taskRace, variant: recorded, strategy: StrategySpec(kind: .random))
        let seed = try #require(
            (UInt64(0)..<200).first {
                taskRace.run(variant: recorded, seed: $0, strategy: RandomStrategy()).verdict.isFailure
            })
        let result = try Recorder.record(
            plan: plan, seed: seed, strategy: RandomStrategy(), strategyName: "random", to: path)
        #expect(result.verdict.isFailure && result.deviations > 0)
        let console = Console(capturing: true)
        let status = SimRun.run(
            arguments: ["replay", path, "--variant", variant], scenarios: [taskRace], console: console)
        return (status, console.capturedOutput)
    }

    /// The racing tasks named with `Task(name:)`: an unrelated `Task {}` made first in the same job
    /// renames neither, so the recorded schedule is followed whole.
    @Test func aTraceOfNamedTasksReplayedWithAnUnrelatedTaskAddedInTheSameJobFollowsEveryDecision() throws {
        try #require(TaskNames.areRead, "Task(name:) names are not read on this platform")
        let (status, output) = try replay(recorded: "named", on: "named-extra")
        #expect(status == ExitStatus.failure, "\(output)")
        #expect(output.contains("FAIL"), "\(output)")
        #expect(output.contains(" non-fifo)") && output.contains("(all "), "\(output)")
        #expect(!output.contains("inconclusive"), "\(output)")
    }

    /// Unnamed tasks made in one job are numbered in creation order: an unrelated one made first shifts
    /// them, and replay says it could not follow the schedule (exit 2), never a pass.
    @Test func anUnnamedShiftInTheSameJobIsInconclusiveNotAPass() throws {
        let (status, output) = try replay(recorded: "buggy", on: "extra-same-job")
        #expect(status != ExitStatus.ok, "\(output)")
        if status != ExitStatus.failure {
            #expect(output.contains("inconclusive"), "\(output)")
        }
    }

    @Test(arguments: ["extra", "extra-elsewhere"])
    func aTraceReplayedWithAnUnrelatedTaskAddedFollowsEveryDecision(_ variant: String) throws {
        let (status, output) = try replay(recorded: "buggy", on: variant)
        #expect(status == ExitStatus.failure, "\(output)")
        #expect(output.contains("FAIL"), "\(output)")
        // Every non-fifo decision of the recording was followed: none missing, nothing inconclusive.
        #expect(output.contains(" non-fifo)") && output.contains("(all "), "\(output)")
        #expect(!output.contains("inconclusive"), "\(output)")
    }
}

/// An actor's drain job is named after the caller that scheduled it but runs every call queued on the
/// actor meanwhile: each call it runs is named by an `actor.call` event in that job.
@Suite struct ActorCallerTests {
    @Test func everyActorJobThatFetchesNamesTheTaskWhoseCallItRuns() {
        let scenario = ActorReentrancyCache.scenario
        var callers: Set<String> = []
        for seed: UInt64 in 0..<12 {
            let sink = MemorySink()
            _ = scenario.run(variant: "buggy", seed: seed, strategy: RandomStrategy(), sink: sink)
            var job: (lane: String, kinds: [String], subjects: [String])?
            func check() {
                guard let job, job.lane.contains("/actor"), job.kinds.contains("backend.fetch") else { return }
                #expect(job.kinds.contains("actor.call"), "seed \(seed): \(job.lane) fetches for no named task")
            }
            for event in sink.events {
                let kind = sink.text(event.kind)
                if kind == "sched.pick" {
                    check()
                    job = (sink.text(event.lane), [], [])
                } else if job != nil {
                    job!.kinds.append(kind)
                    if kind == "actor.call" {
                        callers.insert(sink.text(event.subject))
                        // The drain job shows its actor (`ProcessOutOfLineJob`'s layout, pinned here).
                        let actor = event.fields.first { sink.text($0.key) == "actor" }.flatMap { field -> String? in
                            if case .symbol(let symbol) = field.value { sink.text(symbol) } else { nil }
                        }
                        #expect(actor == "ProfileCache", "seed \(seed): \(actor ?? "no actor")")
                    }
                }
            }
            check()
        }
        // Both callers are seen calling the actors, by the stable names of their tasks.
        #expect(callers == ["task.1", "task.2"], "\(callers)")
    }

    /// `simrun show` reads an actor's job as "task X calls actor A".
    @Test func showSaysWhichTaskCallsWhichActor() throws {
        let directory = try makeTemporaryDirectory("actor-show")
        let path = directory.appendingPathComponent("cache.simtrace").path
        let scenario = ActorReentrancyCache.scenario
        let plan = RunPlan(scenario: scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        _ = try Recorder.record(plan: plan, seed: 1, strategy: RandomStrategy(), strategyName: "random", to: path)
        let console = Console(capturing: true)
        _ = SimRun.run(arguments: ["show", path], scenarios: [scenario], console: console)
        let output = console.capturedOutput
        #expect(output.contains("actor.call: task.1 calls actor ProfileCache"), "\(output)")
        #expect(output.contains("actor.call: task.2 calls actor ProfileCache"), "\(output)")
    }

    /// `explain`'s excerpt around the decisive decision reads the same way.
    @Test func explainSaysWhichTaskCallsWhichActor() {
        let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Traces")
            .appendingPathComponent("actor-reentrancy-cache-buggy-cache-holds-newest-response.simtrace").path
        let explained = Understanding.simrun(["explain", trace, "--runs", "2"])
        #expect(explained.out.contains("actor.call: task.1 calls actor ProfileCache"), "\(explained.out)")
    }
}
