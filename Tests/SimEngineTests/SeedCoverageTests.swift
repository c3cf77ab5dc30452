import SimEngine
import Testing

/// The seeds shards covered, checked against the campaign's: what is missing (a lost shard), what is
/// covered twice (a shard run twice, counts that disagree), named as seeds.
@Suite struct SeedCoverageTests {
    func shard(_ number: Int, of count: Int, _ seeds: Range<UInt64>, through: UInt64 = .max) throws
        -> SeedCoverage.Piece
    {
        let progression = try #require(
            SeedProgression(shard: try Shard(number: number, count: count), of: seeds, through: through))
        return .init(progression, owner: "shard-\(number).json")
    }

    @Test func progressionsOfAShardAndTheirNames() throws {
        let second = try #require(SeedProgression(shard: try Shard(number: 2, count: 4), of: 0..<1000))
        #expect(second.first == 1 && second.last == 997 && second.step == 4 && second.count == 250)
        #expect(second.description == "seeds 1, 5, …, 997 (every 4th, 250 seeds)")
        #expect(second.contains(5) && !second.contains(6) && !second.contains(1001))
        let stopped = try #require(SeedProgression(shard: try Shard(number: 2, count: 4), of: 0..<1000, through: 10))
        #expect(stopped.last == 9 && stopped.description == "seeds 1, 5, 9")
        #expect(SeedProgression(shard: try Shard(number: 4, count: 4), of: 0..<3) == nil)
        #expect(SeedProgression(first: 100, last: 199)?.description == "seeds 100…199 (100 seeds)")
        #expect(SeedProgression(first: 7, last: 7)?.description == "seed 7")
        #expect(SeedProgression(first: 3, last: 10, step: 2) == nil)
    }

    @Test func fourShardsCoverTheCampaignExactlyOnce() throws {
        let pieces = try (1...4).map { try shard($0, of: 4, 0..<1000) }
        let coverage = try SeedCoverage(required: 0..<1000, pieces: pieces)
        #expect(coverage.missing.isEmpty && coverage.overlaps.isEmpty)
    }

    @Test func aLostShardIsNamedSeedBySeed() throws {
        let pieces = try [1, 3, 4].map { try shard($0, of: 4, 0..<1000) }
        let coverage = try SeedCoverage(required: 0..<1000, pieces: pieces)
        #expect(coverage.missing.map(\.description) == ["seeds 1, 5, …, 997 (every 4th, 250 seeds)"])
        #expect(coverage.missingCount == 250 && coverage.overlaps.isEmpty)
    }

    @Test func onlySeedsUpToTheLowestFailureAreRequired() throws {
        // Shard 2 stopped at its failure, seed 9; shard 4 is lost, but its seeds are all above 9 … except 3 and 7.
        var pieces = try [1, 3].map { try shard($0, of: 4, 0..<1000) }
        pieces.append(try shard(2, of: 4, 0..<1000, through: 9))
        #expect(try SeedCoverage(required: 0..<10, pieces: pieces).missing.map(\.description) == ["seeds 3, 7"])
        pieces.append(try shard(4, of: 4, 0..<1000, through: 7))
        #expect(try SeedCoverage(required: 0..<10, pieces: pieces).missing.isEmpty)
    }

    @Test func aShardRunTwiceIsAnOverlapNamingBothFiles() throws {
        var pieces = try (1...4).map { try shard($0, of: 4, 0..<100) }
        pieces.append(.init(try #require(SeedProgression(first: 2, last: 98, step: 4)), owner: "again.json"))
        let coverage = try SeedCoverage(required: 0..<100, pieces: pieces)
        #expect(coverage.missing.isEmpty)
        #expect(coverage.overlaps.count == 1)
        #expect(coverage.overlaps.first?.seeds.description == "seeds 2, 6, …, 98 (every 4th, 25 seeds)")
        #expect(coverage.overlaps.first?.owners == ["shard-3.json", "again.json"])
    }

    @Test func splitsThatDisagreeAreCheckedSeedBySeed() throws {
        // Two shards of 2 plus shard 1 of 4: seeds 0, 4, 8, … run twice; nothing missing.
        let pieces = try [shard(1, of: 2, 0..<16), shard(2, of: 2, 0..<16), shard(1, of: 4, 0..<16)]
        let coverage = try SeedCoverage(required: 0..<16, pieces: pieces)
        #expect(coverage.missing.isEmpty)
        #expect(coverage.overlaps.map(\.seeds.description) == ["seeds 0, 4, 8, 12"])
        // Shard 1 of 2 and shard 2 of 4 leave seeds 3, 7, 11, 15.
        let gappy = try SeedCoverage(required: 0..<16, pieces: [shard(1, of: 2, 0..<16), shard(2, of: 4, 0..<16)])
        #expect(gappy.missing.map(\.description) == ["seeds 3, 7, 11, 15"])
    }

    @Test func aMissingStretchOfEveryShardIsOneRange() throws {
        // Two campaigns' results, 0..<100 and 200..<300, each in 4 shards: 100…199 is missing.
        let pieces = try (1...4).flatMap { [try shard($0, of: 4, 0..<100), try shard($0, of: 4, 200..<300)] }
        let coverage = try SeedCoverage(required: 0..<300, pieces: pieces)
        #expect(coverage.missing.map(\.description) == ["seeds 100…199 (100 seeds)"])
        #expect(try SeedCoverage(required: 0..<50, pieces: []).missing.map(\.description) == ["seeds 0…49 (50 seeds)"])
    }

    @Test func splitsWithNoSmallCommonStepAreRefused() throws {
        let pieces = [
            SeedCoverage.Piece(try #require(SeedProgression(first: 0, last: 65_521 * 2, step: 65_521)), owner: "a"),
            SeedCoverage.Piece(try #require(SeedProgression(first: 0, last: 65_519 * 2, step: 65_519)), owner: "b"),
        ]
        #expect(throws: CoverageError.self) { try SeedCoverage(required: 0..<10, pieces: pieces) }
    }
}
