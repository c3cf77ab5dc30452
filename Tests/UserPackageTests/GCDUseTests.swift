import Dispatch
import Foundation
import SimCapture
import SimCore
import SimTestSupport
import SimTesting
import Testing

/// Linux must run GCD under the scheduler (a broken link fails the test, never skips it); elsewhere
/// the test runs only if the platform reports GCD captured.
let gcdUseExpected = TestPlatform.isLinux || DispatchCapturing.isActive

/// A user's GCD code explored from a test with SimCore's public API only (issue #31): a cache filled
/// by two loads on a concurrent queue that hop back to main; the late one wins unless it checks.
@Suite(.enabled(if: gcdUseExpected, "GCD runs under the scheduler on Linux only for now"))
struct GCDUseTests {
    final class Cache: @unchecked Sendable {
        var version = 0
        var stored = 0
    }

    static let scenario = Scenario(
        name: "gcd-cache", summary: "a stale load overwrites a newer one",
        variants: [.init("buggy", "stores every load"), .init("fixed", "stores only newer loads")]
    ) { simulation, variant in
        guard DispatchCapturing.requireActive(simulation) else { return }
        let cache = Cache()
        let loads = DispatchQueue(label: "loads", attributes: .concurrent)
        for _ in 0..<2 {
            DispatchQueue.main.async {
                cache.version += 1
                let version = cache.version
                loads.async {
                    DispatchQueue.main.async {
                        if variant == "fixed" && version < cache.stored { return }
                        cache.stored = version
                    }
                }
            }
        }
        simulation.atEnd("newest-stored") { cache.stored == 2 ? nil : "the cache holds load \(cache.stored) of 2" }
    }

    @Test func theBugIsFoundAndTheFixIsClean() throws {
        try #require(DispatchCapturing.isActive)
        let directory = try makeTemporaryDirectory("gcd-use")
        defer { try? FileManager.default.removeItem(at: directory) }
        let calls = DispatchCapturing.capturedCalls
        var buggy: Exploration?
        withKnownIssue {
            buggy = explore(
                Self.scenario, variant: "buggy", strategy: "random", seeds: 0..<50, failureDirectory: directory.path)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("newest-stored")
        }
        let failure = try #require(buggy?.failure)
        #expect(failure.verdict.oracle == "newest-stored")
        #expect(FileManager.default.fileExists(atPath: failure.tracePath))
        let fixed = explore(
            Self.scenario, variant: "fixed", strategy: "random", seeds: 0..<200, failureDirectory: directory.path)
        #expect(fixed.failure == nil)
        #expect(DispatchCapturing.capturedCalls > calls)
    }
}
