import Foundation
import SimCapture
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Synchronization
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
        .init("loop", "three tasks made at one site"),
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
        _ = await (Task(name: "w#2") {}.value, Task(name: claimedName.withLock { $0 }) {}.value)
    }
    if variant == "named-extra" || variant == "extra-same-job" { Task { simulation.emit("unrelated", "ran") } }
    if variant == "loop" {
        for _ in 0..<3 { Task { simulation.emit("unrelated", "ran") } }
        return
    }
    let named = variant.hasPrefix("named")
    let writer = Task(name: named ? "writer" : nil) { flags.written = true }
    let reader = Task(name: named ? "reader" : nil) { if !flags.written { flags.readEarly = true } }
    _ = await (writer.value, reader.value)
}

/// The name `clashing-names` gives its last named task: the name the writer would be given.
private let claimedName = Mutex("task@7.1")

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

    /// Where creation sites are read, a task is named by its creator, the closure it runs (closure 5
    /// of the body, closure 1 of `taskRace`), and an ordinal per (creator, closure):
    /// `task>taskRace{1}{5}.1`.
    @Test func aTaskIsNamedAfterItsCreatorAndWhereItWasCreated() throws {
        try #require(TaskNames.creationSitesAreRead, "creation sites are not read on this platform")
        let buggy = created("buggy", seed: 1)
        #expect(buggy.count == 3 && buggy[0] == "task", "\(buggy)")
        for name in buggy.dropFirst() {
            #expect(name.hasPrefix("task>taskRace{1}{") && name.hasSuffix("}.1"), "\(buggy)")
        }
        #expect(Set(buggy).count == 3, "the writer and the reader are made at two sites: \(buggy)")
        // Added elsewhere or earlier in the same job, another task renames neither.
        for variant in ["extra", "extra-same-job"] {
            let extra = created(variant, seed: 1)
            #expect(extra.count == 4 && buggy.allSatisfy(extra.contains), "\(variant): \(extra) against \(buggy)")
        }
        // The same closure made three times: one ordinal per closure.
        let names = created("loop", seed: 1)
        #expect(names.count == 4 && names.dropFirst().map { $0.split(separator: ".").last } == ["1", "2", "3"], "\(names)")
        #expect(Set(names.dropFirst().map { $0.dropLast(2) }).count == 1, "\(names)")
    }

    /// Where they are not (another platform, a stripped binary), by the job that created it.
    @Test(.enabled(if: !TaskNames.creationSitesAreRead, "creation sites are read here: the tests above name tasks by them"))
    func withoutCreationSitesATaskIsNamedAfterTheJobThatCreatedIt() {
        #expect(created("buggy", seed: 1) == ["task", "task@2.1", "task@2.2"])
        #expect(created("extra", seed: 1).contains("task.1"))
        #expect(Array(created("extra", seed: 1).filter { $0.hasPrefix("task@2") }) == ["task@2.1", "task@2.2"])
    }

    @Test func aTaskMadeWithANameIsNamedByIt() throws {
        try #require(TaskNames.areRead, "Task(name:) names are not read on this platform")
        #expect(created("named", seed: 1) == ["task", "writer", "reader"])
        let extra = created("named-extra", seed: 1)
        #expect(extra.count == 4 && extra[0] == "task" && extra[2...] == ["writer", "reader"], "\(extra)")
        #expect(extra[1] == (TaskNames.creationSitesAreRead ? created("extra-same-job", seed: 1)[1] : "task@2.1"))
    }

    /// A name given with `Task(name:)` that another task has, or that a task made later would be
    /// named (the writer's), takes a `#k`: two tasks never share a lane.
    @Test func givenNamesNeverShareALane() throws {
        try #require(TaskNames.areRead, "Task(name:) names are not read on this platform")
        let writer = TaskNames.creationSitesAreRead ? created("buggy", seed: 1)[1] : "task@7.1"
        claimedName.withLock { $0 = writer }
        defer { claimedName.withLock { $0 = "task@7.1" } }
        let names = created("clashing-names", seed: 1)
        let unnamed = TaskNames.creationSitesAreRead ? created("buggy", seed: 1)[2] : "task@7.2"
        #expect(names == ["task", "task#1", "w", "w#2", "w#2#2", writer, writer + "#2", unnamed], "\(names)")
        #expect(Set(names).count == names.count)
    }

    /// Records `recorded` (a failing seed of random), replays the trace on `variant`: the output and status.
    private func replay(recorded: String, on variant: String) throws -> (status: Int32, output: String) {
        let directory = try makeTemporaryDirectory("identity-async")
        let path = directory.appendingPathComponent("race.simtrace").path
        let plan = RunPlan.probed(scenario: taskRace, variant: recorded, strategy: StrategySpec(kind: .random))
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

    /// Unnamed tasks are named by where they were made: an unrelated one made first in the same job
    /// renames none of the racing ones, so the recorded schedule is followed whole. Where creation
    /// sites are not read, they are numbered in creation order and replay says it could not follow the
    /// schedule (exit 2), never a pass.
    @Test func aTraceReplayedWithAnUnrelatedTaskAddedInTheSameJobFollowsEveryDecision() throws {
        let (status, output) = try replay(recorded: "buggy", on: "extra-same-job")
        if TaskNames.creationSitesAreRead {
            #expect(status == ExitStatus.failure, "\(output)")
            #expect(output.contains("FAIL"), "\(output)")
            #expect(output.contains(" non-fifo)") && output.contains("(all "), "\(output)")
            #expect(!output.contains("inconclusive"), "\(output)")
        } else {
            #expect(status != ExitStatus.ok, "\(output)")
            if status != ExitStatus.failure { #expect(output.contains("inconclusive"), "\(output)") }
        }
    }

    /// A task's name is the same in the `simrun` executable and in this test process (the closure's
    /// symbol, never an address): a trace `simrun` recorded replays here event for event, actor calls
    /// and their methods included.
    @Test func aTraceRecordedBySimrunReplaysIdenticallyInTheTestProcess() throws {
        let directory = try makeTemporaryDirectory("identity-process")
        let path = directory.appendingPathComponent("cache.simtrace").path
        let recorded = try SimrunProcess.run([
            "run", "actor-reentrancy-cache", "--variant", "buggy", "--seed", "1", "--strategy", "random", "--out", path,
        ])
        #expect(recorded.status == ExitStatus.failure, "\(recorded.stdout)\(recorded.stderr)")
        let console = Console(capturing: true)
        let status = SimRun.run(
            arguments: ["replay", path], scenarios: [ActorReentrancyCache.scenario], console: console)
        // Identical (exit 0: the same events, the same failure as recorded).
        #expect(status == ExitStatus.ok, "\(console.capturedOutput)")
        #expect(console.capturedOutput.contains(": identical"), "\(console.capturedOutput)")
        let shown = Console(capturing: true)
        _ = SimRun.run(
            arguments: ["show", path, "--full-names"], scenarios: [ActorReentrancyCache.scenario], console: shown)
        if TaskNames.creationSitesAreRead {
            #expect(shown.capturedOutput.contains("task.create task>ActorReentrancyCache.scenario{1}{3}.1"))
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
        // Both callers are seen calling the actors, by the stable names of their tasks (the two
        // `Task { await cache.profile("ada") }` closures of the body, where creation sites are read).
        let expected: Set<String> =
            TaskNames.creationSitesAreRead
            ? ["task>ActorReentrancyCache.scenario{1}{3}.1", "task>ActorReentrancyCache.scenario{1}{4}.1"]
            : ["task.1", "task.2"]
        #expect(callers == expected, "\(callers)")
    }

    /// `simrun show` reads an actor's job as "task X calls actor A.method": the method is named by
    /// the caller's resume functions (`ResumeTask` and the async context chain, read from the runtime).
    @Test func showSaysWhichTaskCallsWhichActorMethod() throws {
        let directory = try makeTemporaryDirectory("actor-show")
        let path = directory.appendingPathComponent("cache.simtrace").path
        let scenario = ActorReentrancyCache.scenario
        let plan = RunPlan.probed(scenario: scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        _ = try Recorder.record(plan: plan, seed: 1, strategy: RandomStrategy(), strategyName: "random", to: path)
        let console = Console(capturing: true)
        _ = SimRun.run(arguments: ["show", path, "--full-names"], scenarios: [scenario], console: console)
        let output = console.capturedOutput
        let (first, second) =
            TaskNames.creationSitesAreRead
            ? ("task>ActorReentrancyCache.scenario{1}{3}.1", "task>ActorReentrancyCache.scenario{1}{4}.1")
            : ("task.1", "task.2")
        let method = CodeSymbol.areReadable ? "ProfileCache.profile(_:)" : "ProfileCache"
        #expect(output.contains("actor.call: \(first) calls actor \(method)"), "\(output)")
        #expect(output.contains("actor.call: \(second) calls actor \(method)"), "\(output)")
        // The Perfetto export names the slice the same way.
        let exported = directory.appendingPathComponent("cache.json").path
        _ = SimRun.run(arguments: ["export", path, "--format", "perfetto", "--out", exported], scenarios: [scenario], console: Console(capturing: true))
        let json = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(json.contains("actor.call: \(first) calls actor \(method)"), "\(json.prefix(2000))")
    }

    /// The method of an actor a resume function belongs to, as a person names it.
    @Test func aMethodIsNamedOnlyForTheActorThatRunsIt() {
        #expect(ActorMethod.method(of: "ProfileCache", in: "ProfileCache.profile(_:)") == "profile(_:)")
        #expect(ActorMethod.method(of: "ProfileCache", in: "App.ProfileCache.load(id:)") == "load(id:)")
        #expect(ActorMethod.method(of: "ProfileCache", in: "ProfileBackend.fetch(_:)") == nil)
        #expect(ActorMethod.method(of: "ProfileCache", in: "closure #1 in ProfileCache.profile(_:)") == nil)
    }

    /// `explain`'s excerpt around the decisive decision reads the same way.
    @Test func explainSaysWhichTaskCallsWhichActor() {
        let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Traces")
            .appendingPathComponent("actor-reentrancy-cache-buggy-cache-holds-newest-response.simtrace").path
        let explained = Understanding.simrun(["explain", trace, "--runs", "2"])
        #expect(explained.out.contains("calls actor ProfileCache"), "\(explained.out)")
    }
}
