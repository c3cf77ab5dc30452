import SimCore
import SimEngine
import Testing

/// Shard results merged into one machine's verdict: the lowest failing seed across shards, failures
/// deduplicated by signature, coverage summed, and lost, doubled or interrupted shards reported.
/// Every result goes through its JSON document, as `simrun merge` reads it.
@Suite struct CampaignMergeTests {
    struct Failure {
        var oracle: String
        var message: String
        var seed: UInt64
        var occurrences = 1
    }

    /// Shard `number` of `count`'s result document over `seeds`, read back as `merge` reads it.
    func result(
        _ number: Int, of count: Int, seeds: Range<UInt64> = 0..<1000, failures: [Failure] = [],
        keepGoing: Bool = false, interrupted: Bool = false, sometimes: [(String, Int)] = [], variant: String = "buggy",
        name: String? = nil
    ) throws -> ShardResult {
        let shard = try Shard(number: number, count: count)
        // Without keep-going a shard ran its seeds up to its first failure; interrupted: unknown.
        let through = keepGoing ? UInt64.max : failures.map(\.seed).min() ?? .max
        let covered = interrupted ? [] : [SeedProgression(shard: shard, of: seeds, through: through)].compactMap { $0 }
        let schedules = covered.reduce(0) { $0 + Int($1.count) }
        let findings = failures.map { failure -> JSONValue in
            .object([
                "signature": .string("\(failure.oracle): \(failure.message)"), "oracle": .string(failure.oracle),
                "message": .string(failure.message), "seed": .unsigned(failure.seed),
                "occurrences": .int(Int64(failure.occurrences)),
                "trace": .string("out-\(number)/t-\(failure.oracle).simtrace"),
            ])
        }
        let members: [JSONValue.Member] = [
            .init("schema", .string("simrun.result/1")), .init("command", .string("fuzz")),
            .init("verdict", .string(failures.isEmpty ? "pass" : "fail")),
            .init("exitCode", .int(failures.isEmpty ? 0 : 1)), .init("scenario", .string("counter-race")),
            .init("variant", .string(variant)), .init("strategy", .string("pct")),
            .init("seeds", .object(["from": .unsigned(seeds.lowerBound), "to": .unsigned(seeds.upperBound)])),
            .init("interrupted", .bool(interrupted)), .init("schedules", .int(Int64(schedules))),
            .init("seconds", .number(2, decimals: 3)),
            .init("failures", .int(Int64(failures.reduce(0) { $0 + $1.occurrences }))),
            .init("findings", .array(findings)),
            .init(
                "sometimes", .array(sometimes.map { .object(["goal": .string($0.0), "runs": .int(Int64($0.1))]) })),
        ]
        let extra = ShardResult.members(
            covered: covered, keepGoing: keepGoing, out: "out-\(number)", shard: shard, source: "option")
        return try ShardResult(
            parsing: JSONValue.object(members + extra).text, path: name ?? "shard-\(number).json")
    }

    @Test func theLowestFailingSeedAcrossShardsWins() throws {
        let merged = try CampaignMerge([
            try result(1, of: 4, failures: [.init(oracle: "a", message: "counter is 1", seed: 8)]),
            try result(2, of: 4, failures: [.init(oracle: "a", message: "counter is 1", seed: 5)]),
            try result(3, of: 4, failures: [.init(oracle: "b", message: "lost", seed: 2)]),
            try result(4, of: 4),
        ])
        let first = try #require(merged.findings.first)
        #expect(merged.findings.count == 1 && first.seed == 2 && first.evidence.verdict.oracle == "b")
        #expect(first.evidence.result == "shard-3.json" && first.evidence.trace == "out-3/t-b.simtrace")
        // One machine stops at seed 2: seeds 0, 1, 2 are the ones the verdict needs, and all ran.
        #expect(merged.required == 0..<3 && merged.isComplete)
        #expect(merged.failures == 1 && merged.status == .failed)
    }

    @Test func distinctFailuresAreDeduplicatedBySignatureKeepingTheLowestSeed() throws {
        let merged = try CampaignMerge([
            try result(
                1, of: 2,
                failures: [
                    .init(oracle: "a", message: "counter is 3", seed: 8, occurrences: 3),
                    .init(oracle: "b", message: "lost", seed: 12),
                ],
                keepGoing: true),
            try result(
                2, of: 2, failures: [.init(oracle: "a", message: "counter is 1", seed: 5, occurrences: 2)],
                keepGoing: true),
        ])
        let entries = merged.findings.entries
        #expect(entries.map(\.seed) == [5, 12])
        #expect(entries[0].occurrences == 5 && entries[0].evidence.verdict.message == "counter is 1")
        #expect(entries[0].evidence.result == "shard-2.json")
        #expect(merged.failures == 6 && merged.required == 0..<1000 && merged.isComplete && merged.status == .failed)
    }

    @Test func sometimesCoverageIsSummedByGoal() throws {
        let merged = try CampaignMerge([
            try result(1, of: 2, sometimes: [("typed", 10), ("tapped", 3)]),
            try result(2, of: 2, sometimes: [("typed", 7), ("tapped", 0), ("late", 1)]),
        ])
        #expect(merged.sometimes.map(\.goal) == ["typed", "tapped", "late"])
        #expect(merged.sometimes.map(\.runs) == [17, 3, 1])
        #expect(merged.schedules == 1000 && merged.status == .passed && merged.isComplete)
        #expect(merged.schedulesPerSecond == 500)  // two shards of 500 schedules in 2 s each
    }

    @Test func aMissingShardIsAnErrorNamingItsSeeds() throws {
        let merged = try CampaignMerge([try result(1, of: 4), try result(3, of: 4), try result(4, of: 4)])
        #expect(merged.status == .missing && !merged.isComplete)
        #expect(merged.coverage.missing.map(\.description) == ["seeds 1, 5, …, 997 (every 4th, 250 seeds)"])
        // A bug found is still reported as one (exit 1), with the missing seeds beside it.
        let buggy = try CampaignMerge([
            try result(1, of: 4, failures: [.init(oracle: "a", message: "x", seed: 40)]), try result(3, of: 4),
        ])
        #expect(buggy.status == .failed && buggy.required == 0..<41)
        #expect(
            buggy.coverage.missing.map(\.description) == [
                "seeds 1, 5, …, 37 (every 4th, 10 seeds)", "seeds 3, 7, …, 39 (every 4th, 10 seeds)",
            ])
    }

    @Test func overlappingShardsAreAnErrorNamingBothFiles() throws {
        let merged = try CampaignMerge([
            try result(1, of: 2), try result(2, of: 2), try result(2, of: 2, name: "shard-2-again.json"),
        ])
        #expect(merged.status == .overlapping && merged.coverage.missing.isEmpty)
        #expect(merged.coverage.overlaps.map(\.owners) == [["shard-2.json", "shard-2-again.json"]])
    }

    @Test func interruptedShardsAreReportedNotMissing() throws {
        let merged = try CampaignMerge([
            try result(1, of: 3), try result(2, of: 3, interrupted: true), try result(3, of: 3),
        ])
        #expect(merged.interrupted.map(\.shard.description) == ["2/3"])
        #expect(merged.coverage.missing.isEmpty && merged.status == .interrupted && !merged.isComplete)
        let found = try CampaignMerge([
            try result(1, of: 2, interrupted: true, name: "a.json"),
            try result(2, of: 2, failures: [.init(oracle: "a", message: "x", seed: 3)]),
        ])
        #expect(found.status == .failed && found.interrupted.count == 1)
    }

    @Test func resultsOfAnotherCampaignOrNoneAreRefused() throws {
        let results = [try result(1, of: 2), try result(2, of: 2, variant: "fixed")]
        do throws(MergeError) {
            _ = try CampaignMerge(results)
            Issue.record("merged two variants")
        } catch {
            #expect(error.kind == .inconsistent)
            #expect(error.message.contains("shard-2.json") && error.message.contains("variant"))
        }
        #expect(throws: MergeError.self) { try CampaignMerge([]) }
    }

    @Test func malformedResultFilesSayWhatIsWrong() throws {
        func reason(_ text: String) -> String? {
            do {
                _ = try ShardResult(parsing: text, path: "r.json")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(reason("{\"schema\": ")?.hasPrefix("r.json: not JSON (offset 11") == true)
        #expect(reason("{\"schema\": \"other/1\"}") == "r.json: not a simrun result document (schema simrun.result/1)")
        #expect(reason("{\"schema\": \"simrun.result/1\", \"command\": \"run\"}")?.contains("simrun fuzz") == true)
        let valid = try result(1, of: 2)
        #expect(valid.shard.description == "1/2" && valid.covered.count == 1 && valid.out == "out-1")
    }

    @Test func jsonValuesReadBackAsWritten() throws {
        let value = JSONValue.object([
            "text": .string("quote \" backslash \\ newline \n tab \t é 🐛 \u{01}"), "big": .unsigned(.max),
            "negative": .int(-5), "list": .array([.bool(true), .null, .number(1.5, decimals: 1)]),
        ])
        #expect(try JSONValue(parsing: value.text) == value)
        #expect(
            try JSONValue(parsing: " [1e3, -0.25, \"\\u00e9\\ud83d\\udc1b\"] ")
                == .array([.number(1000, decimals: 0), .number(-0.25, decimals: 2), .string("é🐛")]))
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "01x", "tru", "1 2", "\"a\u{01}\""] {
            #expect(throws: JSONParseError.self, "\(bad)") { try JSONValue(parsing: bad) }
        }
    }
}
