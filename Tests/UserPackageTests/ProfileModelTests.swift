import Foundation
import SimCore
import SimTestSupport
import SimTesting
import Synchronization
import Testing

// article:begin
/// A profile screen's model, as an app has it: selecting a profile starts a load in a `Task {}`, and
/// the screen shows what the load returns.
@MainActor final class ProfileModel {
    private(set) var selected: Int?
    private(set) var shown: Profile?
    private var loading: Task<Void, Never>?
    private let service: ProfileService
    private let dropsStaleLoads: Bool

    init(service: ProfileService, dropsStaleLoads: Bool) {
        self.service = service
        self.dropsStaleLoads = dropsStaleLoads
    }

    func select(_ id: Int) {
        selected = id
        loading = Task {
            let profile = await service.load(id)
            // The bug: without this line an older load that lands last overwrites the newer selection.
            if dropsStaleLoads && selected != id { return }
            shown = profile
        }
    }
}

struct Profile: Sendable, Equatable {
    let id: Int
    let name: String
}

/// The network, as an actor: every load takes 100 ms.
actor ProfileService {
    private(set) var finished: [Int] = []

    func load(_ id: Int) async -> Profile {
        try? await Task.sleep(for: .milliseconds(100))
        finished.append(id)
        return Profile(id: id, name: "Profile \(id)")
    }
}

/// The test's body: select one profile, then another, let the loads finish, check the screen.
@MainActor func selectTwoProfiles(_ sim: Simulation, dropsStaleLoads: Bool) async {
    sim.sometimes("the-older-load-finished-last")
    let service = ProfileService()
    let model = ProfileModel(service: service, dropsStaleLoads: dropsStaleLoads)
    model.select(1)
    model.select(2)
    await sim.settle()
    if await service.finished == [2, 1] { sim.reach("the-older-load-finished-last") }
    sim.check(
        "shows-the-latest-selection", model.shown?.id == model.selected,
        "selected \(model.selected ?? 0), shows \(model.shown?.name ?? "nothing")")
}

@Test func theLatestSelectionWins() async {
    await simulate(seeds: 0..<500) { @MainActor sim in
        await selectTwoProfiles(sim, dropsStaleLoads: true)
    }
}
// article:end

/// Issue #21's "done when": a user's `@MainActor` view model with `Task {}`, an actor and
/// `Task.sleep`, explored from `swift test` in this process (SimCore + SimTesting only).
@Suite struct ProfileModelTests {
    @Test func theStaleLoadIsOneIssueNamingTheOracleWithTheTrace() async throws {
        let directory = try makeTemporaryDirectory("profile-buggy").path
        let issues = IssueCount()
        var exploration: Exploration?
        await withKnownIssue {
            exploration = await simulate(seeds: 0..<200, failureDirectory: directory) { @MainActor sim in
                await selectTwoProfiles(sim, dropsStaleLoads: false)
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
                await selectTwoProfiles(sim, dropsStaleLoads: false)
            }
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("shows-the-latest-selection")
        }
        #expect(rerun?.schedules == 1)
        #expect(rerun?.failure?.seed == failure.seed)
        #expect(rerun?.failure?.verdict == failure.verdict)
    }

    @Test func theFixedModelPasses500SeedsWithNoEscape() async {
        let exploration = await simulate(seeds: 0..<500) { @MainActor sim in
            await selectTwoProfiles(sim, dropsStaleLoads: true)
        }
        #expect(exploration.failure == nil)
        #expect(exploration.schedules == 500)
        #expect(exploration.route == .executorFactory)
        // The interleaving the fix is for was explored, not avoided.
        let goal = exploration.goals.first { $0.name == "the-older-load-finished-last" }
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
                ) { @MainActor sim in await selectTwoProfiles(sim, dropsStaleLoads: fixed) }
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

    @Test func theArticleShowsThisFilesCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/SimTesting/SimTesting.docc/TestingAViewModel.md"),
            encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try #require(source.range(of: "// article:begin\n"))
        let end = try #require(source.range(of: "// article:end"))
        #expect(article.contains(String(source[begin.upperBound..<end.lowerBound])))
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
