import Foundation
import SimCore
import SimTestSupport
import Testing

@testable import SimTrace

/// A model that traps is a finding: fuzz keeps going, keeps the trace up to the trap, and replay
/// reproduces the trap in a child process instead of dying.
@Suite(.serialized) struct CrashIsolationTests {
    @Test func fuzzKeepsGoingPastATrapAndReplayReproducesIt() throws {
        let directory = try makeTemporaryDirectory("crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            [
                "fuzz", "unruly-counter", "--variant", "crashing", "--seeds", "0..<60", "--keep-going", "--no-show",
                "--out", "out",
            ], in: directory)
        #expect(fuzz.status == 1, "\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("FAIL at seed"), "the ordinary failure is still reported: \(fuzz.stdout)")
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("crashed at event"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("Precondition failed: stale write"), "\(fuzz.stdout)")
        // What a release build's report still says when the runtime keeps no message: the job and
        // the last events before the trap.
        #expect(fuzz.stdout.contains("  in job worker.a/write#1; the last events before the trap:"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("counter.read worker."), "the events before the trap: \(fuzz.stdout)")
        #expect(fuzz.stdout.contains("summary: 60 schedules"), "every seed ran: \(fuzz.stdout)")
        #expect(!fuzz.stdout.contains("NONDETERMINISTIC"), "\(fuzz.stdout)")

        let trace = directory.appendingPathComponent("out/unruly-counter-crashing-crashed.simtrace").path
        let file = try TraceFile.load(path: trace)
        guard case .crashed(let message) = file.footer?.verdict else {
            Issue.record("the crash trace must end with a crashed verdict: \(String(describing: file.footer))")
            return
        }
        #expect(message.contains("stale write"))
        #expect(file.events.last.map { file.text($0.kind) } == "sched.pick", "kept up to the job that trapped")

        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0, "\(replay.stdout) \(replay.stderr)")
        #expect(replay.stdout.contains("identical — crashed at event \(file.events.count)"), "\(replay.stdout)")
        let show = try SimrunProcess.run(["show", trace])
        #expect(show.status == 0 && show.stdout.contains("crashed: Precondition failed"), "\(show.stdout)")
        // A crash shrinks (each candidate in a child): the shrunk trace replays as the same crash.
        let shrunk = directory.appendingPathComponent("shrunk.simtrace").path
        let shrink = try SimrunProcess.run(["shrink", trace, "-o", shrunk])
        #expect(shrink.status == 0, "\(shrink.stdout)\(shrink.stderr)")
        #expect(shrink.stdout.contains("same failure: crashed: Precondition failed: stale write"), "\(shrink.stdout)")
        let again = try SimrunProcess.run(["replay", shrunk])
        #expect(again.status == 0 && again.stdout.contains("identical — crashed at event"), "\(again.stdout)")
        #expect(again.stdout.contains("in job worker.a/write#1"), "\(again.stdout)")
        let fixed = try SimrunProcess.run(["replay", trace, "--variant", "wall-clock"])
        #expect(
            fixed.status == 1 && !fixed.stdout.contains("CRASHED"), "another variant runs the schedule: \(fixed.stdout)"
        )
    }

    @Test func runOfACrashingSeedIsRecordedUpToTheTrapByFuzzWithOneJob() throws {
        let directory = try makeTemporaryDirectory("crash1")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Without --keep-going the lowest failing seed wins, whatever --jobs is.
        let one = try SimrunProcess.run(
            ["fuzz", "unruly-counter", "--variant", "crashing", "--seeds", "1..<60", "--jobs", "1", "--no-show"],
            in: directory)
        let two = try SimrunProcess.run(
            ["fuzz", "unruly-counter", "--variant", "crashing", "--seeds", "1..<60", "--jobs", "2", "--no-show"],
            in: directory)
        #expect(one.status == 1 && two.status == 1)
        let firstLine = { (text: String) in text.split(separator: "\n").first.map(String.init) ?? "" }
        #expect(firstLine(one.stdout) == firstLine(two.stdout), "\(one.stdout)\n---\n\(two.stdout)")
    }
}
