import Foundation
import SimTestSupport
import Testing

/// Each message says what is wrong and what to do (#44, N14): a mistyped scenario gets a suggestion,
/// merge names what it could not use, a write error names its file once and says why, a temporary
/// directory problem says `TMPDIR`, and help says what a default is.
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

    /// A result deeper than merge searches is named, with what to do; shards of different counts are
    /// named as such; the same file given twice is merged once.
    @Test func mergeSaysWhatItCouldNotUse() throws {
        let directory = try makeTemporaryDirectory("merge-messages")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        func shard(_ shard: String, _ result: String) {
            let (status, output) = simrun([
                "fuzz", "lost-input-navigation", "--variant", "fixed", "--seeds", "60", "--shard", shard, "--jobs", "1",
                "--no-show", "--result", result, "-q",
            ])
            #expect(status == 0, "\(output)")
        }
        shard("1/2", path("deep/a/b/c/d/e/r.json"))
        let deep = simrun(["merge", path("deep")])
        #expect(deep.0 == 66, "\(deep.1)")
        #expect(deep.1.contains("levels"), "the depth is named: \(deep.1)")

        shard("1/2", path("mixed/p1.json"))
        shard("2/3", path("mixed/p2.json"))
        let mixed = simrun(["merge", path("mixed")])
        #expect(mixed.0 == 65, "\(mixed.1)")
        #expect(mixed.1.contains("different shard counts"), "\(mixed.1)")

        shard("1/1", path("twice/p.json"))
        let twice = simrun(["merge", path("twice/p.json"), path("twice/./p.json")])
        #expect(twice.0 == 0, "\(twice.1)")
        #expect(!twice.1.contains("run by both"), "\(twice.1)")
        #expect(twice.1.contains("60 schedules in 1 shard"), "\(twice.1)")
        #expect(twice.1.contains("named twice"), "\(twice.1)")
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
