import Foundation
import Testing

/// Every public declaration of SimCore, SimModels, SimTrace and SimTesting carries a `///` comment:
/// `tools/doc-coverage.sh` counts them and fails under 100% (its output names each one missing).
@Suite struct DocCoverageTests {
    @Test func everyPublicDeclarationOfTheUserFacingModulesIsDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [root.appendingPathComponent("tools/doc-coverage.sh").path, "--list"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        for module in ["SimCore", "SimModels", "SimTrace", "SimTesting"] {
            #expect(text.contains("\(module): "), "no figure for \(module): \(text)")
        }
    }
}
