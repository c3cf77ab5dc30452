import Foundation
import SimTestSupport
import Testing

/// `merge` checks everything that makes shards one campaign and names each difference; an empty or
/// interrupted shard is never counted as covering seeds; an unwritable `--out` never hides a FAIL;
/// what it could not use (a result too deep, shards of different counts, a file named twice) is named.
@Suite struct MergeChecksTests {
    static func shard(
        _ shard: String, seeds: String = "100", _ extra: [String] = [], variant: String = "fixed", to result: String
    )
        -> (Int32, String)
    {
        simrun(
            [
                "fuzz", "lost-input-navigation", "--variant", variant, "--seeds", seeds, "--shard", shard, "--jobs",
                "1",
                "--no-show", "--result", result, "-q",
            ] + extra)
    }

    @Test func shardsRunWithDifferentNoiseOrSeedsAreAnotherCampaign() throws {
        let directory = try makeTemporaryDirectory("merge-noise")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        #expect(Self.shard("1/2", to: path("ml/s1.json")).0 == 0)
        #expect(Self.shard("2/2", ["--noise", "3"], to: path("ml/s2.json")).0 == 0)
        let (status, output) = simrun(["merge", path("ml")])
        #expect(status == 65, "\(output)")
        #expect(output.contains("is another campaign: its noise 3"), "the difference is named: \(output)")
        #expect(!output.contains("covered:"), "\(output)")

        #expect(Self.shard("1/2", seeds: "100", to: path("ms/s1.json")).0 == 0)
        #expect(Self.shard("2/2", seeds: "50", to: path("ms/s2.json")).0 == 0)
        let seeds = simrun(["merge", path("ms")])
        #expect(seeds.0 == 65, "not 'missing seeds' (66): \(seeds.1)")
        #expect(seeds.1.contains("its seeds 0..<50"), "\(seeds.1)")

        let json = path("doc.json")
        let (_, document) = simrun(["fuzz", "lost-input-navigation", "--variant", "fixed", "--seeds", "5", "--json"])
        try Data(document.split(separator: "\n").first { $0.hasPrefix("{") }!.utf8).write(
            to: URL(fileURLWithPath: json))
        let foreign = simrun(["merge", json])
        #expect(foreign.0 == 65 && foreign.1.contains("fuzz --result FILE"), "\(foreign.1)")
    }

    @Test func aShardWithNoSeedsIsRefusedNotPassed() {
        let (status, output) = simrun([
            "fuzz", "lost-input-navigation", "--variant", "fixed", "--seeds", "3", "--shard", "4/4",
        ])
        #expect(status == 64, "\(output)")
        #expect(output.contains("holds no seed"), "\(output)")
        #expect(!output.contains("pass"), "\(output)")
    }

    @Test func anInterruptedShardIsNotReportedAsCovered() throws {
        let directory = try makeTemporaryDirectory("merge-interrupted")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        #expect(Self.shard("1/2", to: path("r/s1.json")).0 == 0)
        #expect(Self.shard("2/2", to: path("r/s2.json")).0 == 0)
        // Shard 2 as an interrupted campaign writes it: stopped, `covered` empty.
        let text = try String(contentsOfFile: path("r/s2.json"), encoding: .utf8)
        var object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        object["interrupted"] = true
        object["covered"] = [Any]()
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path("r/s2.json")))
        let (status, output) = simrun(["merge", path("r")])
        #expect(status == 130, "\(output)")
        #expect(!output.contains("covered: every seed"), "\(output)")
        #expect(output.contains("interrupted: shard 2/2"), "\(output)")
    }

    @Test func anUnwritableMergeOutNeverHidesTheFailure() throws {
        let directory = try makeTemporaryDirectory("merge-out")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        #expect(
            Self.shard("1/2", seeds: "2000", ["--out", path("t1")], variant: "buggy", to: path("rb/1.json")).0 == 1)
        #expect(
            Self.shard("2/2", seeds: "2000", ["--out", path("t2")], variant: "buggy", to: path("rb/2.json")).0 == 1)
        let blocker = path("plain")
        try Data("a file".utf8).write(to: URL(fileURLWithPath: blocker))
        let (status, output) = simrun(["merge", path("rb"), "--out", blocker + "/x"])
        #expect(status == 1, "a bug found wins over the write error: \(output)")
        #expect(output.contains("FAIL at seed"), "\(output)")
        #expect(output.contains("trace not copied"), "\(output)")
    }

    /// A result deeper than merge searches is named, with what to do; shards of different counts are
    /// named as such; the same file given twice is merged once.
    @Test func mergeSaysWhatItCouldNotUse() throws {
        let directory = try makeTemporaryDirectory("merge-messages")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        func shard(_ shard: String, _ result: String) {
            let (status, output) = Self.shard(shard, seeds: "60", to: result)
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
}
