import ArgumentParser
import SimCore
import SimEngine
import SimTrace

/// `simrun _rerun <command>`: does the work of a command that prints as it goes (`run`, `explain`)
/// for the process that parsed its command line, so that a model that traps ends this child and not
/// the command. What to do is one typed ``Work`` on stdin (the options as the parent parsed them,
/// encoded by the engine's `Codable` over JSON); the output goes straight to the parent's stdout and
/// stderr. It stops on Ctrl-C as its command does, and its errors name that command. Hidden: only
/// simrun itself runs it.
struct RerunCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: name, abstract: "Do the work of `run` or `explain` for a parent process (internal).",
        shouldDisplay: false)

    /// The subcommand's name, as the parent starts it.
    static let name = "_rerun"

    /// The command whose work this is (`run`, `explain`), named in `--json` error documents.
    @Argument var command: String

    /// The work of one command.
    enum Work: Sendable, Equatable, Codable {
        /// One schedule of `run`.
        case run(ScheduleRun.Request)
        /// One explanation of `explain`.
        case explain(TraceExplanation.Request)

        /// The console options the work prints with.
        var output: CommandOutput {
            switch self {
            case .run(let request): request.output
            case .explain(let request): request.output
            }
        }

        /// The command the work is of.
        var command: String {
            switch self {
            case .run: "run"
            case .explain: "explain"
            }
        }
    }

    /// How the child's work ended, as the parent reports it.
    enum Outcome: Sendable, Equatable {
        /// The child ran the command to its end with this exit status.
        case exited(Int32)
        /// Ctrl-C or SIGTERM was passed on and the child died of it: an interruption, not a crash.
        case interrupted
        /// The child died of this signal on its own: the work trapped.
        case crashed(signal: Int32)
    }

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let text: [UInt8]
        do {
            text = try SystemIO.readAll(0, limit: 1 << 20)
        } catch {
            throw .usage("\(command): cannot read the work from stdin: \(error)")
        }
        let work = try JSONValueDecoder(what: "\(command) work").decode(
            Work.self, fromText: String(decoding: text, as: UTF8.self))
        guard work.command == command else { throw .usage("\(Self.name) \(command) was given \(work.command)'s work") }
        // The style first, then Ctrl-C handled as its command does (`SimRun.main` leaves that to
        // this command): from the moment it handles a signal, this child prints the `--json`
        // document of an interruption itself; killed by one before, its parent prints it.
        work.output.apply(to: context.console)
        Interruption.installImmediate()
        switch work {
        case .run(let request):
            return try ScheduleRun(request: request).execute(context: context)
        case .explain(let request):
            let input = try TraceInput(path: request.trace)
            let footer = try ExplainCommand.footer(of: input, trace: request.trace)
            return try TraceExplanation(request: request).execute(input: input, footer: footer, context: context)
        }
    }

    /// Runs `work` in a child of this executable with this process's output, Ctrl-C and SIGTERM
    /// passed on; nil when there is no child to run (the command tree hosted by another program):
    /// then the caller does the work itself.
    static func run(_ work: Work, context: CommandContext) throws(CommandFailure) -> Outcome? {
        guard let launcher = context.isolation.launcher else { return nil }
        // Polled from here: the first Ctrl-C is passed on to the child, which stops as the command would.
        Interruption.install()
        // A signal before that (this process is ending, its own document armed): no child, and the
        // document is not withdrawn — the caller's report or the ending prints it, once.
        if Interruption.isRequested { return .interrupted }
        // The child prints on this process's stdout, its `--json` document included: this process
        // prints none of its own for an interruption (`ChildCrashReport` does when the child died
        // of the signal before it could).
        Interruption.armDocument(nil)
        let input = Array(try JSONValueEncoder().encode(work).text.utf8)
        let output = try launcher.runCommand([name, work.command], input: input)
        switch output.termination {
        case .exited(let status): return .exited(status)
        case .signaled where output.cancelled: return .interrupted
        case .signaled(let signal): return .crashed(signal: signal)
        }
    }
}
