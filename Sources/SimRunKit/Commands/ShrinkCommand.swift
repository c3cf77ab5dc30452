import ArgumentParser
import SimCore
import SimEngine
import SimTrace

struct ShrinkCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "shrink", abstract: "Shrink a failing trace toward fifo and fewer steps, keeping its failure.",
        discussion: ExitStatus.helpText(for: codes))

    /// The codes `shrink` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.failure, ExitStatus.usage, ExitStatus.badTrace, ExitStatus.missingInput,
        ExitStatus.cannotWrite, ExitStatus.interrupted,
    ]

    @Argument(help: "The failing .simtrace file.") var trace: String
    @Option(
        name: [.short, .long],
        help: "Where to write the shrunk trace (default: beside the trace, .shrunk before .simtrace: t.simtrace → t.shrunk.simtrace)."
    )
    var out: String?
    @OptionGroup var output: OutputOptions
    @OptionGroup var build: BuildLabelOption

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        output.apply(to: context.console)
        // `shrink t -o t` would replace the failing trace with another run: the input stays as it is.
        if let out { try OutputPath.refuseInput(out, flag: "-o/--out", inputs: [(trace, "the input trace")]) }
        let input = try TraceInput(path: trace)
        // Checked before the shrinking runs; after the input, so that a mistyped trace path is
        // "missing input" and its directory is never created for the default output next to it.
        let path = out ?? (trace.hasSuffix(".simtrace") ? String(trace.dropLast(9)) : trace) + ".shrunk.simtrace"
        try OutputPath.prepareFile(path, flag: out == nil ? "the shrunk trace" : "-o/--out")
        guard let footer = input.footer else {
            throw CommandFailure(
                ExitStatus.badTrace,
                "\(trace): at decompressed byte \(input.endOffset): expected the footer with the run's verdict (the trace is truncated after event \(input.eventCount); shrinking needs the failure to keep)"
            )
        }
        guard footer.verdict.isFailure else {
            throw CommandFailure(ExitStatus.usage, "\(trace): the recorded run did not fail; nothing to shrink")
        }
        let plan = try input.plan(in: context.catalog)
        if footer.verdict.isCrash { _ = try context.isolation.launcher(for: "\(trace): the recorded run crashed; shrinking it") }
        try OutputPath.createParent(of: path)
        // A candidate schedule may trap: the engine shrinks in a child (a crash's candidates each in
        // a child of their own) wherever there are children, and a trap is a finding.
        let shrunkReport: ShrinkReport?
        switch try TraceShrink.shrink(
            input, footer: footer, plan: plan, to: path, isolation: context.isolation, passingCancellation: true,
            timeoutSeconds: FuzzSupervisor.noTimeout)
        {
        case .interrupted: return ExitStatus.interrupted
        case .trapped(let message):
            return ChildCrashReport.crashed(command: "shrink", message: message, trace: trace, console: context.console)
        case .shrunk(let report): shrunkReport = report
        case .notReproduced: shrunkReport = nil
        case .failed(let kind, let message): throw CommandFailure(kind, message)
        }
        guard let shrunk = shrunkReport else {
            throw CommandFailure(
                ExitStatus.failure, "\(trace): the recorded failure does not reproduce on this build; cannot shrink")
        }
        let console = context.console
        console.verdict(shrunk.line)
        console.out("same failure: \(shrunk.verdict)")
        console.out("trace: \(path)")
        console.out("replay: \(context.programName) replay \(shellQuoted(path))")
        let counts = { (counts: ShrinkCounts) -> JSONValue in
            .object([
                "decisions": .int(Int64(counts.decisions)), "nonFifo": .int(Int64(counts.nonFifo)),
                "events": .unsigned(counts.events), "steps": .int(Int64(counts.steps)),
            ])
        }
        console.json(
            ResultDocument(
                command: "shrink", verdict: "shrunk", exitCode: ExitStatus.ok,
                members: ResultDocument.run(
                    scenario: input.header.scenario, variant: plan.variant, strategy: input.header.strategy,
                    seed: input.header.seed)
                    + [
                        .init("trace", .string(path)), .init("runs", .int(Int64(shrunk.runs))),
                        .init("outcome", ResultDocument.outcome(shrunk.verdict)),
                        .init("before", counts(shrunk.before)), .init("after", counts(shrunk.after)),
                        .init(
                            "findings", ResultDocument.findings(shrunk.verdict, seed: input.header.seed, trace: path)),
                    ]
            ).text)
        return ExitStatus.ok
    }
}
