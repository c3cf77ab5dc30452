import SimEngine
import Testing

/// The seed formula: index `i` of shard `k` of `n` runs `lower + i*n + k`; shards split the seeds
/// exactly, and the space ends where the range (or UInt64) does.
@Suite struct SeedSpaceTests {
    @Test func indicesMapToSeedsOfTheirShard() {
        let space = SeedSpace(seeds: 10..<20, shardIndex: 1, shardCount: 3)
        #expect((0..<5).map { space.seed(at: $0) } == [11, 14, 17, nil, nil])
        #expect(space.count == 3)
    }

    @Test func shardsTogetherRunEverySeedOnce() {
        let seeds: Range<UInt64> = 7..<1_007
        for count in 1...5 {
            var all: [UInt64] = []
            for index in 0..<count {
                let space = SeedSpace(seeds: seeds, shardIndex: index, shardCount: count)
                let mine = (0..<UInt64(seeds.count)).compactMap { space.seed(at: $0) }
                #expect(UInt64(mine.count) == space.count)
                all += mine
            }
            #expect(all.sorted() == Array(seeds), "\(count) shards")
        }
    }

    @Test func anUnboundedSpaceEndsOnlyWhereTheFormulaWouldOverflow() {
        let space = SeedSpace(seeds: 5..<6, shardIndex: 0, shardCount: 2, bounded: false)
        #expect(space.seed(at: 1_000) == 2_005)
        #expect(space.count == nil)
        #expect(space.seed(at: .max / 2) == nil)
        #expect(SeedSpace(seeds: (.max - 1)..<(.max), bounded: false).seed(at: 2) == nil)
    }

    @Test func chunksAreFixedSizeAndStopBeforeOverflow() {
        #expect(SeedSpace.chunk(startingAt: 128) == 128..<(128 + SeedSpace.chunkSize))
        #expect(SeedSpace.chunk(startingAt: .max - 3) == nil)
    }
}
