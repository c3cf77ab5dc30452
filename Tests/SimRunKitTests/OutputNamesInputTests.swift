import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// An output never names an input (#44, N1): every command that reads a file and writes one refuses,
/// with one line and the usage code (64), an output that is one of its inputs — spelled the same, with
/// `./`, through a symbolic link or as a hard link — and the input is left as it was.
@Suite struct OutputNamesInputTests {
    /// A directory holding `t.simtrace` (the lost-input trace), and the ways to name it again.
    struct Fixture {
        let directory: URL
        let trace: String
        let bytes: Data

        init() throws {
            directory = try makeTemporaryDirectory("output-names-input")
            trace = directory.appendingPathComponent("t.simtrace").path
            LostInputFixture.record(to: trace)
            bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
            try FileManager.default.createSymbolicLink(
                atPath: directory.appendingPathComponent("link.simtrace").path, withDestinationPath: trace)
            try FileManager.default.linkItem(
                atPath: trace, toPath: directory.appendingPathComponent("hard.simtrace").path)
        }

        /// The input named four ways: as given, with `./`, by a symbolic link, by a hard link.
        var spellings: [String] {
            let parent = directory.path
            return [trace, parent + "/./t.simtrace", parent + "/link.simtrace", parent + "/hard.simtrace"]
        }

        /// The input is still the trace it was.
        func expectIntact(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let now = try? Data(contentsOf: URL(fileURLWithPath: trace))
            #expect(now == bytes, "\(what): the input trace was changed", sourceLocation: sourceLocation)
        }
    }

    /// One line on stderr naming the output and saying it is the input; exit 64.
    static func expectRefused(
        _ status: Int32, _ output: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(status == 64, "\(arguments): \(output)", sourceLocation: sourceLocation)
        let errors = output.split(separator: "\n").filter { $0.hasPrefix("err: ") }
        #expect(errors.count == 1, "\(arguments): one line: \(output)", sourceLocation: sourceLocation)
        #expect(
            errors.first?.contains("would destroy what is read") == true, "\(arguments): \(output)",
            sourceLocation: sourceLocation)
    }

    @Test func exportShrinkAndFuzzRefuseToWriteOverTheirTrace() throws {
        let fixture = try Fixture()
        for out in fixture.spellings {
            for arguments in [
                ["export", fixture.trace, "--format", "jsonl", "--out", out],
                ["export", fixture.trace, "--format", "perfetto", "--out", out], ["shrink", fixture.trace, "-o", out],
                ["fuzz", "--from", fixture.trace, "--seeds", "5", "--result", out, "--out", fixture.directory.path],
            ] {
                let (status, output) = simrun(arguments)
                Self.expectRefused(status, output, arguments)
                fixture.expectIntact(arguments.joined(separator: " "))
            }
        }
        // Another name is written as before.
        let other = fixture.directory.appendingPathComponent("t.jsonl").path
        #expect(simrun(["export", fixture.trace, "--format", "jsonl", "--out", other]).0 == 0)
    }

    /// `fuzz --from T --out DIR` where T sits in DIR under the very name a finding of the same run
    /// would be saved as: the finding takes another name, T stays.
    @Test func fuzzNeverSavesAFindingOverItsFromTrace() throws {
        let fixture = try Fixture()
        let out = fixture.directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let from = out.appendingPathComponent("lost-input-navigation-buggy-typed-text-kept.simtrace").path
        try fixture.bytes.write(to: URL(fileURLWithPath: from))
        let seed = LostInputFixture.seed
        // The trace's own seed, strategy and scenario: a finding of this campaign is "the same finding".
        let (status, output) = simrun([
            "fuzz", "--from", from, "--keep", "2", "--seeds", "\(seed)..<\(seed + 1)", "--jobs", "1", "--no-show",
            "--no-shrink", "--out", out.path,
        ])
        #expect(status == 1, "the kept schedule fails again: \(output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: from)) == fixture.bytes, "the --from trace was replaced")
        #expect(output.contains("-2.simtrace"), "the finding is saved under another name: \(output)")
    }

    @Test func mergeRefusesAnOutThatIsAResultItReads() throws {
        let directory = try makeTemporaryDirectory("merge-out-input")
        let result = directory.appendingPathComponent("r.json").path
        let fuzz = simrun([
            "fuzz", "counter-race", "--variant", "fixed", "--seeds", "4", "--shard", "1/1", "--result", result,
            "--out", directory.appendingPathComponent("failures").path,
        ])
        #expect(fuzz.0 == 0, "\(fuzz.1)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: result))
        let arguments = ["merge", result, "--out", directory.path + "/./r.json"]
        let (status, output) = simrun(arguments)
        Self.expectRefused(status, output, arguments)
        #expect(try Data(contentsOf: URL(fileURLWithPath: result)) == bytes)
    }

    /// The binary says it in one line on stderr, with nothing on stdout.
    @Test func theRefusalIsOneLineFromTheBinary() throws {
        let fixture = try Fixture()
        let output = try SimrunProcess.run(
            ["export", "t.simtrace", "--format", "jsonl", "--out", "./t.simtrace"], in: fixture.directory)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("simrun: --out ./t.simtrace is the input trace"), "\(output.stderr)")
        fixture.expectIntact("the binary's export")
    }
}
