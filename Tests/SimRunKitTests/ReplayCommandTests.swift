import Foundation
import SimTestSupport
import Testing

/// `simrun replay` (and `explain`) as users run them: a trace read from a pipe is replayed like a file.
@Suite struct ReplayCommandTests {
    @Test func aTraceFromAPipeReplaysAndExplainsLikeAFile() throws {
        let directory = try makeTemporaryDirectory("pipe-in")
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        for arguments in [["replay", "/dev/stdin"], ["explain", "/dev/stdin", "--runs", "3"]] {
            let process = Process()
            process.executableURL = SimrunProcess.executable
            process.arguments = arguments
            process.currentDirectoryURL = directory
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": directory.path]) { $1 }
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(bytes)
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(arguments): \(text)")
            #expect(!text.contains("file is empty"), "\(text)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left == ["lost.simtrace"], "the temporary copy is removed: \(left)")
    }
}
