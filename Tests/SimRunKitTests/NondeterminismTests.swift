import Foundation
import SimTestSupport
import Testing

/// A run that does not replay identically is caught, with its first divergent event: by fuzz before
/// a failure is reported, and by `run --check-determinism` across two processes.
@Suite(.serialized) struct NondeterminismTests {
    @Test func fuzzReportsAWallClockModelAsNondeterministic() throws {
        let directory = try makeTemporaryDirectory("nondet")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            ["fuzz", "unruly-counter", "--variant", "wall-clock", "--seeds", "0..<20", "--no-show"], in: directory)
        #expect(fuzz.status == 1)
        #expect(fuzz.stdout.contains("NONDETERMINISTIC"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("first divergent event: #"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("clock.read"), "the divergent event is shown: \(fuzz.stdout)")
    }

    @Test func checkDeterminismComparesTwoProcesses() throws {
        let clean = try SimrunProcess.run(["run", "counter-race", "--seed", "4", "--check-determinism"])
        #expect(clean.status == 0 && clean.stdout.contains("deterministic"), "\(clean.stdout)")
        let clock = try SimrunProcess.run(
            ["run", "unruly-counter", "--variant", "wall-clock", "--seed", "4", "--check-determinism"])
        #expect(clock.status == 1 && clock.stdout.contains("first divergent event: #"), "\(clock.stdout)")
    }

    @Test func checkDeterminismCatchesSetOrderAcrossProcesses() throws {
        // Set order follows a per-process hash seed: some pairs of processes agree by chance.
        var caught = false
        for _ in 0..<8 where !caught {
            let run = try SimrunProcess.run(
                ["run", "unruly-counter", "--variant", "set-order", "--seed", "1", "--check-determinism"])
            #expect(run.status == 0 || run.status == 1)
            caught = run.status == 1 && run.stdout.contains("first divergent event: #")
        }
        #expect(caught, "eight pairs of processes never differed in Set order")
    }
}
