import Foundation
import SimCapture
import SimCore
import SimEngine
import SimTestSupport
import Testing

/// A crash inside a system library (issue #40, item 8): app code whose ordering bug makes libdispatch
/// trap (`dispatch-group-double-leave`: a response and its timeout both leave a `DispatchGroup`). The
/// finding, its trace and `explain` name libdispatch as where it trapped and the app's function as
/// its caller; the fix is clean.
@Suite(.enabled(if: DispatchCapturing.isActive, "GCD runs under the scheduler, and traps are located, on Linux only for now"))
struct SystemLibraryCrashTests {
    static let inside =
        "the trap is inside libdispatch.so, a library the program calls: dispatch_group_leave, "
        + "called from DispatchGroupDoubleLeave.Prefetch.finish(_:)"

    @Test func theFindingTheReplayAndExplainNameTheLibrary() throws {
        let directory = try makeTemporaryDirectory("library-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("o").path
        let fuzz = try SimrunProcess.run(["fuzz", "dispatch-group-double-leave", "--no-show", "--out", out])
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("CRASH at seed"), "\(fuzz.stdout)")
        #expect(fuzz.stdout.contains("  " + Self.inside), "\(fuzz.stdout)")
        let trace = "\(out)/dispatch-group-double-leave-buggy-crashed.simtrace"
        let replay = try SimrunProcess.run(["replay", trace])
        #expect(replay.status == 0 && replay.stdout.contains("identical"), "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("  " + Self.inside), "the trace keeps where it trapped: \(replay.stdout)")
        let explain = try SimrunProcess.run(["explain", trace, "--runs", "4"])
        #expect(explain.stdout.contains("The trap is inside libdispatch.so"), "\(explain.stdout)\(explain.stderr)")
        // --json says it too, as one member of the finding and of the explanation.
        let json = try SimrunProcess.run(
            ["fuzz", "dispatch-group-double-leave", "--no-show", "--json", "--out", out + "-json"])
        let document = try #require(try? JSONValue(parsing: json.stdout.split(separator: "\n").last.map(String.init) ?? ""))
        #expect(document["findings"]?.arrayValue?.first?["library"]?.stringValue == "libdispatch.so", "\(json.stdout)")
        let explained = try SimrunProcess.run(["explain", trace, "--runs", "2", "--json"])
        let explanation = try #require(
            try? JSONValue(parsing: explained.stdout.split(separator: "\n").last.map(String.init) ?? ""))
        #expect(explanation["library"]?.stringValue == "libdispatch.so", "\(explained.stdout)")
    }

    @Test func theFixIsCleanAndDeterministic() throws {
        let directory = try makeTemporaryDirectory("library-crash-fixed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixed = try SimrunProcess.run([
            "fuzz", "dispatch-group-double-leave", "--variant", "fixed", "--seeds", "0..<500", "--check-determinism",
            "--out", directory.path,
        ])
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("0 failures") && fixed.stdout.contains("0 differences"), "\(fixed.stdout)")
    }

    @Test func aCrashInTheProgramNamesNoLibrary() throws {
        let directory = try makeTemporaryDirectory("program-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try SimrunProcess.run(
            ["run", "unruly-counter", "--variant", "crashing-always", "--out", "c.simtrace"], in: directory)
        #expect(run.status == 1 && run.stdout.contains("CRASH"), "\(run.stdout)\(run.stderr)")
        #expect(!run.stdout.contains("the trap is inside"), "\(run.stdout)")
    }
}
