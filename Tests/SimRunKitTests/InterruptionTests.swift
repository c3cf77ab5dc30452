import Foundation
import SimTestSupport
import Testing

@testable import SimTrace

/// Ctrl-C or SIGTERM stops `fuzz` within a second with the summary of what ran; SIGKILL never leaves
/// a partial trace under a final name.
@Suite(.serialized) struct InterruptionTests {
    /// `simrun arguments` started in `directory` with `TMPDIR` there (a process killed mid-way cannot
    /// remove its temporary files, nor can a child that dies of SIGPIPE when its parent is killed:
    /// they are removed with the directory), and a pipe from its stdout.
    func start(_ arguments: [String], in directory: URL, stderr: Pipe? = nil) throws -> (Process, Pipe) {
        let out = Pipe()
        let process = try SimrunProcess.start(
            arguments, in: directory, environment: ["TMPDIR": directory.path], stdout: out, stderr: stderr)
        return (process, out)
    }

    /// The signal ends a campaign that would otherwise run for a day, with the summary of what ran.
    /// It is sent once `fuzz` has installed its handlers (so it cannot land on the default action),
    /// which is learned from the process itself, not from a sleep; a watchdog kills a process that
    /// ignores it, which fails the test instead of hanging it. No bound on how fast it stops.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsFuzzWithTheSummary(signal: Int32) throws {
        let directory = try makeTemporaryDirectory("interrupt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let err = Pipe()
        let (process, out) = try start(
            ["fuzz", "lost-input-navigation", "--variant", "fixed", "--time", "86400"], in: directory, stderr: err)
        try waitForHandlers(of: process, stderr: err)
        kill(process.processIdentifier, signal)
        let text = SimrunProcess.collect(process, stdout: out, stderr: err, killingAfter: 300).stdout
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(text.contains("summary: ") && text.contains("interrupted"), "\(text)")
    }

    /// Returns once `fuzz` has caught SIGINT and SIGTERM: its first stderr line (printed just before
    /// the campaign installs its handlers), then, where /proc tells, the handlers themselves.
    func waitForHandlers(of process: Process, stderr: Pipe) throws {
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("\n") {
            let chunk = stderr.fileHandleForReading.availableData
            if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
            seen += chunk
        }
        SimrunProcess.waitUntilHandlingSignals(process, poll: 1_000)
    }

    /// Every other long command ends at the first signal with 130 (SIGTERM too, not 143), says it was
    /// interrupted, and leaves no temporary file: explain of a million runs, bench.
    @Test(arguments: [SIGINT, SIGTERM])
    func longCommandsEndAtTheFirstSignalWithOneThirty(signal: Int32) throws {
        let directory = try makeTemporaryDirectory("interrupt-long")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        for arguments in [["explain", trace, "--runs", "1000000"], ["bench"]] {
            let err = Pipe()
            let (process, out) = try start(arguments, in: directory, stderr: err)
            if !SimrunProcess.waitUntilHandlingSignals(process) { Thread.sleep(forTimeInterval: 1) }
            Thread.sleep(forTimeInterval: 0.3)  // well into the work
            let sent = ContinuousClock.now
            kill(process.processIdentifier, signal)
            let errors = SimrunProcess.collect(process, stdout: out, stderr: err, killingAfter: 60).stderr
            #expect(ContinuousClock.now - sent < .seconds(5), "\(arguments): stopped promptly")
            #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(arguments): \(errors)")
            #expect(errors.contains("simrun: interrupted"), "\(arguments): \(errors)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tmp-") }
        #expect(left.isEmpty, "no temporary file left: \(left)")
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
