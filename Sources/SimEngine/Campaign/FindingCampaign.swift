import SimCapture
import SimCore
import SimTrace

/// A campaign that ends in saved findings: runs the seeds (in worker processes when its
/// ``Isolation`` has a launcher, else on threads here), then saves each distinct failure's trace (in
/// a fresh temporary directory when the one asked for cannot be written), shrinks it, and replays
/// the saved trace once more to check that it gives the same events. `simrun fuzz` and SimTesting's
/// `explore` (in process, or with a launcher of the user's executable) both run this and only
/// present its ``Result``.
///
/// With a launcher, none of the user's code runs in this process: each failure is recorded again in
/// a child, crashes (a run that trapped, taking its worker process down) are recorded sealed up to
/// the trap, shrinking and the re-check run in children. A failure whose re-run differed from its
/// worker's run is recorded again until both behaviours are seen, and saved as nondeterminism
/// evidence.
public struct FindingCampaign: Sendable {
    /// What is done with each finding.
    public struct Options: Sendable {
        /// The directory findings' traces are saved in (created when missing).
        public var directory: String
        /// Shrink each finding before it is reported (never after Ctrl-C: an interrupted campaign
        /// saves what it found as found).
        public var shrink: Bool
        /// Where runs run: in this process, or in child processes of a launcher.
        public var isolation: Isolation
        /// Lock orders taken both ways are followed up (traces saved, a search aimed at the inverted
        /// schedule); off inside that search.
        package var aimsAtLockOrders = true

        /// Options saving into `directory`.
        public init(directory: String, shrink: Bool = true, isolation: Isolation = .inProcess) {
            self.directory = directory
            self.shrink = shrink
            self.isolation = isolation
        }
    }

    /// What ran.
    public let plan: RunPlan
    /// Which seeds, jobs, shard, and whether to keep going after the first failure.
    public let configuration: Fuzzer.Configuration
    /// Where findings go and how they are treated.
    public let options: Options

    /// A campaign of `plan` over `configuration`'s seeds, saving findings as `options` say.
    public init(plan: RunPlan, configuration: Fuzzer.Configuration, options: Options) {
        self.plan = plan
        self.configuration = configuration
        self.options = options
    }

    /// True when the runs go to worker processes (and crashes can be findings).
    public var runsInWorkerProcesses: Bool {
        options.isolation.launcher != nil && plan.strategy.campaignShape.isIndependent
    }

    /// Who starts the children, when there are children.
    private var launcher: ProcessLauncher? { options.isolation.launcher }

    /// Runs the campaign and then handles every finding, telling `observer` as it goes. Throws only
    /// when the campaign itself cannot run (no worker can start, the board cannot be made); a finding
    /// that cannot be saved, shrunk or re-checked says so in its ``SavedFinding/problem``.
    public func run(observer: some FindingCampaignObserver = SilentCampaignObserver()) throws(SimEngineError)
        -> Result
    {
        // The children's recordings of failures (their tapes) live here until they are saved.
        let scratch = try launcher.map { _ throws(SimEngineError) in try makeScratch() }
        defer { scratch.map(TemporaryDirectory.removeDirectory) }
        let outcome = try runSchedules(observer: observer, scratch: scratch)
        observer.schedulesFinished(outcome.report)
        var result = Result(outcome: outcome)
        var oracleCounts: [String: Int] = [:]
        for finding in outcome.report.findings {
            // Distinct failures of one oracle (other message shapes) get -2, -3, … so none overwrites another.
            let seen = (oracleCounts[finding.signature.oracle] ?? 0) + 1
            oracleCounts[finding.signature.oracle] = seen
            let saved = handle(finding, outcome: outcome, suffix: seen == 1 ? "" : "-\(seen)")
            for entry in saved {
                observer.saved(entry)
                result.findings.append(entry)
            }
        }
        for (number, crash) in outcome.crashes.enumerated() {
            var saved = handle(crash, number: number, run: outcome.crashedAtRun)
            saved.crashedAtRun = outcome.crashedAtRun
            observer.saved(saved)
            result.findings.append(saved)
        }
        if options.aimsAtLockOrders {
            let deadlocked = result.findings.contains {
                if case .deadlock = $0.verdict { return true } else { return false }
            }
            for (number, potential) in outcome.lockOrder.potentialDeadlocks.enumerated() {
                let handled = handle(
                    potential, number: number, alreadyDeadlocked: deadlocked, findings: &result.findings,
                    observer: observer)
                observer.potentialDeadlock(handled)
                result.potentialDeadlocks.append(handled)
            }
        }
        return result
    }

    /// A scratch directory for the children's recordings: under `$TMPDIR`, or, when that cannot be
    /// written, a hidden one beside the findings (a campaign still saves its findings there). Either
    /// is removed if a signal ends the command.
    private func makeScratch() throws(SimEngineError) -> String {
        do {
            return try TemporaryDirectory.makeDirectory(prefix: "simrun-campaign")
        } catch {
            try ensureDirectory(options.directory)
            return try TemporaryDirectory.makeDirectory(prefix: ".simrun-campaign", in: options.directory)
        }
    }

    /// The schedules alone: the outcome before any finding is saved.
    private func runSchedules(observer: some FindingCampaignObserver, scratch: String?) throws(SimEngineError)
        -> CampaignOutcome
    {
        let progress: @Sendable (Int, Int, Int, Double) -> Void = { runs, failures, distinct, seconds in
            observer.progress(
                CampaignProgress(schedules: runs, failures: failures, distinct: distinct, seconds: seconds))
        }
        // In child processes when there is a launcher (worker processes, or one child for an
        // in-order strategy); else on threads here.
        let executor: any CampaignExecutor
        if let launcher, let scratch {
            executor = FuzzSupervisor(plan: plan, configuration: configuration, launcher: launcher, scratch: scratch)
        } else {
            var here = configuration
            here.cancellation = options.isolation.cancellation
            executor = Fuzzer(plan: plan, configuration: here)
        }
        return try executor.runCampaign(progress: progress)
    }

    /// The plan as it crosses to children.
    private func descriptor() throws(SimEngineError) -> RunPlan.Descriptor { try plan.descriptor() }

    private var strategyName: String { plan.strategy.description }

    /// The files the campaign reads (the `--from` trace), which no finding is saved over.
    private var inputs: [String] { plan.prefix?.source.map { [$0] } ?? [] }

    private func wanted(oracle: String, suffix: String) -> String {
        let directory = options.directory.hasSuffix("/") ? String(options.directory.dropLast()) : options.directory
        return "\(directory)/" + findingFileName(plan.scenario.name, plan.variant, oracle: oracle, suffix: suffix)
    }

    /// A failure: nondeterminism evidence when its re-run here differed; then, when it still fails,
    /// its trace saved, shrunk and re-checked.
    private func handle(_ finding: Fuzzer.Finding, outcome: CampaignOutcome, suffix: String) -> [SavedFinding] {
        var entries: [SavedFinding] = []
        if outcome.nondeterministic.contains(finding.seed), let workerDigest = outcome.workerDigests[finding.seed] {
            var entry = SavedFinding(kind: .nondeterministic, seed: finding.seed, found: finding)
            do throws(SimEngineError) {
                let evidence = try NondeterminismEvidence.gather(
                    seed: finding.seed, firstDigest: workerDigest, recording: try isolatedRecording(),
                    directory: options.directory,
                    stem: "\(plan.scenario.name)-\(plan.variant)-seed\(finding.seed)-nondeterministic",
                    labels: ("worker", "rerun"))
                entry.nondeterminism = (workerDigest, evidence)
                entry.path = evidence.traces.first?.outcome.path
            } catch {
                entry.problem = error
            }
            entries.append(entry)
            // The re-run here passed: the failure is the nondeterminism, never a passing trace.
            guard finding.verdict.isFailure else { return entries }
        }
        entries.append(save(finding, suffix: suffix))
        return entries
    }

    private func save(_ finding: Fuzzer.Finding, suffix: String) -> SavedFinding {
        var entry = SavedFinding(kind: .failure, seed: finding.seed, found: finding)
        let identity = FindingStore.Identity(
            scenario: plan.scenario.name, variant: plan.variant, strategy: strategyName, seed: finding.seed)
        // Saved as found first, then shrunk (by a child when there are children: a candidate may trap).
        do throws(SimEngineError) {
            let store = FindingStore(warn: { entry.warnings.append($0) })
            let (found, path) = try store.save(
                to: wanted(oracle: finding.signature.oracle, suffix: suffix), identity: identity, avoiding: inputs
            ) { (target: String) throws(SimEngineError) -> (verdict: Verdict, eventCount: UInt64) in
                try recordFound(finding, to: target)
            }
            entry.path = path
            entry.verdict = found.verdict
            entry.eventCount = found.eventCount
            entry.decisions.saved = try TraceInput(path: path).tape.count
        } catch {
            entry.problem = error
            return entry
        }
        guard let path = entry.path else { return entry }
        // The trace is saved: whatever fails after this (shrinking, the re-check) is said, and the
        // trace is still the finding.
        do throws(SimEngineError) {
            if options.shrink && !options.isolation.cancellation.isRequested {
                if let footer = try shrink(path, into: &entry) {
                    entry.verdict = footer.verdict
                    entry.eventCount = footer.eventCount
                }
                entry.decisions.saved = try TraceInput(path: path).tape.count
            }
            entry.replay = try checkReplay(of: path)
        } catch {
            entry.problem = error
        }
        return entry
    }

    /// Records the failing run of `finding` into `target` as found: its tape followed decision by
    /// decision, in a child (from the trace a child recorded it in) when there are children.
    private func recordFound(_ finding: Fuzzer.Finding, to target: String) throws(SimEngineError)
        -> (verdict: Verdict, eventCount: UInt64)
    {
        let options = [("foundAtSeed", String(finding.seed)), ("shrunk", "false")]
        guard let launcher else {
            let found = try Recorder.record(
                plan: plan, seed: finding.seed, tape: finding.tape, strategyName: strategyName, to: target,
                options: options)
            return (found.verdict, found.eventCount)
        }
        guard let trace = finding.trace else {
            throw SimEngineError(.failed, "the failure at seed \(finding.seed) has no recording to save")
        }
        let found = try IsolatedRecording(plan: try descriptor(), launcher: launcher).record(
            seed: finding.seed, schedule: .decisions(of: trace), options: options.map { .init(key: $0.0, value: $0.1) },
            to: target)
        return (found.verdict, found.eventCount)
    }

    /// Shrinks the saved trace in place; the shrunk trace's footer (nil: left as found).
    private func shrink(_ path: String, into entry: inout SavedFinding) throws(SimEngineError) -> TraceFooter? {
        let input = try TraceInput(path: path)
        guard let footer = input.footer else { return nil }
        switch try TraceShrink.shrink(input, footer: footer, plan: plan, to: path, isolation: options.isolation) {
        case .trapped(let why):
            entry.shrink = .notShrunk("the shrinking process stopped (\(why))")
            return nil
        case .interrupted:
            entry.shrink = .notShrunk("the shrinking process stopped (interrupted)")
            return nil
        case .shrunk(let report): entry.shrink = .shrunk(report)
        case .failed(_, let message): entry.shrink = .notShrunk(message)
        case .notReproduced:
            entry.shrink = .notReproduced
            return footer
        }
        return try TraceInput(path: path).footer
    }

    /// Replays the saved trace once more (in a new process when there are children) and compares.
    private func checkReplay(of path: String) throws(SimEngineError) -> SavedFinding.ReplayCheck {
        if let launcher {
            let check = try DeterminismCheck.replayInChild(trace: path, launcher: launcher)
            // The end counts as well as the events: a checking process that died is never "identical".
            return check.difference.map { .differed($0, inNewProcess: true) } ?? .identical
        }
        let input = try TraceInput(path: path)
        let divergence = try TraceReplayer(input: input, plan: plan).replayComparing().divergence
        return divergence.map { .differed($0, inNewProcess: false) } ?? .identical
    }

    /// Recordings of the campaign's plan in children (there are children when this is asked).
    private func isolatedRecording() throws(SimEngineError) -> IsolatedRecording {
        IsolatedRecording(plan: try descriptor(), launcher: try options.isolation.launcher(for: "recording a run"))
    }

    /// A crash: recorded again in a child (checkpointing every record), sealed up to the trap,
    /// shrunk with every candidate in a child of its own, and re-checked.
    private func handle(_ crash: Fuzzer.Crash, number: Int, run: Int?) -> SavedFinding {
        var entry = SavedFinding(kind: .crash, seed: crash.seed, verdict: .crashed(crash.message))
        entry.occurrences = crash.occurrences
        let identity = FindingStore.Identity(
            scenario: plan.scenario.name, variant: plan.variant, strategy: strategyName, seed: crash.seed)
        do throws(SimEngineError) {
            let recording = try isolatedRecording()
            let store = FindingStore(warn: { entry.warnings.append($0) })
            let (recorded, path) = try store.save(
                to: wanted(oracle: "crashed", suffix: number == 0 ? "" : "-\(number + 1)"), identity: identity,
                avoiding: inputs
            ) { (target: String) throws(SimEngineError) -> IsolatedRecording.Outcome in
                // An in-order campaign's crash: the child re-runs the campaign up to it (as long as
                // the campaign took), learning the same, and records that run.
                guard let run else { return try recording.record(seed: crash.seed, to: target) }
                return try recording.record(
                    seed: crash.seed, schedule: .inOrderRun(run: run, seeds: configuration.seeds),
                    to: target, timeoutSeconds: FuzzSupervisor.noTimeout)
            }
            entry.path = path
            entry.recording = recorded
            entry.verdict = recorded.verdict
            entry.eventCount = recorded.eventCount
            let decisions = try TraceInput(path: path).tape.count
            entry.decisions = (decisions, decisions)
        } catch {
            entry.problem = error
            return entry
        }
        guard let path = entry.path, let recorded = entry.recording else { return entry }
        do throws(SimEngineError) {
            // Not after Ctrl-C: an interrupted campaign saves its findings unshrunk. Nor a run that
            // never ended: every candidate would wait out the stall bound.
            let stalled = crash.message.hasPrefix(RunStallGuard.messagePrefix)
            if options.shrink, !options.isolation.cancellation.isRequested, recorded.crashed, !stalled {
                let input = try TraceInput(path: path)
                if let footer = input.footer {
                    switch try TraceShrink.shrink(input, footer: footer, plan: plan, to: path, isolation: options.isolation) {
                    case .shrunk(let report):
                        // The saved trace is now the shrunk one: its verdict (the same crash, the
                        // numbers in its message maybe not) and events are the finding's.
                        entry.shrink = .shrunk(report)
                        entry.decisions.saved = report.after.decisions
                        entry.verdict = report.verdict
                        entry.eventCount = report.after.events
                    case .notReproduced: entry.shrink = .notReproduced
                    case .trapped(let why), .failed(_, let why):
                        entry.shrink = .notShrunk("the shrinking process stopped (\(why))")
                    case .interrupted: entry.shrink = .notShrunk("the shrinking process stopped (interrupted)")
                    }
                }
            }
            entry.replay = try checkReplay(of: path)
        } catch {
            entry.problem = error
        }
        return entry
    }
}

extension FindingCampaign {
    /// Planning a campaign runs the `fifo` schedule once (the step estimate `pct` and `delay` spread
    /// their change points over, the coverage goals). That run is the model's code like any other:
    /// when it trapped in the child that planned the campaign (``Isolation/plan(_:in:)``), this
    /// records it again in a child (seed 0) and the campaign's finding is that crash, saved with its
    /// trace in `directory`. `plan` is the campaign's plan, before its estimate is learned.
    package static func fifoCrash(plan: RunPlan.Descriptor, directory: String, launcher: ProcessLauncher)
        throws(SimEngineError) -> SavedFinding
    {
        var fifo = plan.with(strategy: .plainOrder, prefix: nil)
        fifo.estimatedSteps = 1
        let recording = IsolatedRecording(plan: fifo, launcher: launcher)
        let trimmed = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let wanted = "\(trimmed)/" + findingFileName(plan.scenario, plan.variant, oracle: "crashed", suffix: "")
        let identity = FindingStore.Identity(
            scenario: plan.scenario, variant: plan.variant, strategy: StrategySpec.plainOrder.description, seed: 0)
        var entry = SavedFinding(kind: .crash, seed: 0, verdict: .crashed("the fifo schedule trapped"))
        let (recorded, path) = try FindingStore(warn: { entry.warnings.append($0) }).save(
            to: wanted, identity: identity
        ) { (target: String) throws(SimEngineError) -> IsolatedRecording.Outcome in
            try recording.record(seed: 0, to: target)
        }
        entry.foundVerdict = recorded.verdict
        entry.verdict = recorded.verdict
        entry.eventCount = recorded.eventCount
        entry.path = path
        entry.recording = recorded
        return entry
    }
}

extension FindingCampaign {
    /// What the campaign ran and what became of each finding.
    public struct Result: Sendable {
        /// The schedules run and the distinct failures found (crashes are in ``findings``).
        public var report: Fuzzer.Report { outcome.report }
        /// Stopped early by Ctrl-C or SIGTERM: the report covers what ran.
        public var interrupted: Bool { outcome.interrupted }
        /// Every finding handled, failures (lowest seed first) then crashes, in the order the
        /// observer heard of them.
        public var findings: [SavedFinding] = []
        /// Lock classes the runs took in both orders (`--preempt`), each with what was done about it.
        public var potentialDeadlocks: [PotentialDeadlock] = []
        /// True when something was found: a failure, a crash, a run that differed between processes,
        /// or locks taken in both orders.
        public var foundSomething: Bool { !findings.isEmpty || !potentialDeadlocks.isEmpty }
        /// The campaign's outcome as the workers tallied it (for result documents).
        package var outcome: CampaignOutcome

        package init(outcome: CampaignOutcome) { self.outcome = outcome }
    }
}

/// The figures a campaign reports while its schedules run.
public struct CampaignProgress: Sendable, Equatable {
    /// Schedules run so far.
    public var schedules: Int
    /// Failing runs so far.
    public var failures: Int
    /// Distinct failures so far.
    public var distinct: Int
    /// Wall-clock seconds since the campaign started.
    public var seconds: Double
}

/// Hears from a ``FindingCampaign`` as it goes. Every method has a default that does nothing.
public protocol FindingCampaignObserver: Sendable {
    /// Now and then while schedules run (from a worker thread).
    func progress(_ progress: CampaignProgress)
    /// The schedules are done; findings are handled next.
    func schedulesFinished(_ report: Fuzzer.Report)
    /// One finding is handled: saved, shrunk and re-checked, or said why not.
    func saved(_ finding: SavedFinding)
    /// A pair of lock classes taken in both orders was followed up.
    func potentialDeadlock(_ potential: PotentialDeadlock)
}

extension FindingCampaignObserver {
    /// Nothing.
    public func progress(_ progress: CampaignProgress) {}
    /// Nothing.
    public func schedulesFinished(_ report: Fuzzer.Report) {}
    /// Nothing.
    public func saved(_ finding: SavedFinding) {}
    /// Nothing.
    public func potentialDeadlock(_ potential: PotentialDeadlock) {}
}

/// An observer that hears nothing: the campaign's ``FindingCampaign/Result`` says it all.
public struct SilentCampaignObserver: FindingCampaignObserver {
    /// The observer.
    public init() {}
}

/// One finding of a ``FindingCampaign``, with what became of it.
public struct SavedFinding: Sendable {
    /// What kind of finding.
    public enum Kind: Sendable, Equatable {
        /// A failing run (an oracle's verdict, a hang, a deadlock).
        case failure
        /// A run that trapped, taking its worker process down.
        case crash
        /// A failing seed that ran differently here than in the worker that found it.
        case nondeterministic
    }

    /// What became of shrinking.
    public enum Shrink: Sendable, Equatable {
        /// Shrunk (the trace at ``SavedFinding/path`` is the shrunk one).
        case shrunk(ShrinkReport)
        /// No smaller schedule gave the same failure (or crash at the same place): saved as found.
        case notReproduced
        /// Shrinking stopped with this reason: saved as found.
        case notShrunk(String)
    }

    /// What replaying the saved trace once more gave.
    public enum ReplayCheck: Sendable, Equatable {
        /// The same events, every one.
        case identical
        /// Other events: the first difference with context, and whether the replay ran in a new
        /// process (where a per-process hash seed differs).
        case differed([String], inNewProcess: Bool)
    }

    /// What kind of finding.
    public var kind: Kind
    /// The seed that found it (the lowest, for failures and crashes seen more than once).
    public var seed: UInt64
    /// The verdict as found by the campaign.
    public var foundVerdict: Verdict
    /// The verdict of the saved (shrunk) trace; the found one until a trace is saved.
    public var verdict: Verdict
    /// Runs that failed (or trapped) this way.
    public var occurrences: Int
    /// Decisions of the schedule as found, and of the trace as saved.
    public var decisions: (found: Int, saved: Int)
    /// Events of the saved trace.
    public var eventCount: UInt64 = 0
    /// Where the trace is (for nondeterminism, the first trace of the evidence); nil when it could
    /// not be saved (see ``problem``).
    public var path: String?
    /// Lines said while saving (the trace went to a temporary directory instead, and where).
    public var warnings: [String] = []
    /// What became of shrinking; nil when not tried.
    public var shrink: Shrink?
    /// What replaying the saved trace gave; nil when not checked (see ``problem``).
    public var replay: ReplayCheck?
    /// What went wrong handling the finding (with ``path`` set, after the trace was saved).
    public var problem: SimEngineError?
    /// For the crash of an in-order campaign: the run (from 0) that trapped, which ended the campaign.
    package var crashedAtRun: Int?
    /// For a crash: what recording it again in a child left (crashed again, or ran to a verdict),
    /// before any shrinking (``verdict`` and ``eventCount`` are the saved trace's).
    package var recording: IsolatedRecording.Outcome?
    /// For nondeterminism: the digest the worker saw and the recordings made here.
    package var nondeterminism: (workerDigest: UInt64, evidence: NondeterminismEvidence)?

    /// True when the saved trace ends in a verdict other than the one found (an object check's calls
    /// shrink too), or when it fails another way than found (the scenario may not be deterministic).
    public var savedDiffers: Bool { verdict != foundVerdict }

    init(kind: Kind, seed: UInt64, found: Fuzzer.Finding) {
        self.kind = kind
        self.seed = seed
        self.foundVerdict = found.verdict
        self.verdict = found.verdict
        self.occurrences = found.occurrences
        self.decisions = (found.tape.count, found.tape.count)
    }

    init(kind: Kind, seed: UInt64, verdict: Verdict) {
        self.kind = kind
        self.seed = seed
        self.foundVerdict = verdict
        self.verdict = verdict
        self.occurrences = 1
        self.decisions = (0, 0)
    }
}
