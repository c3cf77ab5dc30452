import Foundation
import SimCapture
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Synchronization
import Testing

@testable import SimEngine

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

/// A task's identity is stable (its lane, so the decisions of a trace): named by its creator and where
/// it was created, or by `Task(name:)`, never by creation order, so a task added elsewhere renames no
/// other and a recorded schedule is followed whole (`TraceReplay`); and the same in the built `simrun`
/// and in this test process. Where creation sites or given names are not read (another platform, a
/// stripped binary), the tests that need them are skipped with that reason.
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
    @Test(.enabled(if: TaskNames.creationSitesAreRead, "creation sites are not read on this platform"))
    func aTaskIsNamedAfterItsCreatorAndWhereItWasCreated() throws {
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

    @Test(.enabled(if: TaskNames.areRead, "Task(name:) names are not read on this platform"))
    func aTaskMadeWithANameIsNamedByIt() throws {
        #expect(created("named", seed: 1) == ["task", "writer", "reader"])
        let extra = created("named-extra", seed: 1)
        #expect(extra.count == 4 && extra[0] == "task" && extra[2...] == ["writer", "reader"], "\(extra)")
        #expect(extra[1] == (TaskNames.creationSitesAreRead ? created("extra-same-job", seed: 1)[1] : "task@2.1"))
    }

    /// A name given with `Task(name:)` that another task has, or that a task made later would be
    /// named (the writer's), takes a `#k`: two tasks never share a lane.
    @Test(.enabled(if: TaskNames.areRead, "Task(name:) names are not read on this platform"))
    func givenNamesNeverShareALane() throws {
        let writer = TaskNames.creationSitesAreRead ? created("buggy", seed: 1)[1] : "task@7.1"
        claimedName.withLock { $0 = writer }
        defer { claimedName.withLock { $0 = "task@7.1" } }
        let names = created("clashing-names", seed: 1)
        let unnamed = TaskNames.creationSitesAreRead ? created("buggy", seed: 1)[2] : "task@7.2"
        #expect(names == ["task", "task#1", "w", "w#2", "w#2#2", writer, writer + "#2", unnamed], "\(names)")
        #expect(Set(names).count == names.count)
    }

    /// Records `recorded` (a failing seed of random), replays the trace on `variant`: the engine's report.
    private func replay(recorded: String, on variant: String) throws -> ReplayReport {
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
        return try TraceReplay.decide(ReplayRequest(trace: path, variant: variant), catalog: ScenarioCatalog([taskRace]))
    }

    /// The schedule was followed whole on the other variant, and the recorded failure happened.
    private func followedWhole(_ report: ReplayReport) {
        guard case .fail(let verdict, _) = report.verdict else {
            Issue.record("not a failure: \(report.verdict)")
            return
        }
        #expect(verdict.oracle == "read-after-write", "\(verdict)")
        // Every non-fifo decision of the recording was followed: none missing, nothing inconclusive.
        #expect(report.tally.deviations > 0 && report.tally.isConclusive, "\(report.tally.line)")
    }

    /// The racing tasks named with `Task(name:)`: an unrelated `Task {}` made first in the same job
    /// renames neither, so the recorded schedule is followed whole.
    @Test(.enabled(if: TaskNames.areRead, "Task(name:) names are not read on this platform"))
    func aTraceOfNamedTasksReplayedWithAnUnrelatedTaskAddedInTheSameJobFollowsEveryDecision() throws {
        followedWhole(try replay(recorded: "named", on: "named-extra"))
    }

    /// Unnamed tasks are named by where they were made: an unrelated one made first in the same job
    /// renames none of the racing ones, so the recorded schedule is followed whole. Where creation
    /// sites are not read, they are numbered in creation order and replay says it could not follow the
    /// schedule (exit 2), never a pass.
    @Test(.enabled(if: TaskNames.creationSitesAreRead, "creation sites are not read on this platform"))
    func aTraceReplayedWithAnUnrelatedTaskAddedInTheSameJobFollowsEveryDecision() throws {
        followedWhole(try replay(recorded: "buggy", on: "extra-same-job"))
    }

    @Test(.enabled(if: !TaskNames.creationSitesAreRead, "creation sites are read here: the test above applies"))
    func withoutCreationSitesAnUnrelatedTaskInTheSameJobIsNeverAPass() throws {
        let report = try replay(recorded: "buggy", on: "extra-same-job")
        switch report.verdict {
        case .fail, .inconclusive: break
        default: Issue.record("neither the failure nor inconclusive: \(report.verdict)")
        }
    }

    /// A task's name is the same in the `simrun` executable and in this test process (the closure's
    /// symbol, never an address): a trace `simrun` recorded replays here event for event, actor calls
    /// and their methods included.
    @Test func aTraceRecordedBySimrunReplaysIdenticallyInTheTestProcess() throws {
        let directory = try makeTemporaryDirectory("identity-process")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("cache.simtrace").path
        let plan = RunPlan.probed(
            scenario: ActorReentrancyCache.scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try IsolatedRecording(plan: try plan.descriptor(), launcher: SimrunChildren.launcher)
            .record(seed: 1, to: path)
        #expect(recorded.verdict.isFailure && !recorded.crashed, "\(recorded.verdict)")
        // Identical: the same events, the same failure as recorded.
        let report = try TraceReplay.decide(
            ReplayRequest(trace: path), catalog: ScenarioCatalog([ActorReentrancyCache.scenario]))
        #expect(report.verdict == .identical, "\(report.verdict)")
        if TaskNames.creationSitesAreRead {
            let file = try TraceFile.load(path: path)
            let created = file.events.filter { file.text($0.kind) == "task.create" }.map { file.text($0.subject) }
            #expect(created.contains("task>ActorReentrancyCache.scenario{1}{3}.1"), "\(created)")
        }
    }

    @Test(arguments: ["extra", "extra-elsewhere"])
    func aTraceReplayedWithAnUnrelatedTaskAddedFollowsEveryDecision(_ variant: String) throws {
        followedWhole(try replay(recorded: "buggy", on: variant))
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

    /// The method of an actor a resume function belongs to, as a person names it.
    @Test func aMethodIsNamedOnlyForTheActorThatRunsIt() {
        #expect(ActorMethod.method(of: "ProfileCache", in: "ProfileCache.profile(_:)") == "profile(_:)")
        #expect(ActorMethod.method(of: "ProfileCache", in: "App.ProfileCache.load(id:)") == "load(id:)")
        #expect(ActorMethod.method(of: "ProfileCache", in: "ProfileBackend.fetch(_:)") == nil)
        #expect(ActorMethod.method(of: "ProfileCache", in: "closure #1 in ProfileCache.profile(_:)") == nil)
    }
}
