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
        // The order follows the process id: some pairs of processes agree by chance.
        var caught = false
        for _ in 0..<8 where !caught {
            let run = try SimrunProcess.run(
                ["run", "unruly-counter", "--variant", "process-order", "--seed", "1", "--check-determinism"])
            #expect(run.status == 0 || run.status == 1)
            caught = run.status == 1 && run.stdout.contains("first divergent event: #")
        }
        #expect(caught, "eight pairs of processes never differed in process order")
    }
}

/// Swift's hash seed is pinned in every simrun process (issue #41): code that iterates a `Set` runs
/// the same way in the campaign's workers, its supervisor and any later process, so a finding in it
/// replays. The test process itself is started without the variable, as a user's shell would.
@Suite(.serialized) struct PinnedHashSeedTests {
    @Test func setOrderIsTheSameInEveryProcess() throws {
        #expect(ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil, "run unpinned")
        for _ in 0..<4 {
            let run = try SimrunProcess.run(
                ["run", "unruly-counter", "--variant", "set-order", "--seed", "1", "--check-determinism"])
            #expect(run.status == 0 && run.stdout.contains(": deterministic"), "\(run.stdout)\(run.stderr)")
        }
    }

    @Test func aCampaignOverSetOrderNeverCallsItsSeedsNondeterministic() throws {
        for _ in 0..<3 {
            let directory = try makeTemporaryDirectory("pinned-hash")
            defer { try? FileManager.default.removeItem(at: directory) }
            let fuzz = try SimrunProcess.run(
                [
                    "fuzz", "unruly-counter", "--variant", "set-order", "--seeds", "0..<20", "--jobs", "2",
                    "--no-show", "--no-shrink", "--keep-going", "--out", directory.appendingPathComponent("found").path,
                ], in: directory)
            #expect(fuzz.status == 1, "the lost update is found: \(fuzz.stdout)\(fuzz.stderr)")
            #expect(!fuzz.stdout.contains("NONDETERMINISTIC"), "\(fuzz.stdout)")
        }
    }
}
