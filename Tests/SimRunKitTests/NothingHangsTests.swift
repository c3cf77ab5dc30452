import Foundation
import SimTestSupport
import Testing

/// Nothing simrun starts hangs for ever, or outlives the command the user ran (issue #41): a run whose
/// job never returns is given up after a bound of real time and reported as a crash finding naming
/// the stuck job, with its trace; an interrupted campaign ends every child process it started.
@Suite(.serialized) struct NothingHangsTests {
    @Test func aJobThatNeverReturnsIsACrashFindingNamingTheJob() throws {
        let directory = try makeTemporaryDirectory("stuck")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            ["fuzz", "unruly-counter", "--variant", "stuck", "--seeds", "0..<40", "--no-shrink", "--out", "out"],
            in: directory, timeout: 120, environment: ["SIMRUN_STALL_SECONDS": "1"])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("a run made no progress for 1 s of real time"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("in job poller/check#1"), "the stuck job is named: \(fuzz.stdout)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("out").path)
        #expect(saved == ["unruly-counter-stuck-crashed.simtrace"], "\(saved)")
        // The trace replays to the same end (its replay is given up the same way).
        let replay = try SimrunProcess.run(
            ["replay", "out/unruly-counter-stuck-crashed.simtrace"], in: directory, timeout: 120,
            environment: ["SIMRUN_STALL_SECONDS": "1"])
        #expect(replay.status == 0 && replay.stdout.contains("identical — crashed"), "\(replay.stdout)")
    }

    #if os(Linux)
        /// A campaign whose workers are stuck (the stall bound is a minute here) is interrupted twice:
        /// the second signal ends it at once, and no child of it is left running.
        @Test func anInterruptedCampaignLeavesNoChildBehind() throws {
            let directory = try makeTemporaryDirectory("orphans")
            defer { try? FileManager.default.removeItem(at: directory) }
            let marker = "SIMRUN_TEST_MARKER=\(UUID().uuidString)"
            let process = Process()
            process.executableURL = SimrunProcess.executable
            process.arguments = ["fuzz", "unruly-counter", "--variant", "stuck", "--seeds", "0..<400", "--jobs", "2"]
            process.currentDirectoryURL = directory
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = directory.path
            environment["SIMRUN_TEST_MARKER"] = String(marker.split(separator: "=")[1])
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait until the workers run, and give one time to get stuck (seed 2 is a stuck one).
            let started = Date()
            while workers(marked(marker)).isEmpty && Date().timeIntervalSince(started) < 60 { usleep(50_000) }
            #expect(!workers(marked(marker)).isEmpty, "the campaign's workers started")
            usleep(1_500_000)
            let signalled = Date()
            kill(process.processIdentifier, SIGINT)
            usleep(200_000)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            #expect(process.terminationStatus == 130)
            // A stuck child left behind would hold the command's end until its stall bound (a minute).
            #expect(Date().timeIntervalSince(signalled) < 20, "the interrupted campaign took \(Date().timeIntervalSince(signalled)) s to end")
            var left = marked(marker)
            let ended = Date()
            while !left.isEmpty && Date().timeIntervalSince(ended) < 10 {
                usleep(50_000)
                left = marked(marker)
            }
            #expect(left.isEmpty, "processes of the campaign still running: \(left)")
        }

        /// The fuzz workers among `processes`.
        private func workers(_ processes: [Int32]) -> [Int32] {
            processes.filter { pid in
                let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
                let arguments = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                // A fuzz worker is started as `<program> --simrun-child work`.
                return arguments.dropFirst().starts(with: ["--simrun-child", "work"])
            }
        }

        /// The ids of live processes whose environment holds `marker`.
        private func marked(_ marker: String) -> [Int32] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { Int32($0) }.filter { pid in
                guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                    let status = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    !status.contains(") Z ")
                else { return false }
                return environment.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == marker }
            }
        }
    #endif
}
