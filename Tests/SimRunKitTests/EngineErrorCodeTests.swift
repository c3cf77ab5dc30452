import Foundation
import SimEngine
import SimRunKit
import SimTestSupport
import Testing

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
        // An unknown scenario in the `_record` child: the parent reads the child's failure record.
        let directory = try makeTemporaryDirectory("engine-error-kind")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try SimrunProcess.run(
            [
                "_record", "no-such-scenario", "--strategy", "fifo", "--seed", "0", "--out",
                directory.path + "/t.simtrace",
            ],
            in: directory)
        #expect(output.status == SimRunKit.ExitStatus.usage)
        #expect(output.stdout.contains("\"failure\":{\"kind\":\"usage\""), "stdout: \(output.stdout)")
    }
}
