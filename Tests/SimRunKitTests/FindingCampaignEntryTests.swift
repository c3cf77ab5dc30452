import Foundation
import SimEngine
import SimTestSupport
import SimTrace
import Testing

/// What a campaign says about each finding it handled (`FindingCampaign`'s ``SavedFinding``, as `fuzz`
/// presents it) when the usual path is not taken: a trace that could be saved nowhere says why, and a
/// crash that shrank to another message (numbers aside, the same crash) is reported with the saved
/// trace's verdict, not the one found (issue #45).
@Suite struct FindingCampaignEntryTests {
    @Test func aTraceThatCouldBeSavedNowhereSaysWhy() throws {
        let directory = try makeTemporaryDirectory("unsaved-finding")
        defer { try? FileManager.default.removeItem(at: directory) }
        // An --out longer than a path may be passes the check before the campaign (its nearest
        // existing parent, this directory, is writable) and fails when the trace is saved
        // (ENAMETOOLONG, root or not); a missing $TMPDIR leaves no fallback: the trace is saved nowhere.
        let tooLong = Array(repeating: String(repeating: "d", count: 200), count: 21).joined(separator: "/")
        #expect(tooLong.utf8.count > Int(PATH_MAX))
        let missing = directory.appendingPathComponent("missing").path
        let fuzz = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--seeds", "20", "--no-show", "--out", tooLong], in: directory,
            environment: ["TMPDIR": missing])
        // The finding stands (exit 1), with no trace line, and the reason is said on stderr.
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let fail = try #require(fuzz.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL at seed ") })
        #expect(!fuzz.stdout.contains("  trace:"), "\(fuzz.stdout)")
        let seed = try #require(fail.split(separator: " ").dropFirst(3).first?.split(separator: ":").first)
        #expect(
            fuzz.stderr.contains("seed \(seed): cannot create a directory under \(missing)"), "\(fuzz.stderr)")
    }

    @Test func aShrunkCrashIsReportedWithItsSavedVerdict() throws {
        let directory = try makeTemporaryDirectory("charged-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fuzz = try SimrunProcess.run(
            executable: CrashIdentityTests.executable(),
            ["fuzz", "charged-crash", "--strategy", "random", "--seeds", "16", "--no-show", "--out", "out"],
            in: directory, timeout: 600)
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let lines = fuzz.stdout.split(separator: "\n").map(String.init)
        let crash = try #require(lines.first { $0.hasPrefix("CRASH at seed ") }, "\(fuzz.stdout)")
        let trace = directory.appendingPathComponent("out/charged-crash-buggy-crashed.simtrace").path
        let footer = try #require(try TraceInput(path: trace).footer)
        // Shrinking kept the crash (the same job and function, numbers aside) with fifo's charge.
        #expect(footer.verdict.message.hasSuffix("fired before armed with charge 0"), "\(footer.verdict)")
        #expect(lines.contains { $0.hasPrefix("  shrunk") }, "\(fuzz.stdout)")
        // The case this test is for: the crash found drew another charge than the saved one.
        #expect(!crash.hasSuffix("charge 0"), "seeds 0..<16 found only fifo's charge: pick others\n\(fuzz.stdout)")
        // Where the saved trace trapped is told with the saved trace's verdict and event count.
        let crashed = try #require(lines.first { $0.hasPrefix("  crashed at event ") }, "\(fuzz.stdout)")
        #expect(crashed.hasPrefix("  crashed at event \(footer.eventCount) "), "\(crashed) vs \(footer.eventCount)")
        #expect(crashed.hasSuffix(": \(footer.verdict.message)"), "\(crashed) vs \(footer.verdict.message)")
    }
}
