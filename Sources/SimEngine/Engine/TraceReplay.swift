import SimCore
import SimTrace

/// A replay to decide: a trace, and the variant and noise to replay it with (nil: the recording's).
public struct ReplayRequest: Sendable, Equatable, Codable {
    /// The `.simtrace` file.
    public var trace: String
    /// Another variant to follow the schedule on; nil (or the recorded one) compares events.
    public var variant: String?
    /// Other noise lanes; nil (or the recorded count) keeps the recording's.
    public var noise: Int?
    /// The build replaying (``BuildIdentity/current``); nil: builds are not compared (the recording
    /// is taken to be of this build, as a regression corpus replayed in its own tests is).
    public var build: String?
    /// When either build is unknown (empty): true judges this build by its own verdict anyway (what
    /// `replay --bisect` needs on every commit); false compares events as on the same build.
    public var judgeUnknownBuild: Bool

    /// A replay of `trace` on `variant` with `noise` lanes, by `build`.
    public init(
        trace: String, variant: String? = nil, noise: Int? = nil, build: String? = nil, judgeUnknownBuild: Bool = false
    ) {
        self.trace = trace
        self.variant = variant
        self.noise = noise
        self.build = build
        self.judgeUnknownBuild = judgeUnknownBuild
    }

    /// Whether a recording by `recorded` is to be judged as another build's.
    public func isOtherBuild(than recorded: String) -> Bool {
        guard let build else { return false }
        if build.isEmpty || recorded.isEmpty { return judgeUnknownBuild }
        return build != recorded
    }
}

/// The one place a replay's ``ReplayVerdict`` is decided. `simrun replay`, its `--json` and
/// SimTesting's `TraceCorpus` all call it and present its ``ReplayReport``.
///
/// The rules, stated once:
/// - On the recorded variant every event is compared: `identical` only when the whole recording
///   was compared and the verdict and digest match; a difference is `diverged`; a recording cut
///   short whose prefix matched is `inconclusive` (`truncated`); bytes that cannot be read after a
///   readable prefix are `damaged` (with how many events were compared).
/// - On another variant (or other noise) the schedule is followed by identity. A failure is `fail`
///   (a trap `crashed`). A pass counts only if every non-fifo decision was followed; otherwise it is
///   `inconclusive` (`unfollowed`, each decision with what the replay saw of it), except when the
///   fix removes the race itself: at least one non-fifo decision was unfollowed and every one shows
///   it (``RaceRemoved/applies(to:scheduleReadBack:)``, per decision
///   ``UnfollowedDecision/showsRaceRemoved(scheduleReadBack:)``: `J before O` where `J` never ran,
///   a job of `O` never ran, `J` ran only after all of `O`, or `J` was never ready together with
///   any of `O`). Then the replay cannot test the fix, and a `pct` campaign of
///   ``raceRemovedSeeds`` on that variant decides instead: `fail` with the campaign's first failure,
///   else `pass`, both carrying the decisions and the campaign as ``RaceRemoved`` evidence. A
///   truncated recording that passes there is `inconclusive` (`truncated`).
/// - On another build (``ReplayRequest/build`` differs from the header's `TraceHeader.build`; or
///   either is unknown and ``ReplayRequest/judgeUnknownBuild`` is set, as `replay --bisect` sets
///   it): the events are compared first; when they are identical the build changed nothing the
///   schedule touches and the recorded verdict stands (`fail` for a recorded failure, else `pass`).
///   Otherwise the schedule is followed by identity and judged as on another variant, by the same
///   rules. Which schedule: when this build re-runs the recording's tape on the recorded variant
///   exactly, the schedule read back from that re-run, as on the recording's own build
///   (`scheduleReadBack`); otherwise the schedule in the file (each pick's job, each job's cause,
///   the ready sets rebuilt from them), completed where the file cannot name the jobs a pick went
///   ahead of (they never ran before the recording ended, as after a crash) from this build's
///   re-run wherever it made the same picks. On a schedule read from the file a job that no longer
///   runs may only have moved, so `missing` and `vanished` show the race removed only when that
///   job was cancelled.
/// - ``decide(_:catalog:isolation:)`` runs the replay in a child process, so a model that traps is
///   a `crashed` (or, on the recorded variant, compared) outcome, never the end of the host.
public enum TraceReplay {
    /// The seeds of the campaign the "fix removes the race" rule runs on the other variant.
    public static let raceRemovedSeeds: Range<UInt64> = 0..<500

    /// A replay child's time limit: a year, none in practice.
    static let noTimeout: Double = 365 * 24 * 3600

    /// Decides the replay in this process. A model that traps takes this process down: use
    /// ``decide(_:catalog:isolation:)`` wherever a child process is possible.
    ///
    /// Throws for input that cannot be replayed at all: a missing file (`missingInput`), an
    /// unreadable header, an unknown scenario, variant or strategy, and (on another variant, where
    /// the schedule must be read whole first) damage anywhere in the file (`badTrace`).
    public static func decide(_ request: ReplayRequest, catalog: ScenarioCatalog) throws(SimEngineError)
        -> ReplayReport
    {
        let reader: TraceReader
        do {
            reader = try TraceReader(path: request.trace)
        } catch {
            throw TraceInput.failure(error)
        }
        let header = reader.header
        let recordedPlan = try TraceInput.plan(for: header, path: request.trace, in: catalog, variant: nil)
        let onOther =
            request.variant.map { $0 != header.variant } ?? false
            || request.noise.map { $0 != recordedPlan.noise } ?? false
        let otherBuild = request.isOtherBuild(than: header.build)
        if !onOther {
            let outcome = try TraceReplayer.replayComparing(
                reading: reader, path: request.trace, plan: recordedPlan, throwingOnDamage: false)
            var report = compared(outcome, header: header, plan: recordedPlan, trace: request.trace)
            report.build = request.build ?? ""
            guard otherBuild else { return report }
            report.judgedAsOtherBuild = true
            switch report.verdict {
            case .identical:
                // Nothing the schedule touches changed: the recorded verdict is this build's too.
                let recorded = report.recorded ?? outcome.result.verdict
                report.verdict = recorded.isFailure ? .fail(recorded, raceRemoved: nil) : .pass(raceRemoved: nil)
                return report
            case .damaged, .inconclusive: return report
            default: break  // the events differ: this build is judged on the schedule followed by identity
            }
        }
        let input = try TraceInput(path: request.trace)
        let plan = try input.plan(in: catalog, variant: request.variant, noise: request.noise)
        var report = try followed(
            input: input, plan: plan, recordedNoise: recordedPlan.noise, otherBuild: otherBuild)
        report.build = request.build ?? ""
        report.judgedAsOtherBuild = otherBuild
        return report
    }

    /// The report's facts that come from the header and the plan.
    static func report(_ verdict: ReplayVerdict, header: TraceHeader, plan: RunPlan, recordedNoise: Int, trace: String)
        -> ReplayReport
    {
        var report = ReplayReport(verdict: verdict, trace: trace)
        report.scenario = header.scenario
        report.recordedVariant = header.variant
        report.variant = plan.variant
        report.strategy = header.strategy
        report.seed = header.seed
        report.recordedNoise = recordedNoise
        report.noise = plan.noise
        report.recordedBuild = header.build
        return report
    }

    /// The verdict of a comparing replay on the recorded variant.
    static func compared(_ outcome: TraceReplayer.Outcome, header: TraceHeader, plan: RunPlan, trace: String)
        -> ReplayReport
    {
        let verdict: ReplayVerdict
        let recorded = outcome.recordedFooter?.verdict
        if let damage = outcome.damage {
            verdict = .damaged(message: damage.description, eventsCompared: outcome.eventsCompared)
        } else if let lines = outcome.divergence {
            verdict = .diverged(atEvent: outcome.divergedAt ?? outcome.eventsCompared, lines: lines)
        } else if outcome.recordingIsTruncated || outcome.reachedTruncation || recorded == nil {
            verdict = .inconclusive(.truncated(eventsCompared: outcome.eventsCompared))
        } else if let recorded, recorded != outcome.result.verdict {
            verdict = .diverged(
                atEvent: outcome.eventsCompared,
                lines: [
                    "the same events, but the verdict differs: recorded \(recorded), replayed \(outcome.result.verdict)"
                ])
        } else {
            verdict = .identical
        }
        var report = Self.report(verdict, header: header, plan: plan, recordedNoise: plan.noise, trace: trace)
        report.outcome = outcome.result.verdict
        report.recorded = recorded
        report.eventCount = UInt64(outcome.result.eventCount)
        report.eventsCompared = outcome.eventsCompared
        report.digest = outcome.result.digest
        report.tally = outcome.tally
        report.notes = outcome.notes
        report.recordingIsTruncated = outcome.recordingIsTruncated
        return report
    }

    /// The verdict of the schedule followed by identity on another variant (or other noise).
    /// What the race-removed campaign found: its strategy, failing runs, and the lowest failing seed
    /// with its verdict.
    package struct RaceRemovedCampaign {
        package var strategy: String
        package var failures: Int
        package var first: (seed: UInt64, verdict: Verdict)?

        package init(strategy: String, failures: Int, first: (seed: UInt64, verdict: Verdict)?) {
            self.strategy = strategy
            self.failures = failures
            self.first = first
        }
    }

    /// The rule for a schedule followed by identity on another variant (or build), as stated in this
    /// type's documentation, from what the run established: its verdict, a schedule problem, the
    /// non-fifo decisions it could not follow, whether it is conclusive (every non-fifo decision
    /// followed, none unfollowed: ``TraceReplayer/Outcome/isConclusive``), whether the schedule was
    /// read back on this build, and whether the recording was cut short.
    /// `campaign` runs the race-removed campaign, only when the rule calls for it.
    package static func judgeFollowed(
        outcome: Verdict, scheduleProblem: String?, unfollowed: [UnfollowedDecision], conclusive: Bool,
        scheduleReadBack: Bool, recordingTruncated: Bool, campaign: () -> RaceRemovedCampaign
    ) -> ReplayVerdict {
        if outcome.isFailure { return .fail(outcome, raceRemoved: nil) }
        if let scheduleProblem { return .inconclusive(.scheduleProblem(scheduleProblem)) }
        if RaceRemoved.applies(to: unfollowed, scheduleReadBack: scheduleReadBack) {
            let found = campaign()
            let evidence = RaceRemoved(
                unfollowed: unfollowed, strategy: found.strategy, seeds: raceRemovedSeeds, failures: found.failures,
                firstFailingSeed: found.first?.seed)
            if let first = found.first, found.failures > 0 { return .fail(first.verdict, raceRemoved: evidence) }
            return recordingTruncated ? .inconclusive(.truncated(eventsCompared: 0)) : .pass(raceRemoved: evidence)
        }
        if !conclusive { return .inconclusive(.unfollowed(unfollowed)) }
        if recordingTruncated { return .inconclusive(.truncated(eventsCompared: 0)) }
        return .pass(raceRemoved: nil)
    }

    static func followed(input: TraceInput, plan: RunPlan, recordedNoise: Int, otherBuild: Bool = false)
        throws(SimEngineError) -> ReplayReport
    {
        let replayer = TraceReplayer(input: input, plan: plan)
        let outcome: TraceReplayer.Outcome
        let readBack: Bool
        if otherBuild {
            // Another build's recording may not re-run here: read back when it does, else from the file.
            let (schedule, exact) = try replayer.scheduleForOtherBuild()
            outcome = replayer.replayForVerdict(following: schedule, problem: nil)
            readBack = exact
        } else {
            outcome = replayer.replayForVerdict()
            readBack = true
        }
        let unfollowed = outcome.unfollowed.map(UnfollowedDecision.init)
        let verdict = judgeFollowed(
            outcome: outcome.result.verdict, scheduleProblem: outcome.scheduleProblem, unfollowed: unfollowed,
            conclusive: outcome.isConclusive, scheduleReadBack: readBack, recordingTruncated: input.isTruncated
        ) {
            // The fix removes the race itself: the replay cannot test it; a campaign on it must.
            var campaign = plan
            campaign.strategy = .campaignDefault
            let report = Fuzzer(plan: campaign, configuration: Fuzzer.Configuration(seeds: raceRemovedSeeds, jobs: 1))
                .run()
            let first = report.findings.min { $0.seed < $1.seed }
            return RaceRemovedCampaign(
                strategy: campaign.strategy.kind.rawValue, failures: report.failures,
                first: first.map { ($0.seed, $0.verdict) })
        }
        var report = Self.report(
            verdict, header: input.header, plan: plan, recordedNoise: recordedNoise, trace: input.path)
        report.outcome = outcome.result.verdict
        report.recorded = input.footer?.verdict
        report.eventCount = UInt64(outcome.result.eventCount)
        report.digest = outcome.result.digest
        report.tally = outcome.tally
        report.notes = outcome.notes
        report.recordingIsTruncated = input.isTruncated
        return report
    }
}

extension UnfollowedDecision {
    /// The engine's record of an unfollowed departure, as a verdict's evidence.
    init(_ missed: ScheduleStrategy.Unfollowed) {
        let reason =
            switch missed.reason {
            case .missing: "missing"
            case .vanished: "vanished"
            case .ordered: "ordered"
            case .apart: "apart"
            case .neverAhead: "never-ahead"
            case .siteDiffers: "site-differs"
            case .unnamed: "unnamed"
            }
        self.init(
            number: missed.entry.number, summary: missed.entry.summary, reason: reason, why: missed.why,
            cancelled: missed.cancelled)
    }
}

extension TraceReplay {
    /// Decides the replay where `isolation` runs the code: in a child process (`ChildJob.replay(_:)`)
    /// when there is a launcher, so that a model that traps ends the child, never this process;
    /// here otherwise, where a trace that records a crash is refused (its replay would trap this
    /// process: the one "needs a child" error).
    ///
    /// The child decides as ``decide(_:catalog:)`` would and sends the report back as one typed
    /// record. When the child dies of a signal, the schedule is recorded again in a child that
    /// checkpoints every record (sealed up to the trap), and that recording decides: on the recorded
    /// variant its events are compared with the trace's (`identical` only when the recording crashed
    /// the same way, the same `CrashPlace`; a truncated recording whose prefix matched is
    /// `inconclusive`), on another variant it is `crashed`.
    public static func decide(_ request: ReplayRequest, catalog: ScenarioCatalog, isolation: Isolation)
        throws(SimEngineError) -> ReplayReport
    {
        guard let launcher = isolation.launcher else {
            if case .footer(let footer) = TraceEnding.read(path: request.trace), footer.verdict.isCrash {
                _ = try isolation.launcher(for: "\(request.trace) records a crash: replaying it")
            }
            return try decide(request, catalog: catalog)
        }
        // As long as the replay takes (a long trace may take minutes): a kill is never mistaken for a trap.
        let run = try launcher.run(.replay(request), timeoutSeconds: Self.noTimeout)
        if case .exited = run.termination {
            for case .replayed(let report) in run.replies { return report }
            if let failure = run.failure { throw failure }
            let why = run.stderr.split(separator: "\n").first.map(String.init) ?? run.termination.description
            throw SimEngineError(.failed, "the replay child process sent no verdict: \(why)")
        }
        return try crashRoute(request, catalog: catalog, launcher: launcher, termination: run.termination)
    }

    /// The replay's process died: record the schedule again in a child sealed up to the trap, and
    /// decide from that recording.
    private static func crashRoute(
        _ request: ReplayRequest, catalog: ScenarioCatalog, launcher: ProcessLauncher,
        termination: ChildProcess.Termination
    ) throws(SimEngineError) -> ReplayReport {
        let input = try TraceInput(path: request.trace)
        let recordedNoise = try TraceInput.noise(of: input.header, path: request.trace)
        let plan = try input.plan(in: catalog, variant: request.variant, noise: request.noise)
        let path = try DeterminismCheck.temporaryTracePath("replay")
        defer { unlink(path) }
        let otherBuild = request.isOtherBuild(than: input.header.build)
        let onOther = plan.variant != input.header.variant || plan.noise != recordedNoise || otherBuild
        // Recorded again the way the child replayed it: by identity on another variant or noise.
        let recording = IsolatedRecording(plan: try plan.descriptor(), launcher: launcher)
        let schedule: ChildJob.Record.Schedule =
            !onOther
            ? .decisions(of: request.trace)
            : otherBuild ? .otherBuild(of: request.trace, fileOnly: false) : .identities(of: request.trace)
        let again: IsolatedRecording.Outcome
        do {
            again = try recording.record(seed: input.header.seed, schedule: schedule, to: path, timeoutSeconds: noTimeout)
        } catch where otherBuild && error.kind == .failed {
            // Another build's recording, re-run here to read its schedule, trapped before the run to
            // record began: follow the schedule the file alone gives.
            again = try recording.record(
                seed: input.header.seed, schedule: .otherBuild(of: request.trace, fileOnly: true), to: path,
                timeoutSeconds: noTimeout)
        }
        let verdict: ReplayVerdict
        var compared: UInt64 = 0
        if onOther || !again.crashed && !input.isTruncated && input.footer.map({ !$0.verdict.isCrash }) ?? true {
            // Another variant (or a trap the re-recording did not repeat): the trap is the verdict.
            let message = again.crashed ? again.verdict.message : "the replay's process \(termination)"
            verdict = .crashed(message: message, atEvent: again.eventCount)
        } else if let difference = try TraceComparison(expected: request.trace, actual: path).difference(
            expectedLabel: "recorded", actualLabel: "replayed")
        {
            compared = difference.atEvent
            if difference.expectedEnded && input.isTruncated {
                verdict = .inconclusive(.truncated(eventsCompared: input.eventCount))
                compared = input.eventCount
            } else {
                var lines = difference.lines
                if !again.crashed { lines.append("  the replay did not crash: \(again.verdict)") }
                verdict = .diverged(atEvent: difference.atEvent, lines: lines)
            }
        } else if input.isTruncated {
            compared = input.eventCount
            verdict = .inconclusive(.truncated(eventsCompared: input.eventCount))
        } else if !again.crashed {
            compared = input.eventCount
            verdict = .diverged(
                atEvent: input.eventCount,
                lines: [
                    "the same events, but the replay did not crash (recorded: \(input.footer?.verdict.message ?? ""))"
                ])
        } else if let recorded = input.footer?.verdict, !recorded.isCrash {
            compared = input.eventCount
            verdict = .diverged(
                atEvent: input.eventCount,
                lines: ["the same events, but the replay crashed: \(again.verdict.message) (recorded: \(recorded))"])
        } else if let recordedPlace = try? CrashPlace(path: request.trace), let replayed = try? CrashPlace(path: path),
            !recordedPlace.isSameCrash(as: replayed)
        {
            // The same events up to the trap, but another trap: not the recorded crash.
            compared = input.eventCount
            verdict = .diverged(
                atEvent: input.eventCount,
                lines: [
                    "the same events, but another crash: recorded \(recordedPlace), replayed \(replayed): "
                        + again.verdict.message
                ])
        } else {
            compared = input.eventCount
            verdict = .identical
        }
        var report = Self.report(
            verdict, header: input.header, plan: plan, recordedNoise: recordedNoise, trace: request.trace)
        report.outcome = again.verdict
        report.recorded = input.footer?.verdict
        report.eventCount = again.eventCount
        report.eventsCompared = compared
        report.digest = again.digest
        report.recordingIsTruncated = input.isTruncated
        report.lastEventText = again.lastEventText
        report.build = request.build ?? ""
        report.judgedAsOtherBuild = otherBuild
        return report
    }
}

extension Verdict {
    /// True for `crashed`.
    package var isCrash: Bool {
        if case .crashed = self { return true }
        return false
    }
}
