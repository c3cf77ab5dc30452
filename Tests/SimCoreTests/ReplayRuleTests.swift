import SimCore
import SimTestSupport
import Testing

/// The bookkeeping beneath every replay verdict: which recorded decisions a replay followed, which
/// it could not, and which verdicts are failures. A replay that miscounts here turns an untested fix
/// into a pass, so each rule is pinned on a small run whose answer is known.
@Suite struct ReplayRuleTests {
    /// Lane `a` posts `a.write`, lane `b` posts `b.read`; `c.first` (lane c) is posted before both.
    /// Variant `later`: `c.first` posts `a.write` when it runs, so `b.read` is ready before the job
    /// it overtook in the recording exists.
    static let partner = Scenario(
        name: "race-partner", summary: "a departure and the job it overtook",
        variants: [.init("recorded", "three jobs at once"), .init("later", "the write is posted by c.first")]
    ) { sim, variant in
        let log = OrderLog()
        sim.post(on: "c", "c.first") {
            log.append("c.first")
            if variant == "later" { sim.post(on: "a", "a.write") { log.append("a.write") } }
        }
        if variant != "later" { sim.post(on: "a", "a.write") { log.append("a.write") } }
        sim.post(on: "b", "b.read") { log.append("b.read") }
    }

    /// The order of the jobs a run of `scenario` ran (from its `sched.pick` events).
    static func order(_ scenario: Scenario, _ variant: String, _ strategy: any Strategy) -> [String] {
        let sink = MemorySink()
        _ = scenario.run(variant: variant, seed: 0, strategy: strategy, sink: sink)
        return sink.events.filter { sink.text($0.kind) == "sched.pick" }.map { sink.text($0.subject) }
    }

    // MARK: ReplayStrategy (tape by identity)

    @Test func aTapePickWhoseJobIsNotReadyIsADepartureNotAFollowedDecision() throws {
        // Recorded: b.read taken ahead of a.write (decision 2). Replayed on code without lane b.
        let recorded = Self.partner.run(variant: "recorded", seed: 0, strategy: GuidedStrategy(choices: [0, 1]))
        #expect(recorded.tape.count == 2)
        let replay = ReplayStrategy(tape: recorded.tape)
        let withoutRead = Scenario(name: "race-partner", summary: "", variants: [.init("recorded", "")]) { sim, _ in
            sim.post(on: "c", "c.first") {}
            sim.post(on: "a", "a.write") {}
            sim.post(on: "x", "x.other") {}
        }
        _ = withoutRead.run(variant: "recorded", seed: 0, strategy: replay)
        #expect(replay.departures == 1, "the pick of b/b.read#1 could not be followed: \(replay.notes)")
        #expect(replay.tally.decisions == 2)
        #expect(replay.tally.followed == 1, "\(replay.tally)")
        #expect(replay.tally.deviations == 1 && replay.tally.followedDeviations == 0)
        #expect(!replay.tally.isConclusive)
        #expect(!replay.followedExactly)
        #expect(replay.notes.contains { $0.contains("decision 2: job b/b.read#1 is not ready") }, "\(replay.notes)")
        #expect(replay.tally.line == "followed 1 of 2 decisions (0 of 1 non-fifo)")
    }

    @Test func aRecordedDataDecisionMetByADecisionOfAnotherKindIsADepartureNotAFollowedDecision() {
        // Recorded: a `choose` of 4 that took 1 (a departure from the default 0). Replayed on code
        // whose job asks, at that point, for a buggify: 1 would fit its two options, but it is not
        // the recorded decision, so the replay takes the default and counts a departure.
        let draw = { (buggify: Bool) in
            Scenario(name: "data-kind", summary: "", variants: [.init("v", "")]) { sim, _ in
                sim.post(on: "a", "a.draw") { _ = buggify ? (sim.buggify("draw") ? 1 : 0) : sim.choose(4, "draw") }
            }
        }
        let recorded = draw(false).run(variant: "v", seed: 0, strategy: GuidedStrategy(choices: [1]))
        #expect(recorded.tape.count == 1 && recorded.tape.decisions.first?.chosen == 1)
        let replay = ReplayStrategy(tape: recorded.tape)
        _ = draw(true).run(variant: "v", seed: 0, strategy: replay)
        #expect(replay.departures == 1, "\(replay.notes)")
        #expect(replay.tally == ScheduleTally(decisions: 1, followed: 0, deviations: 1, followedDeviations: 0))
        #expect(!replay.tally.isConclusive && !replay.followedExactly)
        #expect(replay.notes.contains { $0.contains("the run asks for buggify of 2") }, "\(replay.notes)")
    }

    @Test func aTapeFollowedOnItsOwnCodeCountsEveryDecisionFollowed() {
        let recorded = Self.partner.run(variant: "recorded", seed: 0, strategy: GuidedStrategy(choices: [0, 1]))
        let replay = ReplayStrategy(tape: recorded.tape)
        #expect(Self.order(Self.partner, "recorded", replay) == ["c.first", "b.read", "a.write"])
        #expect(replay.departures == 0 && replay.followedExactly && replay.consumed == 2)
        #expect(replay.tally == ScheduleTally(decisions: 2, followed: 2, deviations: 1, followedDeviations: 1))
    }

    @Test func aTapeNamesAJobByOrdinalNotJustByLaneAndLabel() {
        // Two timers of one label on one lane, due together: both are candidates, `tick#1` and `tick#2`.
        // Each order recorded must replay as recorded: a replay that ignores the ordinal takes the
        // first `tick` it sees whichever the tape named.
        let ticks = Scenario(name: "ticks", summary: "", variants: [.init("two", "")]) { sim, _ in
            let lane = sim.lane("t")
            sim.after(.seconds(1), on: lane, "tick") { sim.emit("fired", "first-set") }
            sim.after(.seconds(1), on: lane, "tick") { sim.emit("fired", "second-set") }
        }
        func fired(_ strategy: any Strategy) -> [String] {
            let sink = MemorySink()
            _ = ticks.run(variant: "two", seed: 0, strategy: strategy, sink: sink)
            return sink.events.filter { sink.text($0.kind) == "fired" }.map { sink.text($0.subject) }
        }
        var orders: Set<[String]> = []
        for choice in [UInt32(0), 1] {
            let recorded = ticks.run(variant: "two", seed: 0, strategy: GuidedStrategy(choices: [choice]))
            #expect(recorded.tape.count == 1, "two due timers are one decision")
            let expected = fired(GuidedStrategy(choices: [choice]))
            orders.insert(expected)
            let replay = ReplayStrategy(tape: recorded.tape)
            #expect(fired(replay) == expected, "tape \(recorded.tape.decisions) replayed out of order")
            #expect(replay.followedExactly && replay.tally.followed == 1)
        }
        #expect(orders == [["first-set", "second-set"], ["second-set", "first-set"]])
    }

    // MARK: ScheduleStrategy (a schedule by identity, on other code)

    /// The schedule of `recorded` with b.read taken ahead of a.write, read back by identity.
    static func departureSchedule() -> Schedule {
        let observer = ScheduleObserver(GuidedStrategy(choices: [0, 1]))
        let ledger = JobLedger()
        _ = partner.run(variant: "recorded", seed: 0, strategy: observer, sink: ledger)
        var schedule = observer.schedule
        schedule.jobs = ledger.jobs.union(observer.offered)
        return schedule
    }

    @Test func aDepartureWaitsUntilAJobItOvertookIsNext() throws {
        let schedule = Self.departureSchedule()
        let departure = try #require(schedule.deviations.first.map { schedule.entries[$0] })
        #expect(departure.summary == "b/b.read#1 before a/a.write#1")
        #expect(departure.overtaken == [JobKey(lane: "a", label: "a.write", ordinal: 1)])
        // On its own code the schedule gives the recorded order: at the first pick the job fifo
        // would run is c.first, which b.read never overtook, so b.read must wait for a.write.
        let strategy = ScheduleStrategy(schedule: schedule)
        #expect(Self.order(Self.partner, "recorded", strategy) == ["c.first", "b.read", "a.write"])
        #expect(strategy.tally == ScheduleTally(decisions: 2, followed: 2, deviations: 1, followedDeviations: 1))
        #expect(strategy.unfollowedDeviations().isEmpty)
    }

    @Test func aDepartureWhosePartnerComesLaterIsNotFollowed() throws {
        // On `later`, b.read is ready at the first pick but a.write does not exist yet: the recorded
        // race (b.read ahead of a.write) cannot happen then, and when a.write appears, b.read is older.
        let strategy = ScheduleStrategy(schedule: Self.departureSchedule())
        let ledger = JobLedger(known: Self.departureSchedule().jobs ?? [])
        strategy.ledger = ledger
        let sink = MemorySink()
        _ = Self.partner.run(variant: "later", seed: 0, strategy: strategy, sink: sink)
        let order = sink.events.filter { sink.text($0.kind) == "sched.pick" }.map { sink.text($0.subject) }
        #expect(order == ["c.first", "b.read", "a.write"], "b.read is not taken ahead of c.first")
        #expect(strategy.tally.followedDeviations == 0 && strategy.tally.deviations == 1, "\(strategy.tally)")
        #expect(!strategy.tally.isConclusive)
        let unfollowed = try #require(strategy.unfollowedDeviations(ran: ledger).first)
        #expect(unfollowed.entry.summary == "b/b.read#1 before a/a.write#1")
        #expect(unfollowed.reason != .ordered, "a.write ran after b.read: the race is not gone, just missed")
    }

    @Test func workTheRecordingNeverHadRunsWhereItBecomesReady() {
        // `n.new` is posted last, on code the schedule was not recorded from: it runs first (it is
        // ready from the start), then the recorded race goes as recorded.
        let strategy = ScheduleStrategy(schedule: Self.departureSchedule())
        let withNewWork = Scenario(name: "race-partner", summary: "", variants: [.init("recorded", "")]) { sim, _ in
            Self.partner.setUp(sim, "recorded")
            sim.post(on: "n", "n.new") {}
        }
        #expect(Self.order(withNewWork, "recorded", strategy) == ["n.new", "c.first", "b.read", "a.write"])
        #expect(strategy.tally.followedDeviations == 1)
    }

    @Test func aRecordedDataDecisionIsFollowedByIdentityOnlyWhereItsValueFits() {
        // Recorded: a `choose` of 4 that took 2. Followed by identity on the same code, the run draws
        // 2; on code that asks the same site for a choose of 2, the recorded 2 does not fit: the run
        // takes the default, and the decision is not counted followed.
        let draw = { (options: Int) in
            Scenario(name: "data-draw", summary: "", variants: [.init("v", "")]) { sim, _ in
                sim.post(on: "a", "a.draw") { sim.emit("drew", "\(sim.choose(options, "draw"))") }
            }
        }
        let observer = ScheduleObserver(GuidedStrategy(choices: [2]))
        _ = draw(4).run(variant: "v", seed: 0, strategy: observer)
        let schedule = observer.schedule
        func drew(_ scenario: Scenario, _ strategy: any Strategy) -> [String] {
            let sink = MemorySink()
            _ = scenario.run(variant: "v", seed: 0, strategy: strategy, sink: sink)
            return sink.events.filter { sink.text($0.kind) == "drew" }.map { sink.text($0.subject) }
        }
        let same = ScheduleStrategy(schedule: schedule)
        #expect(drew(draw(4), same) == ["2"])
        #expect(same.tally.followed == same.tally.decisions && same.tally.decisions >= 1, "\(same.tally)")
        let narrower = ScheduleStrategy(schedule: schedule)
        #expect(drew(draw(2), narrower) == ["0"])
        #expect(narrower.tally.followed == narrower.tally.decisions - 1, "\(narrower.tally)")
    }

    // MARK: Verdicts

    @Test func everyVerdictButPassIsAFailure() {
        let failures: [Verdict] = [
            .fail(oracle: "o", message: "m"), .stepLimit(10), .timeLimit(5), .pending("1 effect still running"),
            .crashed("trap"), .deadlock("a waits on b"),
        ]
        #expect(!Verdict.pass.isFailure)
        for verdict in failures {
            #expect(verdict.isFailure, "\(verdict) must count as a failure")
        }
        // Each kind has its own stored code, and reads back as itself (the footer keeps verdicts).
        let all = [Verdict.pass] + failures
        #expect(Set(all.map(\.code)).count == all.count)
        for verdict in all {
            #expect(Verdict(code: verdict.code, oracle: verdict.oracle, message: verdict.message) == verdict)
        }
        #expect(Verdict.pending("1 effect still running").description == "pending-work: 1 effect still running")
    }

    @Test func aRunEndingWithPendingWorkFailsAndSaysWhatIsPending() {
        let result = simulate { sim in
            sim.post(on: "main", "start") {}
            sim.pendingWork("effects") { "1 effect still running: fetch" }
        }
        #expect(result.verdict.isFailure)
        #expect(result.verdict.oracle == "pending-work")
        #expect(result.verdict.message.contains("1 effect still running: fetch"), "\(result.verdict)")
    }
}
