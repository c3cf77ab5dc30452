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
        // --out passes the checks before the campaign (a writable directory), but every name the
        // finding could take there is a directory already (the wanted name and -2 … -1000), and a
        // missing $TMPDIR leaves no fallback: the trace is saved nowhere.
        let out = directory.appendingPathComponent("out")
        let stem = "lost-input-navigation-buggy-typed-text-kept"
        for number in 1...1000 {
            let name = number == 1 ? "\(stem).simtrace" : "\(stem)-\(number).simtrace"
            try FileManager.default.createDirectory(at: out.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let missing = directory.appendingPathComponent("missing").path
        let fuzz = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--seeds", "20", "--no-show", "--out", "out"], in: directory,
            environment: ["TMPDIR": missing])
        // The finding stands (exit 1), with no trace line, and the reason is said on stderr.
        #expect(fuzz.status == 1, "\(fuzz.stdout)\(fuzz.stderr)")
        let fail = try #require(fuzz.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL at seed ") }, "\(fuzz.stdout)")
        #expect(!fuzz.stdout.contains("  trace:"), "\(fuzz.stdout)")
        let seed = try #require(fail.split(separator: " ").dropFirst(3).first?.split(separator: ":").first)
        #expect(fuzz.stderr.contains("seed \(seed): "), "\(fuzz.stderr)")
        #expect(fuzz.stderr.contains("lost-input-navigation-buggy-typed-text-kept.simtrace: is a directory"), "\(fuzz.stderr)")
        #expect(fuzz.stderr.contains("nor elsewhere: TMPDIR \(missing): cannot create a directory there"), "\(fuzz.stderr)")
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
