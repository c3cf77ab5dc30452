import Foundation
import SimCore
import SimRunKit
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// The engine throws kinds (`SimEngineError`); the command line alone gives each its exit code.
@Suite struct EngineErrorCodeTests {
    @Test func everyKindHasItsOwnCodeFromTheTableAndBack() {
        let codes = SimEngineError.Kind.allCases.map { SimEngineError.code(for: $0) }
        #expect(Set(codes).count == codes.count, "two kinds share an exit code: \(codes)")
        let table = Set(SimRunKit.ExitStatus.table.map(\.code))
        for kind in SimEngineError.Kind.allCases {
            let code = SimEngineError.code(for: kind)
            #expect(table.contains(code), "\(kind) exits \(code), which the exit-code table does not list")
            #expect(CommandFailure(code, "x").kind == kind)
            #expect(SimEngineError(kind, "x").code == code)
        }
        // A code of no kind (2, inconclusive, is a verdict's, not an error's) is a plain failure.
        #expect(CommandFailure(SimRunKit.ExitStatus.inconclusive, "x").kind == .failed)
    }

    @Test func aRecordingChildThatCannotStartSaysWhichKindOfFailure() throws {
        // An unknown scenario in a recording child: the parent reads the child's failure reply.
        let directory = try makeTemporaryDirectory("engine-error-kind")
        defer { try? FileManager.default.removeItem(at: directory) }
        let launcher = ProcessLauncher(executable: SimrunProcess.executable.path)
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
