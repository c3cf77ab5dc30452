import Foundation
import SimCapture
import SimCore
import SimEngine
import SimTestSupport
import SimTesting
import Testing

/// Entering an actor is a choice (issue #40). The shape of swift-server/swift-service-lifecycle#248:
/// a test starts `Task { await group.run() }` and then calls `await group.triggerGracefulShutdown()`.
/// On real threads either call can reach the idle actor first; on one thread the body's call takes
/// the actor within its own job, so every schedule took the same order. Now that moment is a pick:
/// both orders run, and `explain` names the entry.
@Suite struct ActorEntryTests {
    /// A small service group (not service-lifecycle's): `run` starts its one service, which runs
    /// until a graceful shutdown and then cleans up. `buggy` drops a shutdown requested before
    /// `run` (it finishes the group at once, as #248 describes); `fixed` remembers it (#250).
    actor ServiceGroup {
        enum State { case initial, running, finished }
        private(set) var state = State.initial
        private(set) var cleanedUp = false
        private(set) var ranFirst: String?
        private var shutdownRequested = false
        private var stop: CheckedContinuation<Void, Never>?
        let remembersEarlyShutdown: Bool

        init(remembersEarlyShutdown: Bool) { self.remembersEarlyShutdown = remembersEarlyShutdown }

        func run() async {
            ranFirst = ranFirst ?? "run"
            guard state == .initial else { return }  // #248: run() after an early shutdown does nothing
            state = .running
            if !shutdownRequested { await withCheckedContinuation { stop = $0 } }
            cleanedUp = true  // the service's "release a resource after gracefulShutdown()"
            state = .finished
        }

        func triggerGracefulShutdown() {
            ranFirst = ranFirst ?? "shutdown"
            switch state {
            case .initial:
                if remembersEarlyShutdown { shutdownRequested = true } else { state = .finished }
            case .running:
                stop?.resume()
                stop = nil
            case .finished:
                break
            }
        }
    }

    static let scenario = Scenario.async(
        name: "service-group-shutdown", summary: "a graceful shutdown before run() drops the whole run",
        variants: [
            .init("buggy", "an early shutdown finishes the group: run() does nothing"),
            .init("fixed", "an early shutdown is remembered and delivered once run() starts"),
        ]
    ) { simulation, variant in
        let group = ServiceGroup(remembersEarlyShutdown: variant == "fixed")
        let running = Task { await group.run() }
        await group.triggerGracefulShutdown()
        await running.value
        let cleanedUp = await group.cleanedUp
        let first = await group.ranFirst
        simulation.sometimes("run() reached the group first") { first == "run" }
        simulation.sometimes("the shutdown reached the group first") { first == "shutdown" }
        simulation.atEnd("service-cleaned-up") {
            cleanedUp ? nil : "the service never ran, so it never cleaned up (the shutdown came before run())"
        }
    }

    @Test func bothOrdersAreExploredTheBugIsFoundAndTheFixIsClean() throws {
        try #require(ActorEntry.isInterposed, "swift_task_switch is interposed on Linux")
        let directory = try makeTemporaryDirectory("service-group")
        defer { try? FileManager.default.removeItem(at: directory) }
        var buggy: Exploration?
        withKnownIssue {
            buggy = explore(Self.scenario, strategy: "dfs", seeds: 0..<1_000, failureDirectory: directory.path)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("service-cleaned-up")
        }
        #expect(buggy?.failure != nil)
        let fixed = explore(
            Self.scenario, variant: "fixed", strategy: "dfs", seeds: 0..<1_000, failureDirectory: directory.path)
        #expect(fixed.failure == nil && fixed.exhausted)
        #expect(fixed.distinctSchedules > 1, "\(fixed.distinctSchedules) distinct schedules")
        for goal in fixed.goals { #expect(goal.runs > 0, "\(goal.name) in none of \(fixed.schedules) schedules") }
        let pct = explore(Self.scenario, variant: "fixed", seeds: 0..<500, failureDirectory: directory.path)
        #expect(pct.failure == nil)
        for goal in pct.goals { #expect(goal.runs > 0, "pct: \(goal.name) in none of \(pct.schedules) schedules") }
    }

    /// The entry is a recorded pick: `fifo` keeps the order simrun always gave (the body's call
    /// enters first), and `explain` names that pick as the decision after which the failure is certain.
    @Test func explainNamesTheEntry() throws {
        try #require(ActorEntry.isInterposed)
        let directory = try makeTemporaryDirectory("service-group-explain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(scenario: Self.scenario, variant: "buggy", strategy: .plainOrder)
        let path = directory.appendingPathComponent("fifo.simtrace").path
        let result = try Recorder.record(
            plan: plan, seed: 0, strategy: FIFOStrategy(), strategyName: "fifo", to: path)
        #expect(result.verdict.oracle == "service-cleaned-up", "\(result.verdict)")
        let entry = try #require(result.tape.decisions.first { result.tape.text($0.label) == "enter ServiceGroup" })
        #expect(result.tape.text(entry.lane) == "task" && !entry.isDeviation)
        let explanation = Explainer(
            plan: plan, input: try TraceInput(path: path), target: FailureSignature(result.verdict), runs: 40, jobs: 1
        ).explain()
        #expect(explanation.baseline < 40, "without the entry kept, some runs let run() in first")
        let decisive = try #require(explanation.decisive.map { explanation.rows[$0] })
        #expect(decisive.took.contains("enter ServiceGroup"), "\(decisive.took)")
    }

    /// With lock preemption the entering carrier pauses instead, and both orders still run.
    @Test func onCarriersTheEntryIsAPauseAndBothOrdersRun() throws {
        try #require(ActorEntry.isInterposed)
        let directory = try makeTemporaryDirectory("service-group-carriers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixed = explore(
            Self.scenario, variant: "fixed", strategy: "random", seeds: 0..<200, failureDirectory: directory.path,
            carriers: .preemptLocks)
        #expect(fixed.failure == nil)
        for goal in fixed.goals { #expect(goal.runs > 0, "\(goal.name) in none of \(fixed.schedules) schedules") }
    }
}
