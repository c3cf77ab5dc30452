import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// A finding is never lost nor mixed up with another: campaigns saving into one directory at the
/// same time (two shards of one campaign here) each keep their own trace under its own name, and
/// leave no claim or temporary file behind. Across processes and through `merge`: SimRunKitTests'
/// `FuzzFindingsCommandTests`.
@Suite struct FindingCampaignSharedDirectoryTests {
    @Test func twoCampaignsRunningAtOnceIntoOneDirectoryEachKeepTheirTrace() throws {
        let directory = try makeTemporaryDirectory("concurrent-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(scenario: LostInputNavigation.scenario, variant: "buggy", strategy: .campaignDefault)
        let results = ValueBox<[Int: FindingCampaign.Result]>([:])
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 2) { shard in
            let result = try? FindingCampaign(
                plan: plan, configuration: .init(seeds: 0..<2000, jobs: 1, shard: (shard, 2)),
                options: .init(directory: directory.path, shrink: true, isolation: .inProcess)
            ).run()
            lock.withLock { results.value[shard] = result }
        }
        let paths = try (0..<2).map { shard in
            try #require(results.value[shard]?.findings.first?.path, "shard \(shard + 1) found nothing")
        }
        #expect(Set(paths).count == 2, "two traces, two names: \(paths)")
        for (shard, path) in paths.enumerated() {
            let seed = try #require(results.value[shard]?.findings.first?.seed)
            // Each trace is the finding of the campaign that names it.
            #expect(try TraceInput(path: path).header.seed == seed, "\(path)")
            #expect(seed % 2 == UInt64(shard), "shard \(shard + 1) of 2 ran seed \(seed)")
        }
        let left = try BuiltinCampaigns.files(in: directory)
        #expect(left.count == 2 && left.allSatisfy { $0.hasSuffix(".simtrace") }, "no claim or temporary file left: \(left)")
    }
}
