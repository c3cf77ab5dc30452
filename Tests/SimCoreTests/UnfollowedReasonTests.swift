import SimCore
import SimTestSupport
import Testing

/// What a replay by identity saw of a departure it could not follow (`ScheduleStrategy.Unfollowed`),
/// one variant per reason: the recorded departure is `b/read before a/write`, and each variant
/// changes what happens to those two jobs (issue #43).
@Suite struct UnfollowedReasonTests {
    static let pair = Scenario(
        name: "pair", summary: "",
        variants: [
            .init("recorded", "a/write and b/read, both ready from the start"),
            .init("read-older", "b/read posted first: it meets a/write as the older job"),
            .init("no-write", "a/write is gone"), .init("write-cancelled", "a/write runs as a/write.cancelled"),
            .init("no-read", "b/read is gone"), .init("read-cancelled", "b/read runs as b/read.cancelled"),
            .init("read-after", "a/write posts b/read"), .init("write-after", "b/read posts a/write"),
        ]
    ) { sim, variant in
        let write = { sim.post(on: "a", variant == "write-cancelled" ? "write.cancelled" : "write") {} }
        let read = {
            sim.post(on: "b", variant == "read-cancelled" ? "read.cancelled" : "read") {
                if variant == "write-after" { write() }
            }
        }
        switch variant {
        case "read-older":
            read()
            write()
        case "no-write": read()
        case "no-read": write()
        case "read-after": sim.post(on: "a", "write") { read() }
        case "write-after": read()
        default:
            write()
            read()
        }
    }

    /// The recorded schedule: b/read#1 taken ahead of a/write#1, read back by identity.
    static func schedule() -> Schedule {
        let observer = ScheduleObserver(GuidedStrategy(choices: [1]))
        let ledger = JobLedger()
        _ = pair.run(variant: "recorded", seed: 0, strategy: observer, sink: ledger)
        var schedule = observer.schedule
        schedule.jobs = ledger.jobs.union(observer.offered)
        return schedule
    }

    static func unfollowed(on variant: String, schedule: Schedule = schedule()) throws
        -> ScheduleStrategy.Unfollowed
    {
        let strategy = ScheduleStrategy(schedule: schedule)
        let ledger = JobLedger(known: schedule.jobs)
        strategy.ledger = ledger
        _ = pair.run(variant: variant, seed: 0, strategy: strategy, sink: ledger)
        let missed = strategy.unfollowedDeviations(ran: ledger)
        #expect(missed.count == 1, "\(variant): \(missed)")
        return try #require(missed.first)
    }

    @Test func theRecordedScheduleIsFollowedOnItsOwnCode() throws {
        let schedule = Self.schedule()
        #expect(schedule.entries.first?.summary == "b/read#1 before a/write#1")
        let strategy = ScheduleStrategy(schedule: schedule)
        _ = Self.pair.run(variant: "recorded", seed: 0, strategy: strategy)
        #expect(strategy.unfollowedDeviations().isEmpty && strategy.tally.isConclusive)
    }

    @Test(arguments: [
        ("read-older", ScheduleStrategy.Unfollowed.Reason.neverAhead, false),
        ("no-write", .vanished, false), ("write-cancelled", .vanished, true),
        ("no-read", .missing, false), ("read-cancelled", .missing, true),
        ("read-after", .ordered, false), ("write-after", .apart, false),
    ])
    func eachVariantIsSeenForWhatItDidToTheRace(
        _ variant: String, _ reason: ScheduleStrategy.Unfollowed.Reason, _ cancelled: Bool
    ) throws {
        let missed = try Self.unfollowed(on: variant)
        #expect(missed.reason == reason, "\(variant): \(missed.why)")
        #expect(missed.cancelled == cancelled, "\(variant): \(missed.why)")
        if reason == .vanished { #expect(missed.vanished == [JobKey(lane: "a", label: "write", ordinal: 1)]) }
        if cancelled { #expect(missed.why.contains(".cancelled instead"), "\(missed.why)") }
    }

    @Test func aDepartureWhoseOvertakenJobsAreNotNamedIsUnnamed() throws {
        var schedule = Self.schedule()
        schedule.entries[0].overtaken = []
        schedule.entries[0].fifo = nil
        let missed = try Self.unfollowed(on: "recorded", schedule: schedule)
        #expect(missed.reason == .unnamed)
        #expect(missed.why.contains("the trace does not name the jobs b/read#1 went ahead of"), "\(missed.why)")
    }
}
