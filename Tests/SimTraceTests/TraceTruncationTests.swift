import SimCore
import Testing

@testable import SimTrace

@Suite struct TraceTruncationTests {
    /// A trace with a checkpoint every 50 events, and its frame boundaries.
    static func fixture() throws -> (bytes: [UInt8], run: TraceFixtures.Run) {
        try TraceFixtures.memoryTrace(count: 1_000, checkpointEvery: 50)
    }

    /// What a reader must yield when the file is cut at `cut`: the events up to the last whole frame.
    static func expectedEvents(cut: Int, run: TraceFixtures.Run) -> [Event] {
        var count = 0
        for (index, boundary) in run.boundaries.enumerated().dropFirst() where boundary <= UInt64(cut) {
            count = run.checkpointEvents[index - 1]
        }
        return Array(run.events.prefix(count))
    }

    @Test func cutAtEveryCheckpointReadsExactlyThePrefix() throws {
        let (bytes, run) = try Self.fixture()
        #expect(run.boundaries.count == 21)
        for boundary in run.boundaries.dropFirst() {
            for cut in [Int(boundary), Int(boundary) + 1, Int(boundary) - 1] where cut < bytes.count {
                let (records, reader, error) = TraceFixtures.readAll(Array(bytes.prefix(cut)))
                #expect(error == nil, "cut at \(cut): \(String(describing: error))")
                #expect(reader?.isTruncated == true)
                #expect(TraceFixtures.events(records) == Self.expectedEvents(cut: cut, run: run))
                if let last = records.last {
                    #expect(TraceFixtures.isCheckpoint(last), "a cut trace ends at a checkpoint")
                }
            }
        }
    }

    @Test func cutAtRandomBytesReadsAPrefixOrFailsInTheHeader() throws {
        let (bytes, run) = try Self.fixture()
        var rng = SplitMix64(seed: 2024)
        let headerEnd = Int(run.boundaries[0])
        for _ in 0..<200 {
            let cut = rng.below(bytes.count)
            let (records, reader, error) = TraceFixtures.readAll(Array(bytes.prefix(cut)))
            if cut < headerEnd {
                #expect(error?.kind == .truncatedHeader, "cut at \(cut) inside the header frame")
                continue
            }
            #expect(error == nil, "cut at \(cut): \(String(describing: error))")
            #expect(reader?.isTruncated == true)
            #expect(TraceFixtures.events(records) == Self.expectedEvents(cut: cut, run: run))
        }
    }

    @Test func completeTraceIsNotTruncated() throws {
        let (bytes, run) = try Self.fixture()
        let (records, reader, error) = TraceFixtures.readAll(bytes)
        #expect(error == nil)
        #expect(reader?.isTruncated == false)
        #expect(TraceFixtures.events(records) == run.events)
    }

    @Test func truncatedTraceLoadsWithoutFooter() throws {
        let (bytes, run) = try Self.fixture()
        let cut = Int(run.boundaries[5]) + 3
        let trace = try TraceFile.load(bytes: Array(bytes.prefix(cut)), name: "cut")
        #expect(trace.isTruncated && trace.footer == nil)
        #expect(trace.events == Array(run.events.prefix(250)))
    }

    @Test func randomByteFlipsGiveAPrefixOrATypedError() throws {
        let (bytes, run) = try Self.fixture()
        var rng = SplitMix64(seed: 99)
        var errors = 0
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<(1 + rng.below(3)) {
                damaged[rng.below(damaged.count)] ^= UInt8(1 + rng.below(255))
            }
            let (records, _, error) = TraceFixtures.readAll(damaged)
            let events = TraceFixtures.events(records)
            #expect(events.count <= run.events.count)
            #expect(events == Array(run.events.prefix(events.count)), "what was read is a prefix")
            if error != nil { errors += 1 }
        }
        #expect(errors > 250, "checksums catch nearly every flip")
    }

    @Test func loadingAFlippedTraceNeverCrashes() throws {
        let (bytes, _) = try TraceFixtures.memoryTrace(count: 200, eventsPerFrame: 20)
        var rng = SplitMix64(seed: 5)
        for _ in 0..<100 {
            var damaged = bytes
            damaged[rng.below(damaged.count)] ^= 0x10
            _ = try? TraceFile.load(bytes: damaged, name: "flip")
        }
    }
}
