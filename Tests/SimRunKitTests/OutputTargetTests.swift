import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Outputs are written, not replaced, unless they are regular files; every write — stdout included —
/// is checked. Every node, link and FIFO here is made inside the test's own temporary directory
/// (never a path under /dev): as root, a wrong rename would otherwise replace a system file.
@Suite struct OutputTargetTests {
    /// A character device node like /dev/full (every write fails with ENOSPC) or /dev/null, made in
    /// `directory`; nil where device nodes cannot be made (not root, not Linux).
    static func device(_ name: String, minor: Int32, in directory: URL) -> String? {
        #if os(Linux)
            let path = directory.appendingPathComponent(name).path
            // makedev(1, minor) in glibc's encoding (a macro Swift cannot call).
            return mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | minor)) == 0 ? path : nil
        #else
            return nil
        #endif
    }

    static func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Runs `executable` (by default simrun) in `directory` with stdout going to the file at `stdout`;
    /// its status and stderr.
    static func run(
        _ arguments: [String], in directory: URL, stdout: String, executable: URL = SimrunProcess.executable
    ) throws -> (Int32, String) {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: stdout))
        let errors = Pipe()
        let process = try SimrunProcess.start(
            arguments, executable: executable, in: directory, stdout: handle, stderr: errors)
        let text = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }

    /// Whether device nodes can be made here (root on Linux): the tests that need one are skipped,
    /// with this reason, where they cannot; the link and FIFO cases run everywhere.
    static let canMakeDevices: Bool = {
        guard let directory = try? makeTemporaryDirectory("device-probe") else { return false }
        defer { try? FileManager.default.removeItem(at: directory) }
        return device("probe", minor: 3, in: directory) != nil
    }()

    @Test(.enabled(if: canMakeDevices, "device nodes can be made only by root on Linux"))
    func aDeviceNodeIsWrittenToNeverReplaced() throws {
        let directory = try makeTemporaryDirectory("device-out")
        let full = try #require(Self.device("fakefull", minor: 7, in: directory))
        let null = try #require(Self.device("fakenull", minor: 3, in: directory))
        let arguments = ["fuzz", "lost-input-navigation", "--variant", "fixed", "--seeds", "3", "-q"]
        let failed = try SimrunProcess.run(arguments + ["--result", full], in: directory)
        #expect(failed.status == 73, "a result that could not be written: \(failed.stderr)")
        #expect(failed.stderr.contains("No space left on device"), "\(failed.stderr)")
        #expect(Self.isCharacterDevice(full), "the device node is still a device node")
        let written = try SimrunProcess.run(arguments + ["--result", null], in: directory)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(Self.isCharacterDevice(null))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["fakefull", "fakenull"], "no temporary file left beside them: \(names)")
    }

    @Test func aLinkToStdoutWritesStdoutAndStaysALink() throws {
        let directory = try makeTemporaryDirectory("stdout-link")
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let link = directory.appendingPathComponent("fakestdout").path
        #if os(Linux)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        #else
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/fd/1")
        #endif
        let output = try SimrunProcess.run(["export", trace, "--format", "jsonl", "--out", link], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout.hasPrefix("{\"type\":\"schema\""), "the lines went to stdout: \(output.stdout.prefix(80))")
        #expect(Self.isLink(link), "the link was not replaced by a file")
        let dash = try SimrunProcess.run(["export", trace, "--format", "jsonl", "--out", "-"], in: directory)
        #expect(dash.status == 0 && dash.stdout == output.stdout, "`-` is stdout: \(dash.stderr)")
    }

    @Test func aFIFOIsWrittenToAndItsReaderGetsEverything() throws {
        let directory = try makeTemporaryDirectory("fifo-out")
        let fifo = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = ValueBox(Data())
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received.value = handle.readDataToEndOfFile() }
        }
        reader.start()
        let output = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--variant", "fixed", "--seeds", "3", "-q", "--result", fifo],
            in: directory, timeout: 60)
        while !reader.isFinished { usleep(1_000) }
        #expect(output.status == 0, "\(output.stderr)")
        let text = String(decoding: received.value, as: UTF8.self)
        #expect(text.hasPrefix("{\"schema\":\"simrun.result/1\""), "the reader got the document: \(text.prefix(80))")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "still a FIFO")
    }

    @Test func aLinkToAFileOrToNothingIsRefusedAndNothingChanges() throws {
        let directory = try makeTemporaryDirectory("file-link")
        let target = directory.appendingPathComponent("latest-target.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory.appendingPathComponent("latest.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "latest-target.json")
        let dangling = directory.appendingPathComponent("dangling.json").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere/x.json")
        for path in [link, dangling] {
            let (status, output) = simrun([
                "fuzz", "counter-race", "--variant", "fixed", "--seeds", "3", "--result", path,
            ])
            #expect(status == 73, "\(output)")
            #expect(output.contains("is a symbolic link"), "\(output)")
            #expect(!output.contains("summary:"), "refused before any schedule ran: \(output)")
            #expect(Self.isLink(path))
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old", "the linked file is untouched")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("nowhere").path))
    }

    @Test func aRegularFileIsReplacedWholeWithNothingLeftBeside() throws {
        let directory = try makeTemporaryDirectory("regular-out")
        let result = directory.appendingPathComponent("r.json").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: result))
        let (status, output) = simrun([
            "fuzz", "counter-race", "--variant", "fixed", "--seeds", "3", "--result", result,
        ])
        #expect(status == 0, "\(output)")
        #expect(try String(contentsOfFile: result, encoding: .utf8).hasPrefix("{\"schema\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["r.json"])
    }

    @Test func aNameEndingInASlashIsRefusedBeforeAnyWorkAndNothingIsMade() throws {
        let directory = try makeTemporaryDirectory("slash-out")
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let newdir = directory.appendingPathComponent("newdir").path + "/"
        let runs: [[String]] = [
            LostInputFixture.run + ["--out", newdir], ["shrink", trace, "-o", newdir],
            ["export", trace, "--format", "jsonl", "--out", newdir],
            ["fuzz", "counter-race", "--variant", "fixed", "--seeds", "2", "--result", newdir],
        ]
        for arguments in runs {
            let (status, output) = simrun(arguments)
            #expect(status == 73, "\(arguments): \(output)")
            #expect(output.contains("ends with '/'; give a file name"), "\(output)")
            #expect(!output.contains("FAIL") && !output.contains("summary"), "nothing ran: \(output)")
            #expect(!FileManager.default.fileExists(atPath: newdir), "no empty directory left")
        }
    }

    @Test func aFailingRunWhoseOutCannotBeWrittenKeepsItsTraceAndItsVerdict() throws {
        let directory = try makeTemporaryDirectory("run-out-fails")
        let parent = directory.appendingPathComponent("out").path
        // The run itself replaces the output's directory by a file: the check before it passed.
        let sabotaging = Scenario(name: "sabotage", summary: "", variants: [.init("v", "")]) { simulation, _ in
            try? FileManager.default.removeItem(atPath: parent)
            _ = FileManager.default.createFile(atPath: parent, contents: Data("in the way".utf8))
            simulation.post(on: "main", "fail") { simulation.fail("always", "it fails") }
        }
        let (status, output) = simrun(
            ["run", "sabotage", "--strategy", "fifo", "--out", parent + "/t.simtrace"], scenarios: [sabotaging])
        #expect(status == 1, "bug found wins over the write error: \(output)")
        #expect(output.contains(": FAIL"), "the verdict is printed: \(output)")
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("trace: ") }, "\(output)")
        let saved = String(line.dropFirst("trace: ".count))
        defer { try? FileManager.default.removeItem(atPath: OutputPathTests.parent(of: saved)) }
        #expect(saved.contains("simrun-findings-") && FileManager.default.fileExists(atPath: saved), "\(output)")
    }

    @Test(.enabled(if: canMakeDevices, "device nodes can be made only by root on Linux"))
    func writeErrorsOnStdoutAreExitSeventyThreeButABugFoundStaysOne() throws {
        let directory = try makeTemporaryDirectory("stdout-full")
        let full = try #require(Self.device("fakefull", minor: 7, in: directory))
        let trace = directory.appendingPathComponent("lost.simtrace").path
        LostInputFixture.record(to: trace)
        let cases: [([String], Int32)] = [
            (["export", trace, "--format", "jsonl"], 73),
            (["show", trace], 73),
            (["replay", trace, "--json"], 73),
            (["fuzz", "lost-input-navigation", "--variant", "fixed", "--seeds", "3", "--json"], 73),
            (["fuzz", "lost-input-navigation", "--seeds", "20", "--json", "--no-show", "--out", "f"], 1),
        ]
        for (arguments, expected) in cases {
            let (status, errors) = try Self.run(arguments, in: directory, stdout: full)
            #expect(status == expected, "\(arguments): \(errors)")
            #expect(errors.contains("cannot write to stdout: No space left on device"), "\(arguments): \(errors)")
        }
        #expect(Self.isCharacterDevice(full))
    }

    @Test func aResultThatFailsAtTheEndGivesOneJSONDocument() throws {
        let directory = try makeTemporaryDirectory("result-late")
        let result = directory.appendingPathComponent("r.json").path
        // Checked before the campaign, then taken by a directory while it runs (at its last seed: a
        // run made before the check, if any, must not take it).
        let sabotaging = Scenario(name: "sabotage", summary: "", variants: [.init("v", "")]) { simulation, _ in
            if simulation.seed == 7 {
                try? FileManager.default.createDirectory(atPath: result, withIntermediateDirectories: true)
            }
            simulation.post(on: "main", "pass") {}
        }
        let (status, output) = simrun(
            ["fuzz", "sabotage", "--strategy", "random", "--seeds", "8", "--jobs", "1", "--result", result, "--json"],
            scenarios: [sabotaging])
        #expect(status == 73, "\(output)")
        let documents = output.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(documents.count == 1, "one document: \(documents)")
        #expect(documents.first?.contains("\"exitCode\":73") == true, "\(documents)")
    }
}
