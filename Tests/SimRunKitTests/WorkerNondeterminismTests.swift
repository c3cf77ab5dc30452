import Foundation
import SimTestSupport
import Testing

/// fuzz re-runs each failure's seed in the supervising process and compares it with the worker's
/// run: a model whose runs depend on the process (here an order drawn from the process id, stable
/// within one process) is named as nondeterministic, never reported as a plain failure.
@Suite(.serialized) struct WorkerNondeterminismTests {
    @Test func aSeedThatRanDifferentlyInItsWorkerIsSaid() throws {
        // Two processes agree on the order drawn from their ids by chance now and then: try a few
        // campaigns; each one whose worker and supervisor disagreed must say so.
        var said = false
        for _ in 0..<8 where !said {
            let directory = try makeTemporaryDirectory("worker-nondet")
            defer { try? FileManager.default.removeItem(at: directory) }
            let fuzz = try SimrunProcess.run(
                [
                    "fuzz", "unruly-counter", "--variant", "process-order", "--seeds", "0..<20", "--jobs", "2",
                    "--no-show", "--no-shrink", "--out", directory.appendingPathComponent("found").path,
                ], in: directory)
            #expect(fuzz.status == 1, "\(fuzz.stdout)\n\(fuzz.stderr)")
            // The supervisor's re-run disagreed with the worker: both verdicts are named.
            said =
                fuzz.stdout.contains("ran differently in two processes") && fuzz.stdout.contains("worker process:")
        }
        #expect(said, "eight campaigns never flagged a seed whose run differed between worker and supervisor")
    }
}
