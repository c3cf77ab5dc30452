import Foundation
import SimEngine
import SimTestSupport
import SimTrace
import Testing

/// A trace recorded by one build of a user's executable, replayed by other builds of it: the three
/// `ledger-*` executables (Tests/BuildFixtures) are the same scenario `ledger`/`default` built from
/// three commits, each with its own build id. What a maintainer asks first: does this build still
/// have the recorded bug?
@Suite struct OtherBuildReplayTests {
    static func executable(_ name: String) -> URL {
        SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent(name)
    }

    static func run(_ name: String, _ arguments: [String], in directory: URL) throws -> SimrunProcess.Output {
        try SimrunProcess.run(executable: executable(name), arguments, in: directory)
    }

    /// Records a failing schedule of the buggy build into `directory/ledger.simtrace` (random
    /// walks: about one seed in two takes the payout's read ahead of the deposit).
    static func recordFailure(in directory: URL, label: String? = nil) throws -> String {
        let path = directory.appendingPathComponent("ledger.simtrace").path
        for seed in 0..<32 {
            let output = try run(
                "ledger-recorded",
                ["run", "ledger", "--strategy", "random", "--seed", String(seed), "--out", path]
                    + (label.map { ["--build-label", $0] } ?? []), in: directory)
            if output.status == 1 { return path }
            #expect(output.status == 0, "\(output.stderr)")
        }
        Issue.record("no failing seed of ledger in 0..<32")
        return path
    }

    @Test func theHeaderRecordsTheBuildAndEachBuildAnswersWithItsOwnVerdict() throws {
        let directory = try makeTemporaryDirectory("other-build")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordFailure(in: directory)
        let header = try TraceReader(path: trace).header
        #expect(header.formatVersion == 2)
        #expect(header.build.hasPrefix("build-id:") || header.build.hasPrefix("uuid:"))

        // The same build: events compared, identical (as before builds were recorded).
        let same = try Self.run("ledger-recorded", ["replay", trace], in: directory)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("identical"))

        // The fix: another build, its schedule followed by identity, the recorded race taken, passes.
        let fixed = try Self.run("ledger-fixed", ["replay", trace], in: directory)
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("on this build: passes with every non-fifo decision followed (recorded: FAIL"))
        #expect(fixed.stdout.contains("recorded by build \(header.build), replayed on build "))
        #expect(!fixed.stdout.contains("replayed on build \(header.build)"))
        #expect(fixed.stdout.contains("the schedule was followed by identity"))

        // The racing code moved: the recorded decision names a job this build never runs.
        let moved = try Self.run("ledger-moved", ["replay", trace], in: directory)
        #expect(moved.status == 2, "\(moved.stdout)\(moved.stderr)")
        #expect(moved.stdout.contains("on this build: inconclusive"))
        #expect(moved.stdout.contains("could not be followed on this build"))
        #expect(moved.stdout.contains("payout/read#1"))

        // A build that traps on the recorded schedule: its own verdict is the crash, in a child.
        let asserting = try Self.run("ledger-asserting", ["replay", trace], in: directory)
        #expect(asserting.status == 1, "\(asserting.stdout)\(asserting.stderr)")
        #expect(
            asserting.stdout.contains("on this build: still fails — CRASHED at event"), "\(asserting.stdout)")
        #expect(asserting.stdout.contains("negative balance -5"), "\(asserting.stdout)")

        // --json carries both builds and what could not be followed.
        let json = try Self.run("ledger-moved", ["replay", trace, "--json"], in: directory)
        let document = try JSONValue(parsing: json.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(document["verdict"]?.stringValue == "inconclusive")
        #expect(document["recordedBuild"]?.stringValue == header.build)
        #expect(document["otherBuild"]?.boolValue == true)
        #expect((document["unfollowed"]?.arrayValue?.count ?? 0) >= 1)
        let fixedJSON = try Self.run("ledger-fixed", ["replay", trace, "--json"], in: directory)
        let fixedDocument = try JSONValue(parsing: fixedJSON.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(fixedDocument["verdict"]?.stringValue == "pass")
        #expect(fixedDocument["otherBuild"]?.boolValue == true)
        #expect(fixedDocument["exitCode"]?.intValue == 0)
    }

    @Test func bisectCodesAreGitBisectRunCodes() throws {
        let directory = try makeTemporaryDirectory("other-build-bisect")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordFailure(in: directory)
        let cases: [(String, Int32)] = [
            ("ledger-recorded", 1), ("ledger-fixed", 0), ("ledger-moved", 125), ("ledger-asserting", 1),
        ]
        for (build, code) in cases {
            let output = try Self.run(build, ["replay", "--bisect", trace], in: directory)
            #expect(output.status == code, "\(build): \(output.stdout)\(output.stderr)")
        }
        // A trace that cannot be replayed stops the bisection (above 127), never "bad".
        let missing = try Self.run("ledger-fixed", ["replay", "--bisect", "no-such.simtrace"], in: directory)
        #expect(missing.status == 128, "\(missing.stderr)")
        let plain = try Self.run("ledger-fixed", ["replay", "no-such.simtrace"], in: directory)
        #expect(plain.status != 128 && plain.status != 0)
    }

    @Test func aBuildLabelNamesTheBuild() throws {
        let directory = try makeTemporaryDirectory("other-build-label")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try Self.recordFailure(in: directory, label: "v1")
        #expect(try TraceReader(path: trace).header.build == "label:v1")
        let exported = try Self.run("ledger-recorded", ["export", trace, "--format", "jsonl"], in: directory)
        #expect(exported.stdout.contains(#""build":"label:v1""#))

        // The same executable under another label is another build: identical events, the recorded
        // failure is this build's too.
        let relabelled = try Self.run("ledger-recorded", ["replay", trace, "--build-label", "v2"], in: directory)
        #expect(relabelled.status == 1, "\(relabelled.stdout)\(relabelled.stderr)")
        #expect(relabelled.stdout.contains("on this build: still fails — FAIL"))
        #expect(
            relabelled.stdout.contains(
                "recorded by build label:v1, replayed on build label:v2; the events are identical"))
        // A label given in the environment reaches the same answer.
        let fromEnvironment = try SimrunProcess.run(
            executable: Self.executable("ledger-recorded"), ["replay", trace], in: directory,
            environment: ["SIMRUN_BUILD_LABEL": "v1"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stdout)\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stdout.contains("identical"))
    }

    /// Format 1 traces (no build) stay readable and replay as before: compared, never judged as
    /// another build's.
    @Test func formatOneTracesStayReadable() throws {
        let traces = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Traces")
        let path = traces.appendingPathComponent("counter-race-buggy-no-lost-update.simtrace").path
        let header = try TraceReader(path: path).header
        #expect(header.formatVersion == 1)
        #expect(header.build.isEmpty)
        let output = try SimrunProcess.run(["replay", path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("identical"))
    }
}
