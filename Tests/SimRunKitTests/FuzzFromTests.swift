import Foundation
import SimTestSupport
import SimTrace
import Testing

@Suite struct FuzzFromTests {
    @Test func keepingTheWholeTraceReproducesItExactly() throws {
        let directory = try makeTemporaryDirectory("fuzz-from")
        let trace = try Understanding.failingTrace("lost-input-navigation", in: directory)
        let original = try TraceFile.load(path: trace)
        let out = directory.appendingPathComponent("again").path
        let run = Understanding.simrun([
            "fuzz", "--from", trace, "--keep", String(original.decisions.count), "--seeds", "0..<3", "--no-shrink",
            "--out", out,
        ])
        #expect(run.status == 1)
        #expect(run.out.contains("FAIL at seed 0"), "every run keeps the whole failing schedule")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".simtrace") }
        let again = try TraceFile.load(path: out + "/" + (try #require(names.first)))
        #expect(again.digest == original.digest)
        #expect(again.footer?.digest == original.footer?.digest)
        #expect(again.events.count == original.events.count)
    }

    @Test func keepingNothingIsPlainFuzzing() throws {
        let directory = try makeTemporaryDirectory("fuzz-from")
        let trace = try Understanding.failingTrace("lost-input-navigation", in: directory)
        let plain = Understanding.simrun([
            "fuzz", "lost-input-navigation", "--seeds", "0..<300", "--out", directory.appendingPathComponent("a").path,
            "--no-show",
        ])
        let from = Understanding.simrun([
            "fuzz", "--from", trace, "--keep", "0", "--seeds", "0..<300", "--out",
            directory.appendingPathComponent("b").path, "--no-show",
        ])
        #expect(plain.status == from.status)
        let failure: (Understanding.Output) -> [String] = { output in
            output.out.split(separator: "\n").map(String.init).filter {
                $0.hasPrefix("FAIL") || $0.contains("shrunk in")
            }
        }
        #expect(!failure(plain).isEmpty)
        #expect(failure(plain) == failure(from))
        let a = try TraceFile.load(
            path: directory.appendingPathComponent("a/lost-input-navigation-buggy-typed-text-kept.simtrace").path)
        let b = try TraceFile.load(
            path: directory.appendingPathComponent("b/lost-input-navigation-buggy-typed-text-kept.simtrace").path)
        #expect(a.digest == b.digest)
    }

    @Test func theScenarioComesFromTheTraceAndIsRequiredOtherwise() throws {
        let directory = try makeTemporaryDirectory("fuzz-from")
        let trace = try Understanding.failingTrace("counter-race", in: directory)
        let run = Understanding.simrun([
            "fuzz", "--from", trace, "--keep", "1", "--seeds", "0..<50", "--out", directory.path, "--no-show",
        ])
        #expect(run.lines.contains { $0.contains("fuzz counter-race/buggy") && $0.contains("keeping 1 of") })
        #expect(Understanding.simrun(["fuzz", "--seeds", "5"]).status == 64)
        #expect(Understanding.simrun(["fuzz", "counter-race", "--keep", "1"]).status == 64)
        #expect(
            Understanding.simrun(["fuzz", "--from", directory.appendingPathComponent("nope.simtrace").path]).status
                == 66)
    }
}
