import Foundation
import SimTestSupport
import Testing

/// square/Blueprint PR #618: before it, a nested update pass trapped on a precondition. The buggy
/// variant of `blueprint-reentrant-update-crash` really traps, so it is fuzzed only in worker
/// processes, where a trap is a crash finding with a replayable trace.
@Suite struct CrashFindingTests {
    @Test func theReentrantUpdateCrashIsACrashFindingAndItsTraceReplaysIdentically() throws {
        let directory = try makeTemporaryDirectory("crash")
        let out = directory.appendingPathComponent("out").path
        let fuzz = try SimrunProcess.run(
            ["fuzz", "blueprint-reentrant-update-crash", "--seeds", "0..<200", "--no-show", "--out", out])
        #expect(fuzz.status == 1)
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("Reentrant updates are not supported in BlueprintView"))
        let trace = out + "/blueprint-reentrant-update-crash-buggy-crashed.simtrace"
        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("identical — crashed at event"))
        let fixed = try SimrunProcess.run(["replay", trace, "--variant", "fixed"])
        #expect(fixed.status == 0, "the fixed variant defers the nested pass: \(fixed.stdout)")
    }
}
