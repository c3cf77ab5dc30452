import Foundation
import SimCore
import SimTestSupport
import SimTesting
import Synchronization
import Testing


/// Issue #21's "done when": a user's `@MainActor` view model with `Task {}`, an actor and
/// `Task.sleep`, explored from `swift test` in this process (SimCore + SimTesting only).
@Suite struct ProfileModelTests {
    @Test func theStaleLoadIsOneIssueNamingTheOracleWithTheTrace() async throws {
        let directory = try makeTemporaryDirectory("profile-buggy").path
        let issues = IssueCount()
        var exploration: Exploration?
        await withKnownIssue {
            exploration = await simulate(seeds: 0..<200, failureDirectory: directory) { @MainActor sim in
                await selectTwoProfiles(sim, staleLoads: .shown)
            }
        } matching: { issue in
            issues.add()
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("shows-the-latest-selection") && text.contains("failed at seed")
                && text.contains("SIMRUN_SEED=")
        }
        #expect(issues.value == 1, "one issue, not \(issues.value)")
        let found = try #require(exploration)
        #expect(found.route == .executorFactory, "\(found.routeNote ?? "")")
        let failure = try #require(found.failure)
        #expect(failure.verdict.oracle == "shows-the-latest-selection")
        #expect(failure.tracePath.hasPrefix(directory) && failure.tracePath.hasSuffix(".simtrace"))
        #expect(FileManager.default.fileExists(atPath: failure.tracePath))

        // `seed:` reruns exactly that schedule: the same failure, at that seed, alone.
        var rerun: Exploration?
        await withKnownIssue {
            rerun = await simulate(seed: failure.seed, failureDirectory: directory) { @MainActor sim in
                await selectTwoProfiles(sim, staleLoads: .shown)
            }
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("shows-the-latest-selection")
        }
        #expect(rerun?.schedules == 1)
        #expect(rerun?.failure?.seed == failure.seed)
        #expect(rerun?.failure?.verdict == failure.verdict)
    }

    /// TestingAViewModel.md's "When it fails" block is the issue `theLatestSelectionWins` records on
    /// the buggy model, line for line (the failure directory's path shown as `…/`), and its trace
    /// line says what shrinking reduced — departures from fifo — never a total that reads as growth
    /// (report 2026-11-28, F8: "decisions 6 → 8").
    @Test func theArticlesFailureIsTheIssueRecorded() async throws {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SimTesting/SimTesting.docc/TestingAViewModel.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let after = try #require(text.range(of: "With `staleLoads: .shown` the same test fails"))
        let open = try #require(text.range(of: "```\n", range: after.upperBound..<text.endIndex))
        let close = try #require(text.range(of: "\n```", range: open.upperBound..<text.endIndex))
        let shown = String(text[open.upperBound..<close.lowerBound])

        let directory = try makeTemporaryDirectory("profile-article")
        let failures = directory.appendingPathComponent("simrun-failures").path
        let recorded = Mutex<[String]>([])
        await withKnownIssue {
            await simulate("theLatestSelectionWins()", seeds: 0..<500, failureDirectory: failures) {
                @MainActor sim in await selectTwoProfiles(sim, staleLoads: .shown)
            }
        } matching: { issue in
            recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        let issues = recorded.withLock { $0 }
        #expect(issues.count == 1, "\(issues)")
        let actual = (issues.first ?? "").replacingOccurrences(of: directory.path + "/", with: "…/")
        #expect(actual == shown, "the article shows:\n\(shown)\nthe test records:\n\(actual)")
        #expect(actual.contains("(shrunk: non-fifo decisions "), "\(actual)")
    }

    @Test func theFixedModelPasses500SeedsWithNoEscape() async {
        let exploration = await simulate(seeds: 0..<500) { @MainActor sim in
            await selectTwoProfiles(sim, staleLoads: .dropped)
        }
        #expect(exploration.failure == nil)
        #expect(exploration.schedules == 500)
        #expect(exploration.route == .executorFactory)
        // The race the fix is for was explored, not avoided.
        let goal = exploration.goals.first { $0.name == "both-loads-in-flight" }
        #expect((goal?.runs ?? 0) > 0, "\(exploration.goals)")
    }

    /// Explorations running at the same time in one process (as parallel tests do) find the same first
    /// failing seed as each alone, and a passing one stays passing.
    @Test func explorationsInParallelAgreeWithSerialOnes() async throws {
        let directory = try makeTemporaryDirectory("profile-parallel").path
        let strategies: [SimulationStrategy] = [.pct(), .random, .pos, .pct(depth: 2)]
        func explore(_ strategy: SimulationStrategy, fixed: Bool) async -> (UInt64?, Int) {
            var result: Exploration?
            await withKnownIssue(isIntermittent: true) {
                result = await simulate(
                    "parallel-\(strategy)-\(fixed)", seeds: 0..<60, strategy: strategy, failureDirectory: directory
                ) { @MainActor sim in await selectTwoProfiles(sim, staleLoads: fixed ? .dropped : .shown) }
            }
            return (result?.failure?.seed, result?.schedules ?? 0)
        }
        var serial: [String: (UInt64?, Int)] = [:]
        for strategy in strategies {
            serial["\(strategy)"] = await explore(strategy, fixed: false)
        }
        let fixedSerial = await explore(.random, fixed: true)
        let parallel = await withTaskGroup(of: (String, (UInt64?, Int)).self) { group in
            for strategy in strategies {
                group.addTask { ("\(strategy)", await explore(strategy, fixed: false)) }
            }
            group.addTask { ("fixed", await explore(.random, fixed: true)) }
            // Plain concurrency of no simulation, meanwhile: it runs on the platform's executors as usual.
            group.addTask {
                let counter = PlainCounter()
                await withTaskGroup(of: Void.self) { inner in
                    for _ in 0..<50 { inner.addTask { await counter.bump() } }
                }
                let onMain = await MainActor.run { 1 }
                try? await Task.sleep(for: .milliseconds(2))
                return ("plain", (nil, await counter.value + onMain))
            }
            var all: [String: (UInt64?, Int)] = [:]
            for await (key, value) in group { all[key] = value }
            return all
        }
        for strategy in strategies {
            let key = "\(strategy)"
            #expect(serial[key]?.0 != nil, "\(key) finds the bug alone")
            #expect(
                parallel[key]?.0 == serial[key]?.0,
                "\(key): parallel \(String(describing: parallel[key])) serial \(String(describing: serial[key]))")
            #expect(parallel[key]?.1 == serial[key]?.1)
        }
        #expect(fixedSerial.0 == nil && fixedSerial.1 == 60)
        #expect(parallel["fixed"]?.0 == nil && parallel["fixed"]?.1 == 60)
        #expect(
            parallel["plain"]?.1 == 51, "plain work beside the simulations: \(String(describing: parallel["plain"]))")
    }

    /// A body that blocks its thread (a real lock, a semaphore) never hangs the test: the watchdog
    /// reports it and the test goes on.
    @Test func aBlockedRunIsReportedByTheWatchdogNotWaitedFor() async {
        await withKnownIssue {
            await simulate(seeds: 0..<1, strategy: .fifo, watchdog: .milliseconds(200)) { _ in
                usleep(1_500_000)
            }
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("the runs did not finish within")
        }
    }

    @Test func aGoalNoScheduleReachedIsAnIssue() async {
        await withKnownIssue {
            await simulate(seeds: 0..<3, strategy: .fifo) { sim in
                sim.sometimes("never-reached")
                await Task.yield()
            }
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("\"never-reached\" was reached in none of 3")
        }
    }
}

/// An actor of no simulation.
actor PlainCounter {
    var value = 0
    func bump() async {
        let seen = value
        await Task.yield()
        value = max(value, seen) + 1
    }
}

/// Issues seen by a `withKnownIssue` matcher.
final class IssueCount: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
