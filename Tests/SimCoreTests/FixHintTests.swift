import SimCore
import Testing

/// The fix hint under a failure names the fixed variant that matches the trace's variant.
@Suite struct FixHintTests {
    private func scenario(_ names: [String]) -> Scenario {
        Scenario(name: "hint", summary: "fix hints", variants: names.map { .init($0, $0) }) { _, _ in }
    }

    @Test func aNoisyBuggyTraceIsCheckedOnTheNoisyFix() {
        let both = scenario(["buggy", "buggy-noisy", "fixed", "fixed-noisy"])
        #expect(both.fixHint(for: "buggy") == .variant("fixed"))
        #expect(both.fixHint(for: "buggy-noisy") == .variant("fixed-noisy"))
        #expect(
            both.fixHintLine(for: "buggy-noisy", replayCommand: "simrun replay t.simtrace")
                == "  fixed:  simrun replay t.simtrace --variant fixed-noisy")
        #expect(both.fixHint(for: "fixed-noisy") == nil)
        #expect(both.fixHint(for: "fixed") == nil)
    }

    @Test func withoutAMatchingFixTheHintSaysSo() {
        let partial = scenario(["buggy", "buggy-cancel", "fixed"])
        #expect(partial.fixHint(for: "buggy-cancel") == .noMatch(nearest: "fixed"))
        let line = partial.fixHintLine(for: "buggy-cancel", replayCommand: "simrun replay t.simtrace")
        #expect(line?.contains("no fixed variant matches buggy-cancel (no fixed-cancel)") == true, "\(line ?? "nil")")
        #expect(line?.hasSuffix("simrun replay t.simtrace --variant fixed") == true)
        let onlyNoisyFix = scenario(["buggy", "fixed-noisy"])
        #expect(onlyNoisyFix.fixHint(for: "buggy") == .noMatch(nearest: nil))
        #expect(
            onlyNoisyFix.fixHintLine(for: "buggy", replayCommand: "r")
                == "  fixed:  no fixed variant matches buggy (no fixed)")
        #expect(scenario(["buggy", "other"]).fixHint(for: "buggy") == nil)
    }
}
