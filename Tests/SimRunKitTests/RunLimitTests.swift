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

    @Test func fuzzTimeIsRespected() throws {
        let directory = try makeTemporaryDirectory("time")
        defer { try? FileManager.default.removeItem(at: directory) }
        let start = Date()
        let fuzz = try SimrunProcess.run(
            ["fuzz", "counter-race", "--variant", "fixed", "--time", "2"], in: directory, timeout: 30)
        let elapsed = Date().timeIntervalSince(start)
        #expect(fuzz.status == 0 && fuzz.stdout.contains("summary: "))
        // Two seconds of fuzzing, plus process start-up and the probe runs of parent and workers.
        #expect(elapsed < 3.5, "fuzz --time 2 took \(elapsed) s")
    }
}
