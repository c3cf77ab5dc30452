import Foundation
import SimTestSupport
import Testing

@testable import SimTrace

/// Ctrl-C or SIGTERM stops `fuzz` within a second with the summary of what ran; SIGKILL never leaves
/// a partial trace under a final name.
@Suite(.serialized) struct InterruptionTests {
    func start(_ arguments: [String], in directory: URL) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = SimrunProcess.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, out)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsFuzzWithinASecondWithTheSummary(signal: Int32) throws {
        let directory = try makeTemporaryDirectory("interrupt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, out) = try start(
            ["fuzz", "lost-input-navigation", "--variant", "fixed", "--time", "60"], in: directory)
        Thread.sleep(forTimeInterval: 2)
        let sent = Date()
        kill(process.processIdentifier, signal)
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let latency = Date().timeIntervalSince(sent)
        let text = String(decoding: output, as: UTF8.self)
        print("stop latency after signal \(signal): \(String(format: "%.3f", latency)) s")
        #expect(latency < 1, "stopped \(latency) s after the signal")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(text.contains("summary: ") && text.contains("interrupted"), "\(text)")
    }

    @Test func sigkillLeavesOnlyCompleteTraces() throws {
        let directory = try makeTemporaryDirectory("sigkill")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Kill at several moments while findings are being shrunk, checked and written.
        for delay in [0.6, 0.9, 1.2, 1.5, 1.8] {
            let (process, _) = try start(
                [
                    "fuzz", "unruly-counter", "--variant", "crashing", "--seeds", "0..<40", "--keep-going", "--no-show",
                    "--out", "out",
                ], in: directory)
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let out = directory.appendingPathComponent("out")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        for name in names where name.hasSuffix(".simtrace") {
            let file = try TraceFile.load(path: out.appendingPathComponent(name).path)
            #expect(!file.isTruncated && file.footer != nil, "\(name) is under a final name but incomplete")
        }
    }
}
