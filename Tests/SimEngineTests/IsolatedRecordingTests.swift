import Foundation
import SimCore
import SimTestSupport
import Testing

@testable import SimEngine

/// A recording in a child of the built simrun: a child that cannot start says which kind of failure
/// (the kind the command line turns into its exit code: SimRunKitTests' `EngineErrorCodeTests`), and
/// a known scenario records through the same job with its seed, strategy, variant and noise.
@Suite struct IsolatedRecordingTests {
    @Test func aRecordingChildThatCannotStartSaysWhichKindOfFailure() throws {
        // An unknown scenario in a recording child: the parent reads the child's failure reply.
        let directory = try makeTemporaryDirectory("engine-error-kind")
        defer { try? FileManager.default.removeItem(at: directory) }
        let launcher = SimrunChildren.launcher
        let recording = IsolatedRecording(
            plan: RunPlan.Descriptor(
                scenario: "no-such-scenario", variant: "v", strategy: StrategySpec(kind: .fifo), estimatedSteps: 10,
                noise: 0, carriers: .off),
            launcher: launcher)
        do {
            _ = try recording.record(seed: 0, to: directory.path + "/t.simtrace")
            Issue.record("an unknown scenario was recorded")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.contains("no-such-scenario"), "\(error.message)")
        }
        // And a known one records through the same job.
        let known = IsolatedRecording(
            plan: RunPlan.Descriptor(
                scenario: "lost-input-navigation", variant: "buggy", strategy: StrategySpec(kind: .pct),
                estimatedSteps: 40, noise: 1, carriers: .off),
            launcher: launcher)
        let outcome = try known.record(seed: 4, to: directory.path + "/k.simtrace")
        #expect(!outcome.crashed)
        let header = try TraceInput(path: outcome.path).header
        #expect(header.seed == 4 && header.strategy == StrategySpec(kind: .pct).description && header.variant == "buggy")
        #expect(try TraceInput.noise(of: header, path: outcome.path) == 1)
    }
}
