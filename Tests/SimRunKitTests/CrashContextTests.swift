import Foundation
import SimCapture
import SimEngine
import SimTestSupport
import Testing

/// How the commands present a crash inside a system library (issue #40, item 8;
/// `dispatch-group-double-leave` makes libdispatch trap): `fuzz`, `replay` and `explain` print where
/// it trapped and who called it, and `--json` names the library. The finding itself is checked
/// under the engine in SimScenariosTests' `SystemLibraryCrashTests`.
@Suite(.enabled(if: DispatchCapturing.isActive, "GCD runs under the scheduler, and traps are located, on Linux only for now"))
struct CrashContextTests {
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
}
