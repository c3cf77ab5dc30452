import Foundation
import SimTestSupport
import Testing

/// What `simrun fuzz` says about a campaign beyond its findings.
@Suite struct FuzzCommandTests {
    /// An exhausted dfs bound says what the proof covers: what a preemption is and how to raise the
    /// bound (#28 defect 7; the campaign itself: SimEngineTests' `ExhaustiveCampaignTests`).
    @Test func anExhaustedBoundSaysWhatAPreemptionIsAndHowToRaiseIt() throws {
        let output = try SimrunProcess.run([
            "fuzz", "blueprint-reentrant-update-crash", "--strategy", "dfs", "--seeds", "1000", "--no-show",
        ])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("space exhausted"), "\(output.stdout)")
        #expect(output.stdout.contains("no failure with at most 2 preemptions"), "\(output.stdout)")
        #expect(output.stdout.contains("dfs:preemptions=P"), "\(output.stdout)")
    }
}
