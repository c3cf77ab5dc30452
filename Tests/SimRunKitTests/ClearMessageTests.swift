import Foundation
import SimTestSupport
import Testing

/// Each message says what is wrong and what to do (#44, N14): a mistyped scenario gets a suggestion,
/// a write error names its file once and says why, a temporary directory problem says `TMPDIR`, and
/// help says what a default is. (What merge could not use: MergeChecksTests.)
@Suite struct ClearMessageTests {
    @Test(arguments: [
        ("LOST-INPUT-NAVIGATION", "did you mean 'lost-input-navigation'?"),
        ("lost\u{2010}input\u{2010}navigation", "did you mean 'lost-input-navigation'?"),
        ("lost-input-navigaton", "did you mean 'lost-input-navigation'?"),
        ("lost-input-navigation/buggy", "did you mean 'lost-input-navigation --variant buggy'?"),
    ])
    func aMistypedScenarioGetsASuggestion(name: String, suggestion: String) {
        for command in ["run", "fuzz"] {
            let (status, output) = simrun(command == "fuzz" ? ["fuzz", name, "--seeds", "1"] : ["run", name])
            #expect(status == 64, "\(output)")
            #expect(output.contains("unknown scenario '\(name)'"), "\(output)")
            #expect(output.contains(suggestion), "\(command) \(name): \(output)")
        }
    }

    @Test func aNameNothingLikeAScenarioGetsNoSuggestion() {
        let (status, output) = simrun(["run", "zzzz"])
        #expect(status == 64)
        #expect(!output.contains("did you mean"), "\(output)")
    }

    #if os(Linux)
        /// `/dev/full` takes no byte: the error names the file once, and the reason.
        @Test func aWriteErrorNamesItsFileOnce() throws {
            let directory = try makeTemporaryDirectory("full")
            let trace = directory.appendingPathComponent("t.simtrace").path
            LostInputFixture.record(to: trace)
            let (status, output) = simrun(["export", trace, "--format", "jsonl", "--out", "/dev/full"])
            #expect(status == 73, "\(output)")
            #expect(output.contains("cannot write /dev/full: No space left on device"), "\(output)")
            #expect(output.components(separatedBy: "/dev/full").count == 2, "named once: \(output)")
            #expect(!output.contains("at byte"), "\(output)")
            let result = simrun([
                "fuzz", "counter-race", "--variant", "fixed", "--seeds", "3", "--result", "/dev/full",
            ])
            #expect(result.0 == 73, "\(result.1)")
            #expect(result.1.contains("cannot write /dev/full: No space left on device"), "\(result.1)")
            #expect(result.1.components(separatedBy: "/dev/full").count == 2, "named once: \(result.1)")
        }
    #endif

    /// A missing `$TMPDIR` is named as such, once, before any work.
    @Test func aMissingTMPDIRIsNamed() throws {
        let directory = try makeTemporaryDirectory("tmpdir-named")
        let missing = directory.appendingPathComponent("missing").path
        let crash = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Traces/blueprint-reentrant-update-crash-buggy-crashed.simtrace")
        for arguments in [
            ["run", "lost-input-navigation", "--seed", "6", "--check-determinism"],
            ["shrink", crash.path, "-o", "s.simtrace"],
            ["explain", crash.path, "--runs", "2"],
        ] {
            let output = try SimrunProcess.run(arguments, in: directory, environment: ["TMPDIR": missing])
            #expect(output.status == 73, "\(arguments): \(output.stderr)")
            let line = output.stderr.split(separator: "\n").last.map(String.init) ?? ""
            #expect(line.contains("TMPDIR \(missing)"), "\(arguments): \(output.stderr)")
            #expect(line.components(separatedBy: missing).count == 2, "named once: \(line)")
        }
    }

    @Test func shrinksHelpSaysTheDefaultNameAsItIs() throws {
        let (status, help) = simrun(["shrink", "--help"])
        #expect(status == 0)
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("t.simtrace → t.shrunk.simtrace"), "\(help)")
        #expect(!help.contains("<trace>.shrunk.simtrace"), "\(help)")
        let directory = try makeTemporaryDirectory("shrink-dflt")
        let trace = directory.appendingPathComponent("dflt.simtrace").path
        LostInputFixture.record(to: trace)
        #expect(simrun(["shrink", trace]).0 == 0)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("dflt.shrunk.simtrace").path))
    }

    @Test func shrinksShortOptionIsNamedAsTyped() throws {
        let directory = try makeTemporaryDirectory("shrink-o")
        let trace = directory.appendingPathComponent("t.simtrace").path
        LostInputFixture.record(to: trace)
        let (status, output) = simrun(["shrink", trace, "-o", directory.path + "/x/"])
        #expect(status == 73, "\(output)")
        #expect(output.contains("-o/--out \(directory.path)/x/"), "\(output)")
    }
}
