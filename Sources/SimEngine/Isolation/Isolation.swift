import SimCapture
import SimCore

/// Asked between runs and while a child process works: once it says so, work stops early and
/// reports what it did (a campaign), and a child is passed the request as SIGINT.
public struct Cancellation: Sendable {
    private let check: @Sendable () -> Bool

    /// A cancellation that asks `check`.
    public init(_ check: @escaping @Sendable () -> Bool) { self.check = check }

    /// Never requested.
    public static let never = Cancellation { false }

    /// Requested by Ctrl-C or SIGTERM, once this process handles them by polling (`Interruption`).
    package static let onInterrupt = Cancellation { Interruption.isRequested }

    /// True once cancellation is requested.
    public var isRequested: Bool { check() }
}

/// Where the user's code runs: on threads of this process (a trap ends it), or in child processes
/// started by a ``ProcessLauncher`` (a trap ends one child and is a finding). Passed as a value to
/// everything that runs the user's code (`FindingCampaign`, `TraceReplay`, shrinking, `Explainer`,
/// the determinism check): nothing reads a process-wide flag to decide.
public struct Isolation: Sendable {
    /// The launcher of the child processes; nil: in this process.
    public let launcher: ProcessLauncher?
    /// Asked between runs: the launcher's, or the one given for work in this process.
    public let cancellation: Cancellation

    /// On threads of this process, never cancelled.
    public static let inProcess = Isolation(launcher: nil, cancellation: .never)

    /// On threads of this process, stopped early when `cancellation` says so.
    public static func inProcess(cancelledBy cancellation: Cancellation) -> Isolation {
        Isolation(launcher: nil, cancellation: cancellation)
    }

    /// In child processes started by `launcher` (cancelled as it is).
    public static func processes(_ launcher: ProcessLauncher) -> Isolation {
        Isolation(launcher: launcher, cancellation: launcher.cancellation)
    }

    /// The launcher, for work that must run where a trap is a finding; the one error that says it
    /// cannot (`work` says what: "shrinking a crash"), raised here and nowhere else.
    package func launcher(for work: String) throws(SimEngineError) -> ProcessLauncher {
        guard let launcher else {
            throw .usage(
                "\(work) runs the code in a child process, where a trap is a finding; only a binary built on "
                    + "SimRun.main starts one (from a test: give SimTesting that executable)")
        }
        return launcher
    }

    /// How planning a campaign went: the plan, or the trap of its fifo run.
    package enum Planning {
        /// The plan, with its step estimate and coverage goals.
        case planned(RunPlan)
        /// The fifo run trapped (in a child): this message, or how the child ended.
        case trapped(String)
    }

    /// Plans `descriptor` (its step estimate and goals are learned here; the rest is kept) by
    /// running its scenario's `fifo` schedule once: in a child when there is a launcher, where a
    /// trap is the plan's finding; else in this process (``RunPlan/probed(scenario:variant:strategy:noise:carriers:)``).
    package func plan(_ descriptor: RunPlan.Descriptor, in catalog: ScenarioCatalog) throws(SimEngineError)
        -> Planning
    {
        var base = try RunPlan(descriptor, in: catalog)
        guard let launcher else {
            let probed = RunPlan.probed(
                scenario: base.baseScenario, variant: base.variant, strategy: base.strategy, noise: base.noise,
                carriers: base.carriers)
            base.estimatedSteps = probed.estimatedSteps
            base.goalNames = probed.goalNames
            return .planned(base)
        }
        let run = try launcher.run(.plan(descriptor))
        for reply in run.replies {
            if case .planned(let steps, let goals) = reply {
                base.estimatedSteps = max(steps, 1)
                base.goalNames = goals
                return .planned(base)
            }
        }
        if case .signaled = run.termination, !run.cancelled {
            return .trapped(run.trapMessage ?? "the model \(run.termination)")
        }
        throw run.failure ?? SimEngineError(.failed, "the planning process \(run.termination) without its plan")
    }
}

/// Starts simrun's child processes, of one executable built on `SimRun.main(scenarios:)` (this
/// one, or a user's from a test), and carries the cancellation they are stopped by.
public struct ProcessLauncher: Sendable {
    /// The executable; nil: this process's own.
    public let executable: String?
    /// Passed on to a child that works for a command as SIGINT, and asked by campaigns between runs.
    public let cancellation: Cancellation

    /// A launcher of `executable`, a binary built on `SimRun.main` whose catalog knows the scenarios
    /// the work names (your package's simrun executable).
    public init(executable: String, cancellation: Cancellation = .never) {
        self.executable = executable
        self.cancellation = cancellation
    }

    private init(self cancellation: Cancellation) {
        executable = nil
        self.cancellation = cancellation
    }

    /// A launcher of this very executable; nil in a process that is not built on `SimRun.main`.
    package static func thisExecutable(cancellation: Cancellation) -> ProcessLauncher? {
        ChildProcess.isSelfExecutable ? ProcessLauncher(self: cancellation) : nil
    }

    /// Runs `job` in a child to its end and reads its replies. With `passingCancellation`, this
    /// launcher's cancellation reaches the child as SIGINT (work a command waits for). A child that
    /// rebuilt another plan than the job's is an error, never a silently different run.
    /// `onReply` hears each reply as the child sends it, before the child is reaped.
    package func run(
        _ job: ChildJob, timeoutSeconds: Double = 300, passingCancellation: Bool = false,
        onReply: ((ChildReply) -> Void)? = nil
    ) throws(SimEngineError) -> ChildRun {
        let output = try ChildProcess.run(
            [ChildEntry.argument, job.kind], input: Array(try job.encoded().utf8), executable: executable,
            timeoutSeconds: timeoutSeconds, cancellation: passingCancellation ? cancellation : nil,
            onStdoutLine: onReply.map { hear in { line in ChildReply(line: line).map(hear) } })
        let run = ChildRun(
            termination: output.termination, replies: ChildReply.replies(in: output.stdout), stderr: output.stderr,
            cancelled: output.cancelled || cancellation.isRequested)
        try run.check(plan: job.plan)
        return run
    }

    /// Starts `job` (a fuzz worker's) in a child that inherits `board` on ``WorkerBoard/childDescriptor``.
    package func start(_ job: ChildJob, board: WorkerBoard) throws(SimEngineError) -> ChildProcess {
        try ChildProcess.spawn(
            [ChildEntry.argument, job.kind], executable: executable,
            inherit: [(WorkerBoard.childDescriptor, board.descriptor)], input: Array(try job.encoded().utf8))
    }

    /// Runs `arguments` (a command of the executable's own) to its end with this process's stdout
    /// and stderr, `input` on its stdin, this launcher's cancellation passed on as SIGINT.
    package func runCommand(_ arguments: [String], input: [UInt8]) throws(SimEngineError) -> ChildProcess.Output {
        try ChildProcess.run(
            arguments, input: input, executable: executable, captureOutput: false,
            timeoutSeconds: 365 * 24 * 3600, cancellation: cancellation)
    }
}

/// What a child ran to its end left: how it ended, its replies, its stderr.
package struct ChildRun {
    package var termination: ChildProcess.Termination
    package var replies: [ChildReply]
    package var stderr: String
    /// Cancellation was requested while it ran (a signal that ended it is not a trap).
    package var cancelled: Bool

    /// The runtime's message for a trap, from stderr.
    package var trapMessage: String? { ChildProcess.trapMessage(in: stderr) }

    /// The failure the child reported, if any.
    package var failure: SimEngineError? {
        for case .failure(let kind, let message) in replies { return SimEngineError(kind, message) }
        return nil
    }

    /// Throws when the child said it runs another plan than `plan`.
    fileprivate func check(plan: RunPlan.Descriptor?) throws(SimEngineError) {
        for case .running(let rebuilt) in replies where rebuilt != plan {
            throw SimEngineError(
                .failed,
                "the child process rebuilt another plan than it was sent (sent \(String(describing: plan)), ran \(String(describing: rebuilt)))"
            )
        }
    }
}
