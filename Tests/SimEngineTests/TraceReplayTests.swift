import Foundation
import SimCore
import SimTestSupport
import Testing

@testable import SimEngine
@testable import SimTrace

/// What `TraceReplay` decides, pinned where a wrong answer would look like a pass: a departure
/// followed without the job it overtook, a trace that no longer re-runs on its own variant, a footer
/// whose digest lies, a tape that names one of two jobs of the same label, a trace that is a prefix
/// of another, and a run that ends with work still pending. Each test checks the typed verdict the
/// CLI, `--json` and SimTesting present (ReplayCommandTests keeps what the command prints).
@Suite struct TraceReplayTests {
    /// Lane `a` posts `a.write`, lane `b` posts `b.read`, after `c.first` on lane c. `recorded` fails
    /// when the read runs before the write. `fixed` keeps the jobs and the race but not the bug. In
    /// `later`, c.first posts the write when it runs: the read is ready before the write exists and
    /// is older than it, so the recorded race (read ahead of write) cannot happen there.
    static let partner = Scenario(
        name: "race-partner", summary: "a departure and the job it overtook",
        variants: [
            .init("recorded", "read before write fails"), .init("fixed", "the same race, no bug"),
            .init("later", "the write is posted by c.first"),
        ]
    ) { sim, variant in
        let written = ValueBox(false)
        let readEarly = ValueBox(false)
        let write = { sim.post(on: "a", "a.write") { written.value = true } }
        sim.post(on: "c", "c.first") { if variant == "later" { write() } }
        if variant != "later" { write() }
        sim.post(on: "b", "b.read") { if !written.value && variant == "recorded" { readEarly.value = true } }
        sim.always("read-after-write") { readEarly.value ? "the read ran before the write" : nil }
    }

    /// A failing trace of `partner`/recorded: c.first by fifo, then b.read ahead of a.write.
    static func partnerTrace(_ directory: URL) throws -> String {
        let path = directory.appendingPathComponent("partner.simtrace").path
        let plan = RunPlan.probed(scenario: partner, variant: "recorded", strategy: StrategySpec(kind: .random))
        let result = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [0, 1]), strategyName: "random", to: path)
        #expect(result.verdict.isFailure && result.deviations == 1 && result.tape.count == 2, "\(result.verdict)")
        return path
    }

    static func decide(_ trace: String, variant: String? = nil, _ scenarios: [Scenario]) throws -> ReplayReport {
        try TraceReplay.decide(ReplayRequest(trace: trace, variant: variant), catalog: ScenarioCatalog(scenarios))
    }

    // MARK: A departure is followed only where the job it overtook is next

    @Test func aRaceFollowedOnTheFixIsAConclusivePass() throws {
        let directory = try makeTemporaryDirectory("partner")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Self.decide(try Self.partnerTrace(directory), variant: "fixed", [Self.partner])
        #expect(report.verdict == .pass(raceRemoved: nil), "\(report.verdict)")
        #expect(report.onOtherVariant && report.outcome == .pass)
        #expect(report.tally.decisions == 2 && report.tally.followed == 2, "\(report.tally.line)")
        #expect(report.tally.deviations == 1 && report.tally.followedDeviations == 1, "\(report.tally.line)")
    }

    @Test func aDepartureReadyBeforeItsPartnerExistsIsNotFollowedSoThePassIsInconclusive() throws {
        // On `later` the read could run first only by overtaking c.first, which it never did in the
        // recording: the recorded race never happens, so the passing run tested nothing.
        let directory = try makeTemporaryDirectory("partner")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try Self.decide(try Self.partnerTrace(directory), variant: "later", [Self.partner])
        guard case .inconclusive(.unfollowed(let decisions)) = report.verdict else {
            Issue.record("not inconclusive for an unfollowed decision: \(report.verdict)")
            return
        }
        #expect(decisions.map(\.summary) == ["b/b.read#1 before a/a.write#1"], "\(decisions)")
        #expect(decisions.map(\.number) == [2])
        #expect(report.tally.deviations == 1 && report.tally.followedDeviations == 0, "\(report.tally.line)")
        #expect(report.outcome == .pass, "the run passed, off the recorded schedule")
    }

    // MARK: A schedule that does not re-run on its own variant cannot be followed by identity

    /// `trailing-choice`: the read-before-write race. In `older` (the build that recorded the trace)
    /// the read also asks a data question whose answer changes no event; the current code does not
    /// ask it. Both have a `fixed` variant without the bug.
    static func trailingChoice(older: Bool) -> Scenario {
        Scenario(
            name: "trailing-choice", summary: "",
            variants: [.init("buggy", "read before write fails"), .init("fixed", "no bug")]
        ) { sim, variant in
            let written = ValueBox(false)
            let readEarly = ValueBox(false)
            sim.post(on: "a", "a.write") { written.value = true }
            sim.post(on: "b", "b.read") {
                if !written.value && variant == "buggy" { readEarly.value = true }
                if older { _ = sim.choose(2, "retry") }
            }
            sim.always("read-after-write") { readEarly.value ? "the read ran before the write" : nil }
        }
    }

    @Test func aTraceWhoseTapeIsLongerThanItsOwnVariantsRunIsInconclusiveOnTheFix() throws {
        let directory = try makeTemporaryDirectory("trailing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("older.simtrace").path
        let older = Self.trailingChoice(older: true)
        let plan = RunPlan.probed(scenario: older, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [1]), strategyName: "random", to: path)
        #expect(recorded.verdict.isFailure && recorded.tape.count == 2, "a pick and the data decision")
        // With the code that recorded it, the fix is tested on the recorded race.
        #expect(try Self.decide(path, variant: "fixed", [older]).verdict == .pass(raceRemoved: nil))
        // The current code re-runs the same events (the digest matches) but uses one decision fewer:
        // the schedule is not the one recorded, so a pass on the fix says nothing.
        let current = Self.trailingChoice(older: false)
        #expect(
            current.run(variant: "buggy", seed: 0, strategy: ReplayStrategy(tape: recorded.tape)).digest
                == recorded.digest)
        let report = try Self.decide(path, variant: "fixed", [current])
        guard case .inconclusive(.scheduleProblem(let problem)) = report.verdict else {
            Issue.record("not inconclusive for the schedule: \(report.verdict)")
            return
        }
        #expect(problem.contains("does not re-run on its own variant buggy"), "\(problem)")
    }

    // MARK: A footer whose digest lies is not "identical"

    /// Forwards a run's records to a trace encoder, which writes whatever footer it is given.
    private final class EncoderSink: EventSink {
        let encoder: TraceEncoder
        init(_ encoder: TraceEncoder) { self.encoder = encoder }
        func define(_ symbol: Symbol, _ text: String) { encoder.define(symbol, text) }
        func record(_ event: Event) { encoder.record(event) }
        func record(_ decision: Decision) { encoder.record(decision) }
    }

    @Test func aTraceWhoseFooterDigestDiffersFromItsEventsDoesNotReplayIdentically() throws {
        let directory = try makeTemporaryDirectory("lying-footer")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(scenario: Self.partner, variant: "recorded", strategy: StrategySpec(kind: .random))
        let header = TraceHeader(
            toolVersion: "test", scenario: "race-partner", variant: "recorded", seed: 0, strategy: "random",
            options: plan.options.map { TraceOption($0.0, $0.1) })
        let output = MemoryOutput()
        let encoder = try TraceEncoder(
            output: output, file: "lie", header: header, compressionLevel: 1, eventsPerFrame: 100)
        let result = plan.run(seed: 0, strategy: GuidedStrategy(choices: [0, 1]), sink: EncoderSink(encoder))
        var footer = Recorder.footer(for: result)
        footer.digest = Digest(value: result.digest.value ^ 1)
        try encoder.finish(footer, verifying: false)
        let path = directory.appendingPathComponent("lie.simtrace")
        try Data(output.bytes).write(to: path)
        // Every event matches, the verdict matches: only the recorded digest differs.
        let report = try Self.decide(path.path, [Self.partner])
        guard case .diverged(_, let lines) = report.verdict else {
            Issue.record("a lying footer replayed as \(report.verdict)")
            return
        }
        #expect(lines.first?.hasPrefix("digest differs: recorded ") == true, "\(lines)")
        #expect(report.outcome == result.verdict)
    }

    // MARK: A tape names a job by ordinal

    /// Two timers of one label on one lane, due together; each emits which one it is.
    static let ticks = Scenario(name: "two-ticks", summary: "", variants: [.init("buggy", "")]) { sim, _ in
        let lane = sim.lane("t")
        sim.after(.seconds(1), on: lane, "tick") { sim.emit("fired", "first-set") }
        sim.after(.seconds(1), on: lane, "tick") { sim.emit("fired", "second-set") }
    }

    @Test(arguments: [UInt32(0), 1])
    func aTraceTakingEitherOfTwoJobsOfOneLabelReplaysIdentically(_ choice: UInt32) throws {
        let directory = try makeTemporaryDirectory("ticks")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ticks-\(choice).simtrace").path
        let plan = RunPlan.probed(scenario: Self.ticks, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [choice]), strategyName: "random", to: path)
        #expect(recorded.tape.count == 1)
        let report = try Self.decide(path, [Self.ticks])
        #expect(report.verdict == .identical, "\(report.verdict)")
        #expect(report.digest == recorded.digest && report.eventsCompared == UInt64(recorded.eventCount))
    }

    // MARK: A trace that is a prefix of another is not the same trace

    @Test func aTraceThatStopsEarlyDiffersFromTheFullOne() throws {
        let directory = try makeTemporaryDirectory("prefix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = Scenario(
            name: "steps", summary: "", variants: [.init("short", "two jobs"), .init("long", "three jobs")]
        ) { sim, variant in
            sim.post(on: "main", "one") { sim.emit("did", "one") }
            sim.post(on: "main", "two") { sim.emit("did", "two") }
            if variant == "long" { sim.post(on: "main", "three") { sim.emit("did", "three") } }
        }
        var paths: [String] = []
        for variant in ["short", "long"] {
            let path = directory.appendingPathComponent("\(variant).simtrace").path
            let plan = RunPlan.probed(scenario: scenario, variant: variant, strategy: StrategySpec(kind: .fifo))
            _ = try Recorder.record(plan: plan, seed: 0, strategy: FIFOStrategy(), strategyName: "fifo", to: path)
            paths.append(path)
        }
        for (expected, actual) in [(paths[0], paths[1]), (paths[1], paths[0])] {
            let difference = try TraceComparison(expected: expected, actual: actual)
                .firstDifference(expectedLabel: "recorded", actualLabel: "replayed")
            let lines = try #require(difference, "\(expected) and \(actual) compared as identical")
            #expect(lines.first?.contains("ends before this event") == true, "\(lines)")
        }
        #expect(try TraceComparison(expected: paths[1], actual: paths[1]).firstDifference() == nil)
    }

    // MARK: Work still pending at the end is a failure that says what is pending

    static let pending = Scenario(
        name: "pending-effect", summary: "a run that goes quiet with an effect still running",
        variants: [.init("buggy", "the effect never finishes")]
    ) { sim, _ in
        let finished = ValueBox(false)
        sim.post(on: "main", "start") { sim.emit("effect.start", "fetch") }
        sim.post(on: "b", "other") {}
        sim.pendingWork("effects") { finished.value ? nil : "1 effect still running: fetch" }
    }

    @Test func aPendingVerdictIsAFailureThatSaysWhatIsPending() throws {
        let plan = RunPlan.probed(scenario: Self.pending, variant: "buggy", strategy: StrategySpec(kind: .random))
        let result = plan.run(seed: 0, strategy: plan.makeStrategy())
        guard case .pending(let message) = result.verdict else {
            Issue.record("not pending: \(result.verdict)")
            return
        }
        #expect(result.verdict.isFailure && result.verdict.oracle == "pending-work")
        // As `run` and `fuzz` print it: the oracle, then what is pending.
        #expect("\(result.verdict)".hasPrefix("pending-work: "), "\(result.verdict)")
        #expect(message.contains("effects: 1 effect still running: fetch"), "what is pending: \(message)")
        // Recorded, the trace's footer keeps the verdict, and a replay reproduces it.
        let directory = try makeTemporaryDirectory("pending-run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("p.simtrace").path
        _ = try Recorder.record(plan: plan, seed: 0, strategy: plan.makeStrategy(), strategyName: "random", to: path)
        #expect(try TraceInput(path: path).footer?.verdict == result.verdict)
        let report = try Self.decide(path, [Self.pending])
        #expect(report.verdict == .identical && report.outcome == result.verdict, "\(report.verdict)")
    }

    @Test func aPendingVerdictIsAFindingOfACampaign() throws {
        let directory = try makeTemporaryDirectory("pending-fuzz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = RunPlan.probed(scenario: Self.pending, variant: "buggy", strategy: .campaignDefault)
        let result = try FindingCampaign(
            plan: plan, configuration: Fuzzer.Configuration(seeds: 0..<3, jobs: 1),
            options: .init(directory: directory.path, shrink: false, isolation: .inProcess)
        ).run()
        #expect(result.findings.count == 1, "\(result.findings.map(\.foundVerdict))")
        let finding = try #require(result.findings.first)
        #expect(finding.kind == .failure && finding.seed == 0)
        #expect(finding.foundVerdict.oracle == "pending-work")
        #expect(FailureSignature(finding.foundVerdict).description.hasPrefix("pending-work"))
        #expect(finding.foundVerdict.message.contains("effects: 1 effect still running: fetch"))
    }
}
