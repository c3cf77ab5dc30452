import Foundation
import SimCore
import SimEngine
import SimRunKit
import SimTestSupport
import Testing

@testable import SimTrace

/// What `replay`, `run` and `fuzz` answer, pinned where a wrong answer would look like a pass: a
/// departure followed without the job it overtook, a trace that no longer re-runs on its own
/// variant, a footer whose digest lies, a tape that names one of two jobs of the same label, a
/// trace that is a prefix of another, and a run that ends with work still pending. Each test checks
/// the exit code and the `--json` verdict a user or a script reads, not the code paths beneath.
@Suite struct ReplayVerdictTests {
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

    /// `simrun <arguments>` in this process with `scenarios`: exit status, stdout lines (the JSON
    /// document when `--json` was given) and every line.
    static func simrun(_ arguments: [String], _ scenarios: [Scenario]) -> (status: Int32, out: [String], all: String) {
        let console = Console(capturing: true)
        let status = SimRun.run(arguments: arguments, scenarios: scenarios, console: console)
        return (
            status, console.capturedLines.filter { !$0.hasPrefix("err: ") },
            console.capturedLines.joined(separator: "\n")
        )
    }

    /// The `--json` document of a command.
    static func json(_ arguments: [String], _ scenarios: [Scenario]) throws -> (Int32, [String: Any]) {
        let (status, out, all) = simrun(arguments + ["--json"], scenarios)
        let line = try #require(out.first { $0.hasPrefix("{") }, "no JSON document: \(all)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect((object["exitCode"] as? NSNumber)?.int32Value == status)
        return (status, object)
    }

    /// A failing trace of `partner`/recorded: c.first by fifo, then b.read ahead of a.write.
    static func partnerTrace(_ directory: URL, name: String = "partner.simtrace") throws -> String {
        let path = directory.appendingPathComponent(name).path
        let plan = RunPlan.probed(scenario: partner, variant: "recorded", strategy: StrategySpec(kind: .random))
        let result = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [0, 1]), strategyName: "random", to: path)
        #expect(result.verdict.isFailure && result.deviations == 1 && result.tape.count == 2, "\(result.verdict)")
        return path
    }

    // MARK: A departure is followed only where the job it overtook is next

    @Test func aRaceFollowedOnTheFixIsAConclusivePass() throws {
        let trace = try Self.partnerTrace(try makeTemporaryDirectory("partner"))
        let (status, document) = try Self.json(["replay", trace, "--variant", "fixed"], [Self.partner])
        #expect(status == ExitStatus.ok, "\(document)")
        #expect(document["verdict"] as? String == "pass")
        #expect((document["followed"] as? String)?.hasPrefix("followed 2 of 2 decisions (all 1 non-fifo)") == true)
    }

    @Test func aDepartureReadyBeforeItsPartnerExistsIsNotFollowedSoThePassIsInconclusive() throws {
        // On `later` the read could run first only by overtaking c.first, which it never did in the
        // recording: the recorded race never happens, so the passing run tested nothing.
        let trace = try Self.partnerTrace(try makeTemporaryDirectory("partner"))
        let (status, document) = try Self.json(["replay", trace, "--variant", "later"], [Self.partner])
        #expect(status == ExitStatus.inconclusive, "\(document)")
        #expect(document["verdict"] as? String == "inconclusive")
        #expect((document["followed"] as? String)?.contains("(0 of 1 non-fifo)") == true, "\(document)")
        let human = Self.simrun(["replay", trace, "--variant", "later"], [Self.partner])
        #expect(human.status == ExitStatus.inconclusive)
        #expect(human.all.contains("b/b.read#1 before a/a.write#1"), "\(human.all)")
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
        let path = directory.appendingPathComponent("older.simtrace").path
        let older = Self.trailingChoice(older: true)
        let plan = RunPlan.probed(scenario: older, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [1]), strategyName: "random", to: path)
        #expect(recorded.verdict.isFailure && recorded.tape.count == 2, "a pick and the data decision")
        // With the code that recorded it, the fix is tested on the recorded race.
        let (same, _) = try Self.json(["replay", path, "--variant", "fixed"], [older])
        #expect(same == ExitStatus.ok)
        // The current code re-runs the same events (the digest matches) but uses one decision fewer:
        // the schedule is not the one recorded, so a pass on the fix says nothing.
        let current = Self.trailingChoice(older: false)
        #expect(
            current.run(variant: "buggy", seed: 0, strategy: ReplayStrategy(tape: recorded.tape)).digest
                == recorded.digest)
        let (status, document) = try Self.json(["replay", path, "--variant", "fixed"], [current])
        #expect(status == ExitStatus.inconclusive, "\(document)")
        #expect(document["verdict"] as? String == "inconclusive")
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
        let replay = Self.simrun(["replay", path.path], [Self.partner])
        #expect(replay.status != ExitStatus.ok, "\(replay.all)")
        #expect(!replay.all.contains("identical"), "\(replay.all)")
        let (status, document) = try Self.json(["replay", path.path], [Self.partner])
        #expect(status != ExitStatus.ok && document["verdict"] as? String != "identical", "\(document)")
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
        let path = directory.appendingPathComponent("ticks-\(choice).simtrace").path
        let plan = RunPlan.probed(scenario: Self.ticks, variant: "buggy", strategy: StrategySpec(kind: .random))
        let recorded = try Recorder.record(
            plan: plan, seed: 0, strategy: GuidedStrategy(choices: [choice]), strategyName: "random", to: path)
        #expect(recorded.tape.count == 1)
        let (status, document) = try Self.json(["replay", path], [Self.ticks])
        #expect(status == ExitStatus.ok, "\(document)")
        #expect(document["verdict"] as? String == "identical")
    }

    // MARK: A trace that is a prefix of another is not the same trace

    @Test func aTraceThatStopsEarlyDiffersFromTheFullOne() throws {
        let directory = try makeTemporaryDirectory("prefix")
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

    @Test func aPendingVerdictExitsOneFromRunAndSaysWhatIsPending() throws {
        let directory = try makeTemporaryDirectory("pending-run")
        let arguments = [
            "run", "pending-effect", "--seed", "0", "--out", directory.appendingPathComponent("p.simtrace").path,
        ]
        let human = Self.simrun(arguments, [Self.pending])
        #expect(human.status == ExitStatus.failure, "\(human.all)")
        #expect(human.all.contains("FAIL"), "\(human.all)")
        #expect(human.all.contains("pending-work: "), "\(human.all)")
        #expect(human.all.contains("effects: 1 effect still running: fetch"), "what is pending: \(human.all)")
        let (status, document) = try Self.json(
            ["run", "pending-effect", "--seed", "0", "--out", directory.appendingPathComponent("q.simtrace").path],
            [Self.pending])
        #expect(status == ExitStatus.failure)
        #expect(document["verdict"] as? String == "fail")
        let outcome = try #require(document["outcome"] as? [String: Any])
        #expect(outcome["verdict"] as? String == "pending", "\(outcome)")
        #expect((outcome["message"] as? String)?.contains("effects: 1 effect still running: fetch") == true)
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == 1 && findings.first?["oracle"] as? String == "pending-work", "\(findings)")
    }

    @Test func aPendingVerdictIsAFindingOfFuzz() throws {
        let directory = try makeTemporaryDirectory("pending-fuzz")
        let out = directory.appendingPathComponent("found").path
        let human = Self.simrun(
            ["fuzz", "pending-effect", "--seeds", "0..<3", "--jobs", "1", "--no-shrink", "--out", out], [Self.pending])
        #expect(human.status == ExitStatus.failure, "\(human.all)")
        #expect(human.all.contains("FAIL at seed 0: pending-work: "), "\(human.all)")
        #expect(human.all.contains("effects: 1 effect still running: fetch"), "what is pending: \(human.all)")
        let (status, document) = try Self.json(
            ["fuzz", "pending-effect", "--seeds", "0..<3", "--jobs", "1", "--no-shrink", "--out", out + "-json"],
            [Self.pending])
        #expect(status == ExitStatus.failure)
        #expect(document["verdict"] as? String == "fail")
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == 1, "\(findings)")
        #expect((findings.first?["signature"] as? String)?.hasPrefix("pending-work") == true, "\(findings)")
        #expect((findings.first?["seed"] as? NSNumber)?.uint64Value == 0)
        #expect((findings.first?["oracle"] as? String) == "pending-work")
        #expect((findings.first?["message"] as? String)?.contains("effects: 1 effect still running: fetch") == true)
    }
}
