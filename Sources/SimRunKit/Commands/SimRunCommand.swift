import ArgumentParser
import SimBenchmarks
import SimCapture
import SimCore
import SimEngine

/// The root of the command tree.
struct SimRunCommand: ParsableCommand {
    /// Computed, not stored: the root is named after the program being run (`simrun`, or a user's
    /// own executable), so its help, usage lines and completion scripts name that program.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: SimRun.programName,
            abstract: "Deterministic simulation, fuzzing and replay of ordering bugs.",
            discussion: ExitStatus.helpText + "\n\n" + SimRun.completionHelp,
            version: SimRunVersion.current,
            subcommands: [
                ListCommand.self, RunCommand.self, FuzzCommand.self, MergeCommand.self, ReplayCommand.self,
                ShrinkCommand.self, ShowCommand.self, ExplainCommand.self, ExportCommand.self, BenchCommand.self,
                RerunCommand.self, BenchRecordCommand.self, BenchAllocationsCommand.self,
            ]
        )
    }
}

/// What every command gets: the scenarios it may run, and where to print.
public struct CommandContext: Sendable {
    /// The scenarios the command may name.
    public let catalog: ScenarioCatalog
    /// Where results, progress and errors go.
    public let console: Console
    /// The name the user ran (`simrun`, or their own executable's), for the commands we print.
    public let programName: String
    /// Where the user's code runs: in child processes of this executable when it is built on
    /// `SimRun.main`, else in this process (a test calling `SimRun.run`).
    public let isolation: Isolation
}

/// A subcommand that runs with the scenario catalog instead of ArgumentParser's `run()`.
protocol CatalogCommand: ParsableCommand {
    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32
}

extension CatalogCommand {
    func run() throws {
        throw CommandFailure(ExitStatus.usage, "this command must be run through SimRun.main")
    }
}

/// Runs the simrun command tree over a set of scenarios: the built-in ones, or a user's own.
public enum SimRun {
    /// The program name while a command line is parsed and run (help, usage, completions).
    @TaskLocal static var programName = "simrun"

    static var completionHelp: String {
        "Shell completions: `\(programName) --generate-completion-script bash` (or zsh, fish)."
    }

    /// Parses the process arguments, runs the command and exits with its status.
    public static func main(scenarios: [Scenario]) -> Never {
        // Swift's hash seed is drawn once per process, at load: a `Set`'s order, and so a run of code
        // that iterates one, would differ in every process. Restart once with it pinned (the
        // children are pinned anyway), before anything else runs.
        HashSeed.restartPinnedIfNeeded()
        // First thing, while no task exists: only then can simrun's executors capture `@MainActor`
        // code and sleeps (see ExecutorCapture). Processes that run no async scenario pay nothing for it
        // but a fallback hop for tasks that belong to no run (simrun itself starts none).
        ExecutorCapture.installExecutorFactory()
        ChildProcess.markSelfExecutable()
        clampHelpWidth()
        // One of simrun's own child processes: the engine's, before any command line is parsed. It
        // dies with its parent; its parent decides about Ctrl-C.
        if ChildEntry.isChild(CommandLine.arguments) {
            let failure = ChildEntry.main(catalog: catalog(scenarios))
            exit(failure.map { SimEngineError.code(for: $0.kind) } ?? ExitStatus.ok)
        }
        let program = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "simrun") }
        // Ctrl-C, SIGTERM and SIGHUP end every command with 130; `fuzz` stops and reports what ran,
        // from its first moment (a signal while it plans stops the campaign before its first run).
        let first = CommandLine.arguments.dropFirst().first
        if let first, CommandLine.arguments.contains("--json"), commandNames.contains(first) {
            // Before the first signal can come: `--json` prints its document however early it lands.
            Interruption.armDocument(Console.interruptedDocument(command: first))
        }
        if let child = first, child.hasPrefix("_") {
            // A hidden command run by simrun itself (`_rerun`, the bench's `_bench-record`) dies with
            // its parent, which ends it with SIGTERM: it removes the files it was writing and dies of
            // it. `_rerun` stops on Ctrl-C as its command would once it knows its output style, and
            // prints to the user's terminal: no trap reporter (its parent records a crash again in a
            // child that has one).
            ChildProcess.bindLifetimeToParent()
            Interruption.installChildCleanup()
            if child != RerunCommand.name { ChildProcess.installTrapReporter() }
        } else if first == "fuzz" {
            Interruption.install()
        } else {
            Interruption.installImmediate()
        }
        // A `--build-label` names this process's build for its children too (they write trace
        // headers): set once, here, before any thread or child exists.
        if let label = BuildLabelOption.label(in: Array(CommandLine.arguments.dropFirst())) {
            setenv(BuildIdentity.environmentKey, label, 1)
        }
        let code = run(
            arguments: Array(CommandLine.arguments.dropFirst()), scenarios: scenarios, console: Console(),
            programName: program ?? "simrun",
            isolation: ProcessLauncher.thisExecutable(cancellation: .onInterrupt).map(Isolation.processes)
                ?? .inProcess(cancelledBy: .onInterrupt))
        // A signal is ending the process (its children stopped, its files removed, exit 130): the
        // command's own ending, likely an error from a child it lost, is not the answer.
        Interruption.waitIfEnding()
        exit(code)
    }

    /// The narrowest help ArgumentParser lays out: it asserts that a line leaves room for its
    /// indentation (26 columns), and traps on a terminal a few columns wide.
    static let narrowestHelp = 40

    /// Gives ArgumentParser at least `narrowestHelp` columns: `COLUMNS` below that (0, negative, a
    /// 5-column window) is raised to it — the help wraps at 40 columns rather than trapping. Set in
    /// `main`, before any thread exists.
    static func clampHelpWidth() {
        if let text = getenv("COLUMNS").map({ String(cString: $0) }), let columns = Int(text) {
            if columns < narrowestHelp { setenv("COLUMNS", String(narrowestHelp), 1) }
            return
        }
        var size = winsize()
        #if canImport(Darwin)
            let found = ioctl(1, TIOCGWINSZ, &size) == 0
        #else
            let found = ioctl(1, UInt(TIOCGWINSZ), &size) == 0
        #endif
        if found && size.ws_col > 0 && Int(size.ws_col) < narrowestHelp {
            setenv("COLUMNS", String(narrowestHelp), 1)
        }
    }

    /// Runs one command line in this process (every run of the user's code too: a trap ends the
    /// process) and returns its exit status.
    public static func run(
        arguments: [String], scenarios: [Scenario], console: Console = Console(), programName: String = "simrun"
    ) -> Int32 {
        run(
            arguments: arguments, scenarios: scenarios, console: console, programName: programName,
            isolation: .inProcess(cancelledBy: .onInterrupt))
    }

    static func run(
        arguments: [String], scenarios: [Scenario], console: Console, programName: String, isolation: Isolation
    ) -> Int32 {
        $programName.withValue(programName) {
            runNamed(
                arguments: arguments, scenarios: scenarios, console: console, programName: programName,
                isolation: isolation)
        }
    }

    /// The scenarios a command tree runs: the caller's, then the benchmark groups (whose names lose).
    private static func catalog(_ scenarios: [Scenario]) -> ScenarioCatalog {
        let benchmarks = SCTBench.scenarios.filter { bench in !scenarios.contains { $0.name == bench.name } }
        return ScenarioCatalog(scenarios + benchmarks)
    }

    private static func runNamed(
        arguments: [String], scenarios: [Scenario], console: Console, programName: String, isolation: Isolation
    ) -> Int32 {
        console.resetOutputFailure()
        let status = runParsed(
            arguments: arguments, scenarios: scenarios, console: console, programName: programName,
            isolation: isolation)
        // Every stdout write is checked: results that did not reach their reader (a full disk, a
        // closed descriptor) are never a success. A bug found (1) still wins, as over any write error;
        // a code that already says the command failed is kept.
        guard let failure = console.outputFailure else { return status }
        console.err("\(programName): cannot write to stdout: \(failure); the output is incomplete")
        // `replay --bisect`: a run whose record was lost stops the bisection, whatever it found.
        if ReplayCommand.asksForBisect(arguments) { return ReplayCommand.bisectAbort }
        return status == ExitStatus.ok ? ExitStatus.cannotWrite : status
    }

    private static func runParsed(
        arguments: [String], scenarios: [Scenario], console: Console, programName: String, isolation: Isolation
    ) -> Int32 {
        let context = CommandContext(
            catalog: catalog(scenarios), console: console, programName: programName, isolation: isolation)
        // A console may serve several command lines; each starts from the defaults its options change.
        // With --json, a signal from the very start (while the command line is parsed) prints the
        // interrupted document; the command sets its own style once parsed.
        // Both at once: set one by one, a signal between them found the document `main` armed
        // withdrawn (the command set while the style was still human) and printed none.
        console.begin(
            command: arguments.first.flatMap { Self.commandNames.contains($0) ? $0 : nil } ?? "",
            style: arguments.contains("--json") ? .json : .human)
        console.progressStyle = .automatic
        console.fullTaskNames = false
        var commandName = ""
        // `replay --bisect` answers `git bisect run`, which reads every code from 1 to 127 but 125 as
        // "bad": an error before the replay (a usage error the parser finds) stops the bisection.
        let bisect = ReplayCommand.asksForBisect(arguments)
        do {
            try checkCommandName(arguments)
            let command = try SimRunCommand.parseAsRoot(FuzzCommand.normalizingCheckDeterminism(arguments))
            if let labelled = command as? any LabelsBuild, let label = labelled.build.buildLabel {
                // In this process (its children have it from the environment `main` set).
                return try BuildIdentity.$label.withValue(label) {
                    try execute(command, context: context, commandName: &commandName)
                }
            }
            return try execute(command, context: context, commandName: &commandName)
        } catch let failure as CommandFailure {
            console.err("\(programName): \(failure.message)")
            let code = bisect ? ReplayCommand.bisectCode(forError: failure.code) : failure.code
            // With --json, a failure is still one document on stdout: scripts read the code there.
            let document = ResultDocument(
                command: commandName, verdict: "error", exitCode: code,
                members: [.init("error", .string(failure.message))])
            console.json(document.text)
            return code
        } catch {
            let code = SimRunCommand.exitCode(for: error).rawValue
            let message = SimRunCommand.fullMessage(for: error)
            if code == 0 {
                console.outputStyle = .human  // help and version are text, whatever else was given
                console.out(message)
            } else {
                console.err(message)
            }
            var status = code == 0 ? 0 : (code == 1 ? ExitStatus.usage : code)
            if bisect && status != 0 { status = ReplayCommand.bisectCode(forError: status) }
            // A usage error found by the parser is still one document with --json, like later ones
            // (the console's style was never set: the command did not start).
            if status != 0 && arguments.contains("--json") {
                let name = arguments.first { Self.commandNames.contains($0) } ?? ""
                let firstLine = message.split(separator: "\n").first.map(String.init) ?? message
                console.outputStyle = .json
                console.json(
                    ResultDocument(
                        command: name, verdict: "error", exitCode: status, members: [.init("error", .string(firstLine))]
                    ).text)
            }
            return status
        }
    }

    /// The visible subcommands' names.
    /// Runs a parsed command; `commandName` is set as soon as it is known (for `--json` errors).
    private static func execute(_ parsed: any ParsableCommand, context: CommandContext, commandName: inout String)
        throws -> Int32
    {
        var command = parsed
        if var reader = command as? any ReadsTraceTwice {
            commandName = type(of: reader).configuration.commandName ?? ""
            context.console.command = commandName
            let spooled = try SpooledTrace(reader.trace)
            defer { spooled.remove() }
            reader.trace = spooled.path
            return try reader.execute(context)
        }
        if let catalogCommand = command as? any CatalogCommand {
            commandName = type(of: catalogCommand).configuration.commandName ?? ""
            // A command re-run in a child fails as that command (`run`) would.
            if let rerun = catalogCommand as? RerunCommand { commandName = rerun.command }
            context.console.command = commandName
            return try catalogCommand.execute(context)
        }
        try command.run()
        return ExitStatus.ok
    }

    static var commandNames: [String] {
        SimRunCommand.configuration.subcommands.compactMap { command in
            command.configuration.shouldDisplay ? command.configuration.commandName : nil
        } + ["help"]
    }

    /// A first word that is no command (`simrun fuz …`, `simrun help nosuch`) is a usage error naming
    /// the nearest command, never "unexpected arguments" nor the top-level help with exit 0.
    private static func checkCommandName(_ arguments: [String]) throws(CommandFailure) {
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        var word = first
        if first == "help" {
            guard arguments.count > 1, !arguments[1].hasPrefix("-") else { return }
            word = arguments[1]
        }
        let known = commandNames + SimRunCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !known.contains(word) else { return }
        let visible = commandNames.filter { $0 != "help" }
        let distance = ScenarioCatalog.editDistance
        let nearest = visible.min { distance(word, $0) < distance(word, $1) }
        let hint = nearest.flatMap { distance(word, $0) <= 2 ? "; did you mean '\($0)'?" : nil } ?? ""
        throw .usage("unknown command '\(word)'\(hint) (commands: \(visible.joined(separator: ", ")))")
    }
}
