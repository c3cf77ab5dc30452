import Foundation
import SimTestSupport
import Testing

/// The `fixed:` line fuzz prints under a failure is a command that fits the trace: on a campaign with
/// unrelated background lanes (`--noise 3`) it names the fixed variant of the same scenario, and
/// running it follows every non-fifo decision of the trace to a pass (not "followed 0 of N").
/// The seeds start at 30: the fixed variant awaits one shared fetch, so a buggy schedule whose only
/// non-fifo decision orders the two callers' resumes while the noise lanes are ready (seed 7's and
/// seed 70's) has no such moment on `fixed`, and that replay honestly ends inconclusive (exit 2);
/// seed 32's first finding orders jobs the fixed variant has too.
@Suite struct FixHintCommandTests {
    @Test func theFixedLineOfANoisyAsyncFindingReplaysConclusively() throws {
        let directory = try makeTemporaryDirectory("fix-hint-noise")
        let out = directory.appendingPathComponent("failures").path
        let fuzz = try SimrunProcess.run([
            "fuzz", "actor-reentrancy-cache", "--noise", "3", "--seeds", "30..<200", "--no-show", "--out", out,
        ])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let line = try #require(
            fuzz.stdout.split(separator: "\n").first { $0.hasPrefix("  fixed:  simrun replay ") }, "\(fuzz.stdout)")
        let arguments = line.dropFirst("  fixed:  simrun ".count).split(separator: " ").map(String.init)
        #expect(arguments.suffix(2) == ["--variant", "fixed"], "\(line)")
        let fixed = try SimrunProcess.run(arguments)
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("pass"), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("non-fifo)") && fixed.stdout.contains("(all "), "\(fixed.stdout)")
        #expect(!fixed.stdout.contains("inconclusive"), "\(fixed.stdout)")
    }
}
