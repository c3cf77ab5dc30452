import SimCore

/// What a replay of a trace concluded, decided once by ``TraceReplay``; the CLI (`simrun replay`, its
/// `--json`) and SimTesting's `TraceCorpus` only present it.
///
/// On the recorded variant a replay compares events: ``identical`` or
/// ``diverged(atEvent:lines:)``. On another variant (or other noise) it follows the schedule by
/// identity and judges that variant: ``pass(raceRemoved:)``, ``fail(_:raceRemoved:)`` or
/// ``crashed(message:atEvent:)``. Either way it can be ``inconclusive(_:)`` (the recording, or the
/// part of it that could be followed, does not decide) or ``damaged(message:eventsCompared:)`` (the
/// file breaks off in unreadable bytes).
public enum ReplayVerdict: Sendable, Equatable, Codable {
    /// Every recorded event was replayed, in order, to the recorded verdict and digest.
    case identical
    /// The replay departed from the recording at `atEvent`; `lines` show both sides around it.
    case diverged(atEvent: UInt64, lines: [String])
    /// The other variant passed the recorded schedule with every non-fifo decision followed, or
    /// (`raceRemoved`) it removes the recorded race itself and a campaign on it found nothing.
    case pass(raceRemoved: RaceRemoved?)
    /// The other variant failed on the recorded schedule (or, `raceRemoved`, in the campaign run
    /// instead of it).
    case fail(Verdict, raceRemoved: RaceRemoved?)
    /// The replay trapped where the recording did not (or on another variant): `atEvent` events in.
    case crashed(message: String, atEvent: UInt64)
    /// Neither pass nor fail: the replay could not test what the recording holds.
    case inconclusive(InconclusiveReason)
    /// The file is damaged after a readable prefix: `eventsCompared` events were compared before it.
    case damaged(message: String, eventsCompared: UInt64)

    /// The verdict's name in results: `identical`, `diverged`, `pass`, `fail`, `crashed`,
    /// `inconclusive`, `damaged`.
    public var name: String {
        switch self {
        case .identical: "identical"
        case .diverged: "diverged"
        case .pass: "pass"
        case .fail: "fail"
        case .crashed: "crashed"
        case .inconclusive: "inconclusive"
        case .damaged: "damaged"
        }
    }

    /// True for `identical` and `pass`: the whole recording was tested and nothing is wrong.
    public var isSuccess: Bool {
        switch self {
        case .identical, .pass: true
        default: false
        }
    }

    /// True when the replay is evidence of a bug or a changed behaviour (`diverged`, `fail`, `crashed`).
    public var foundSomething: Bool {
        switch self {
        case .diverged, .fail, .crashed: true
        default: false
        }
    }
}

/// Why a replay is inconclusive.
public enum InconclusiveReason: Sendable, Equatable, Codable {
    /// The recording was cut short: its prefix (`eventsCompared` events) was replayed and matched,
    /// but the recorded verdict was never reached, so nothing about the run as a whole is known.
    case truncated(eventsCompared: UInt64)
    /// Non-fifo decisions of the recording could not be followed on the other variant, for reasons
    /// that do not show the race gone (the recorded race never happened there).
    case unfollowed([UnfollowedDecision])
    /// The recorded schedule does not re-run on its own variant, so it cannot be read back as
    /// identities and followed elsewhere.
    case scheduleProblem(String)

    /// The reason in words (one line).
    public var text: String {
        switch self {
        case .truncated(let compared):
            "the trace is truncated: its \(compared) recorded events were replayed, but the recording ends before its verdict"
        case .unfollowed(let decisions):
            if let first = decisions.first {
                "decision \(first.number) (\(first.summary)) could not be followed"
                    + (decisions.count > 1 ? " (and \(decisions.count - 1) more)" : "")
            } else {
                "a decision could not be followed"
            }
        case .scheduleProblem(let problem): problem
        }
    }
}

/// A non-fifo decision of a recording that a replay on another variant could not follow.
///
/// Each is a pick `J before O` of the recording (`J` the job taken, `O` the older ready jobs it went
/// ahead of; the one fifo would have run is among them), or a data decision, and what the replay
/// saw of it (`reason`, decided in this order):
///
/// | reason | what the replay saw |
/// |---|---|
/// | `site-differs` | a data decision whose site was asked fewer times, or with fewer options |
/// | `unnamed` | the trace does not name `O` (none of it ran before the recording ended) and this build's re-run of the recording could not name it either |
/// | `never-ahead` | `J` was ready at a pick together with a job of `O`, but never while fifo would run a job of `O` |
/// | `missing` | `J` never ran |
/// | `vanished` | `J` ran, a job of `O` never ran |
/// | `ordered` | `J` and all of `O` ran, `J` only after them all |
/// | `apart` | `J` and all of `O` ran, `J` never ready together with any of them |
///
/// `cancelled` (for `missing` and `vanished`): every job that never ran was cancelled: its lane ran
/// `<its label>.cancelled` instead (a `Task.sleep` cut short by `Task.cancel()` does).
public struct UnfollowedDecision: Sendable, Equatable, Codable {
    /// Its number, as `show` numbers decisions (from 1).
    public var number: Int
    /// `lane/label#n before lane/label#m`.
    public var summary: String
    /// What the replay saw of it: `missing`, `vanished`, `ordered`, `apart`, `never-ahead`,
    /// `site-differs`, `unnamed`.
    public var reason: String
    /// The reason in words.
    public var why: String
    /// The job (or jobs) that never ran were cancelled (`missing` and `vanished` only).
    public var cancelled: Bool

    /// A decision that could not be followed.
    public init(number: Int, summary: String, reason: String, why: String, cancelled: Bool = false) {
        self.number = number
        self.summary = summary
        self.reason = reason
        self.why = why
        self.cancelled = cancelled
    }

    /// The per-decision half of the "fix removes the race" rule: this decision shows that the code
    /// replayed never makes the recorded choice, because it no longer has the race.
    ///
    /// - `ordered` and `apart`: yes. Both sides still run, and never race as recorded.
    /// - `missing` and `vanished`: yes when the schedule was read back exactly on the replaying
    ///   build (`scheduleReadBack`: the same build, or one that re-runs the recording exactly), or
    ///   when the job that never ran was cancelled. On a schedule read from another build's trace a
    ///   job that never runs may only have moved (a renamed job, a refactored lane): no.
    /// - `never-ahead`, `site-differs`, `unnamed`: no. The race is still there (or nothing is
    ///   known of it); the recorded moment of it simply never came.
    public func showsRaceRemoved(scheduleReadBack: Bool) -> Bool {
        switch reason {
        case "ordered", "apart": true
        case "missing", "vanished": scheduleReadBack || cancelled
        default: false
        }
    }
}

/// The evidence of the "fix removes the race" rule: the recorded races that cannot happen on the
/// other variant, and the campaign run on that variant instead of the replay.
public struct RaceRemoved: Sendable, Equatable, Codable {
    /// The non-fifo decisions that could not be followed, each showing the race removed.
    public var unfollowed: [UnfollowedDecision]
    /// The campaign's strategy (`pct`) and seeds.
    public var strategy: String
    /// The campaign's seeds.
    public var seeds: Range<UInt64>
    /// Failing runs of the campaign, and the lowest failing seed.
    public var failures: Int
    /// The lowest failing seed of the campaign, when one failed.
    public var firstFailingSeed: UInt64?

    /// The verdict-level rule: a replay whose non-fifo decisions could not all be followed is
    /// decided by a campaign instead (``TraceReplay/raceRemovedSeeds`` of `pct` on the variant
    /// replayed) exactly when at least one decision was unfollowed and every unfollowed one shows the
    /// race removed (``UnfollowedDecision/showsRaceRemoved(scheduleReadBack:)``). One decision that
    /// was simply not followed keeps the replay inconclusive, however many others show the race gone.
    public static func applies(to unfollowed: [UnfollowedDecision], scheduleReadBack: Bool) -> Bool {
        !unfollowed.isEmpty && unfollowed.allSatisfy { $0.showsRaceRemoved(scheduleReadBack: scheduleReadBack) }
    }

    /// The evidence.
    public init(
        unfollowed: [UnfollowedDecision], strategy: String, seeds: Range<UInt64>, failures: Int,
        firstFailingSeed: UInt64?
    ) {
        self.unfollowed = unfollowed
        self.strategy = strategy
        self.seeds = seeds
        self.failures = failures
        self.firstFailingSeed = firstFailingSeed
    }

    /// `the fix removes the recorded race (decision 1: …); pct seeds 0..<500 on fixed: 0 failures`
    public func line(variant: String) -> String {
        let decisions = unfollowed.map { "decision \($0.number): \($0.why)" }.joined(separator: "; ")
        let found =
            failures == 0
            ? "0 failures" : "\(failures) failures, the first at seed \(firstFailingSeed.map(String.init) ?? "?")"
        return "the fix removes the recorded race (\(decisions)); instead, \(strategy) seeds "
            + "\(seeds.lowerBound)..<\(seeds.upperBound) on \(variant): \(found)"
    }
}

/// Everything one replay established: the ``ReplayVerdict`` and the facts it rests on.
public struct ReplayReport: Sendable, Equatable, Codable {
    /// The verdict.
    public var verdict: ReplayVerdict
    /// The trace replayed.
    public var trace: String
    /// What the header says, and what was run.
    public var scenario: String
    /// The variant the trace was recorded on.
    public var recordedVariant: String
    /// The variant the schedule was replayed on.
    public var variant: String
    /// The recording's strategy, as its header names it.
    public var strategy: String
    /// The recording's seed.
    public var seed: UInt64
    /// Noise lanes of the recording.
    public var recordedNoise: Int
    /// Noise lanes of the replay.
    public var noise: Int
    /// The replayed run's verdict (for a crash: `crashed`).
    public var outcome: Verdict
    /// The recorded verdict; nil when the recording was cut short.
    public var recorded: Verdict?
    /// Events the replay's run emitted, and how many of them were compared with the recording.
    public var eventCount: UInt64
    /// Of those, the events compared with the recording.
    public var eventsCompared: UInt64
    /// The replayed run's digest.
    public var digest: Digest
    /// How much of the recorded schedule was followed.
    public var tally: ScheduleTally
    /// Where the schedule could not be followed, one line each (shown on stderr).
    public var notes: [String]
    /// The recording has no footer.
    public var recordingIsTruncated: Bool
    /// For a crash: the last event recorded before the trap.
    public var lastEventText: String
    /// The build that recorded the trace (`TraceHeader.build`; empty when unknown).
    public var recordedBuild: String
    /// The build that replayed it (empty when not compared).
    public var build: String
    /// True when the replay judged this build by its own verdict, the recording being another
    /// build's: then `pass`, `fail`, `crashed` and `inconclusive` answer "does this build still
    /// have the recorded bug?" (and `identical`/`diverged` never occur).
    public var judgedAsOtherBuild: Bool

    /// True when the schedule was followed on another variant or under other noise (`pass`/`fail`),
    /// false when it was compared on its own variant (`identical`/`diverged`).
    public var onOtherVariant: Bool { variant != recordedVariant || noise != recordedNoise }

    /// A report of `verdict` with the rest to be filled in.
    public init(verdict: ReplayVerdict, trace: String) {
        self.verdict = verdict
        self.trace = trace
        scenario = ""
        recordedVariant = ""
        variant = ""
        strategy = ""
        seed = 0
        recordedNoise = 0
        noise = 0
        outcome = .pass
        recorded = nil
        eventCount = 0
        eventsCompared = 0
        digest = Digest()
        tally = ScheduleTally()
        notes = []
        recordingIsTruncated = false
        lastEventText = ""
        recordedBuild = ""
        build = ""
        judgedAsOtherBuild = false
    }
}
