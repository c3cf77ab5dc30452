import Foundation
import SimEngine
import SimTestSupport
import Testing

/// `simrun shrink` as users run it: a crash trace shrinks (each candidate in a child; the shrinking
/// itself: SimEngineTests' `CrashShrinkTests`), and `--json` says so with the crash as its finding.
@Suite struct ShrinkCommandTests {
    @Test func aCrashTraceShrinksWithTheCrashAsItsFinding() throws {
        let directory = try makeTemporaryDirectory("shrink-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("b.simtrace").path
        let shrink = try SimrunProcess.run(["shrink", CommittedTraces.blueprintCrash, "-o", out, "--json"])
        #expect(shrink.status == 0, "\(shrink.stdout)\(shrink.stderr)")
        let document = try JSONValue(parsing: shrink.stdout.split(separator: "\n").last.map(String.init) ?? "")
        #expect(document["verdict"]?.stringValue == "shrunk", "\(shrink.stdout)")
        #expect(shrink.stdout.contains("\"oracle\":\"crashed\""), "\(shrink.stdout)")
        #expect(FileManager.default.fileExists(atPath: out))
    }
}
