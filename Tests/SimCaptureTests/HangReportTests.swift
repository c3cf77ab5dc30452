import Foundation
import SimTestSupport
import Testing

@testable import SimCapture
@testable import SimCore

/// A hang names who is stuck (issue #30): every Swift task of the run still suspended, with its
/// identity, the job that created it, what it waits on and the async functions it waits in; tasks
/// that finished are not listed. These tests also pin down the runtime's task layout that
/// CSimInterpose/task_state.c reads, so a toolchain that moves it fails here.
@Suite struct HangReportTests {
    final class Parked: @unchecked Sendable {
        var continuations: [CheckedContinuation<Int, Never>] = []
    }

    struct ProfileLoader {
        func load(id: Int, into parked: Parked) async -> Int {
            await withCheckedContinuation { parked.continuations.append($0) }
        }

        func profile(id: Int, into parked: Parked) async -> Int { await load(id: id, into: parked) + 1 }
    }

    /// The body waits on a task group whose child waits on the task `loader`, which waits on a
    /// continuation nobody resumes; the unnamed `Task { 1 }` finishes and must not be listed.
    static let stuck = Scenario.async(name: "stuck", summary: "", variants: [.init("default", "")]) { _, _ in
        let parked = Parked()
        let loader = Task(name: "loader") { await ProfileLoader().profile(id: 7, into: parked) }
        let finished = Task { 1 }
        _ = await finished.value
        await withTaskGroup(of: Int.self) { group in
            group.addTask { await loader.value }
            _ = await group.next()
        }
    }

    @Test func aHangListsEveryTaskStillSuspendedWithWhatItWaitsOnAndWhere() throws {
        let result = Self.stuck.run(variant: "default", seed: 0, strategy: FIFOStrategy())
        guard case .fail(let oracle, let message) = result.verdict else {
            Issue.record("expected a hang, got \(result.verdict)")
            return
        }
        #expect(oracle == "stays-in-simulation")
        #expect(message.hasPrefix("the scenario's body is suspended"), "\(message)")
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            #expect(message.contains("; suspended tasks (3): "), "\(message)")
            #expect(
                message.contains("task (created by the scenario; waiting on a task group; in closure #3 in closure #1 in HangReportTests.stuck"),
                "\(message)")
            #expect(
                message.contains(
                    "loader (created by job task; waiting on a continuation; in HangReportTests.ProfileLoader.load(id:into:) ← "
                        + "HangReportTests.ProfileLoader.profile(id:into:) ← closure #1 in closure #1 in HangReportTests.stuck)"),
                "\(message)")
            // The group's child is named by its creator and the closure it runs (or, where creation sites
            // are not read, by the job that made it).
            let child = TaskNames.creationSitesAreRead ? "task>HangReportTests.stuck{1}{3}{1}.1" : "task@2.1"
            #expect(
                message.contains("\(child) (created by job task@2; waiting on task loader; in closure #1 in closure #3 in "),
                "\(message)")
            let finished = TaskNames.creationSitesAreRead ? "task>HangReportTests.stuck{1}{2}.1" : "task.1"
            #expect(!message.contains("\(finished) "), "a finished task is not listed: \(message)")
            // Creation order: the body, loader, then the group's child.
            let body = try #require(message.range(of: "task (created by the scenario"))
            let loader = try #require(message.range(of: "loader (created by"))
            let childAt = try #require(message.range(of: "\(child) (created by"))
            #expect(body.lowerBound < loader.lowerBound && loader.lowerBound < childAt.lowerBound)
        #else
            #expect(message.contains("suspended tasks: not visible here"), "\(message)")
        #endif
        // The same listing every time: names and functions, never addresses.
        let again = Self.stuck.run(variant: "default", seed: 0, strategy: FIFOStrategy())
        #expect(again.verdict == result.verdict)
        #expect(again.digest == result.digest)
    }

    @Test func aSpawnedTaskLeftPendingIsNamedWithItsFunction() {
        let parked = Parked()
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        simulation.spawn("waiter") { _ = await ProfileLoader().load(id: 1, into: parked) }
        simulation.spawn("done") {}
        let result = simulation.run()
        guard case .pending(let message) = result.verdict else {
            Issue.record("expected pending work, got \(result.verdict)")
            return
        }
        #expect(message.hasPrefix("work still pending at the end: 1 task(s) still suspended: waiter"), "\(message)")
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            #expect(
                message.hasSuffix(
                    "; suspended tasks (1): waiter (created by simulation.spawn; waiting on a continuation; in "
                        + "HangReportTests.ProfileLoader.load(id:into:) ← closure #1 in HangReportTests.aSpawnedTaskLeftPendingIsNamedWithItsFunction())"),
                "\(message)")
        #endif
    }

    static func waitForASignalNobodySends() {
        let condition = NSCondition()
        condition.lock()
        condition.wait()
        condition.unlock()
    }

    /// On carriers a task blocked inside a job (an `NSCondition` nobody signals) is a deadlock: the
    /// blocked lane names the function that waits, the task is listed as running, and the body as
    /// waiting on it.
    @Test func aTaskBlockedInsideAJobIsListedAsRunning() throws {
        try #require(Carriers.locksInterposed, "lock interposition is Linux-only")
        let scenario = Scenario.async(name: "blocked", summary: "", variants: [.init("default", "")]) { _, _ in
            let waiter = Task { HangReportTests.waitForASignalNobodySends() }
            await waiter.value
        }.running(on: .preemptLocks)
        let result = scenario.run(variant: "default", seed: 0, strategy: FIFOStrategy())
        guard case .deadlock(let message) = result.verdict else {
            Issue.record("expected a deadlock, got \(result.verdict)")
            return
        }
        let waiter =
            TaskNames.creationSitesAreRead ? "task>HangReportTests.aTaskBlockedInsideAJobIsListedAsRunning(){1}{1}.1" : "task.1"
        #expect(
            message.hasPrefix(
                "every lane blocked: \(waiter) waits for condition C1 to be signalled, in "
                    + "HangReportTests.waitForASignalNobodySends()"),
            "\(message)")
        #expect(
            message.contains(
                "; suspended tasks (2): task (created by the scenario; waiting on task \(waiter); in closure #1 in "),
            "\(message)")
        #expect(
            message.hasSuffix(
                "\(waiter) (created by job task; running: blocked inside a job; in: not visible (the runtime keeps no async "
                    + "frames for a task while it runs or is queued))"),
            "\(message)")
    }

    /// Frames are the program's own by the module a mangled symbol names; the standard library's
    /// substitutions and C symbols are not.
    @Test func aFramesModuleIsReadFromItsMangledName() {
        #expect(TaskCensus.module(ofMangled: "$s12SimScenarios13ProfileLoaderV4load2idSiSi_tYaF") == "SimScenarios")
        #expect(TaskCensus.module(ofMangled: "_$s7SimCore10SimulationC3runAA9RunResultVyF") == "SimCore")
        #expect(TaskCensus.module(ofMangled: "$ss23withCheckedContinuation") == "Swift")
        #expect(TaskCensus.module(ofMangled: "$sScT5sleep3fory") == "Swift")
        #expect(TaskCensus.module(ofMangled: "swift_task_create") == nil)
        #expect(TaskCensus.module(ofMangled: "$s99Short") == nil)
    }

    @Test func aRunThatDoesNotHangIsNotChangedByTheCensus() {
        let scenario = Scenario.async(name: "fine", summary: "", variants: [.init("default", "")]) { _, _ in
            let first = Task { 1 }
            let second = Task { await first.value + 1 }
            _ = await second.value
        }
        let result = scenario.run(variant: "default", seed: 0, strategy: FIFOStrategy())
        #expect(result.verdict == .pass, "\(result.verdict)")
    }

    @Test(.enabled(if: TestPlatform.readsTaskLayout, "the census reads the runtime's task layout on Linux x86_64/arm64 only"))
    func theCensusReadsTheRuntimesTaskLayout() async throws {
        let census = TaskCensus()
        let parked = Parked()
        let waiting = Task { await ProfileLoader().load(id: 2, into: parked) }
        let done = Task { 3 }
        _ = await done.value
        while parked.continuations.isEmpty { await Task.yield() }
        census.track(unsafeBitCast(waiting, to: UnsafeRawPointer.self), name: "waiting", createdBy: "test")
        census.track(unsafeBitCast(done, to: UnsafeRawPointer.self), name: "done", createdBy: "test")
        // Give the finished task's completion time to land (it ran on the platform's executor).
        for _ in 0..<100 where census.live.count > 1 {
            census.sweep()
            try await Task.sleep(for: .milliseconds(5))
        }
        let left = census.suspended()
        #expect(left.map(\.name) == ["waiting"])
        #expect(left.first?.state == "waiting on a continuation")
        #expect(left.first?.frames?.first == "HangReportTests.ProfileLoader.load(id:into:)", "\(String(describing: left.first))")
        parked.continuations.removeFirst().resume(returning: 0)
        _ = await waiting.value
        census.sweep()
        #expect(census.live.isEmpty)
    }
}
