import Foundation
import SimTestSupport
import Testing

/// A scenario that never goes quiet ends with the step-limit or time-limit verdict and its trace,
/// never a hang; `fuzz --time` is respected.
@Suite(.serialized) struct RunLimitTests {
    @Test(arguments: [("spinning", "step-limit"), ("ticking", "time-limit")])
    func aRunThatNeverQuiescesEndsAtItsLimitWithATrace(variant: String, oracle: String) throws {
        let directory = try makeTemporaryDirectory("limits")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try SimrunProcess.run(["run", "unruly-counter", "--variant", variant], in: directory, timeout: 30)
        #expect(run.status == 1)
        #expect(run.stdout.contains(oracle), "\(run.stdout)")
        let trace = run.stdout.split(separator: "\n").first { $0.hasPrefix("trace: ") }.map { $0.dropFirst(7) }
        #expect(trace != nil)
        if let trace {
            let show = try SimrunProcess.run(["show", String(trace), "--limit", "5"], in: directory)
            #expect(show.status == 0 && show.stdout.contains(oracle), "\(show.stdout)")
        }
    }

    /// `--time` ends a campaign whose seeds never run out, and not before its time: the summary's
    /// duration is at least the time asked for. Nothing here depends on how fast the machine is
    /// (the timeout only guards against a hang: `--time 1` with no deadline would run for ever).
    @Test func fuzzTimeEndsACampaignWithoutASeedLimit() throws {
        let directory = try makeTemporaryDirectory("time")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            ["fuzz", "counter-race", "--variant", "fixed", "--time", "1"], in: directory, timeout: 300)
        #expect(fuzz.status == 0, "\(fuzz.stderr)")
        let summary = fuzz.stdout.split(separator: "\n").first { $0.hasPrefix("summary: ") }
        let seconds = summary.flatMap { line in
            line.split(separator: " ").first { $0.hasSuffix("s") && Double($0.dropLast()) != nil }
                .flatMap { Double($0.dropLast()) }
        }
        #expect((seconds ?? 0) >= 1, "ran until its deadline: \(fuzz.stdout)")
    }
}
