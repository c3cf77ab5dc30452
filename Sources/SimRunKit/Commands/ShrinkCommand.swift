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
        let crashed = footer.verdict.isCrash
        if crashed && !ChildProcess.isAvailable {
            throw CommandFailure(
                ExitStatus.usage,
                "\(trace): the recorded run crashed; shrinking it runs each candidate schedule in a child process, which this host cannot start"
            )
        }
        try OutputPath.createParent(of: path)
        // A candidate schedule may trap: the shrinking runs in a child told by one `ShrinkRequest`,
        // and a trap is a finding. A crash's candidates each run in a child of their own (CrashShrink).
        let shrunkReport: ShrinkReport?
        if crashed {
            shrunkReport = try CrashShrink.shrink(input, footer: footer, plan: plan, to: path)
        } else if ChildProcess.isAvailable {
            switch try ShrinkRequest(trace: trace, out: path).runInChild(
                forwardingInterruption: true, timeoutSeconds: InOrderSupervisor.noTimeout)
            {
            case .interrupted: return ExitStatus.interrupted
            case .trapped(let message):
                return ChildCrashReport.crashed(command: "shrink", message: message, trace: trace, console: context.console)
            case .record(.shrunk(let report)): shrunkReport = report
            case .record(.notReproduced): shrunkReport = nil
            case .record(.failure(let kind, let message)): throw CommandFailure(kind, message)
            case .record(.partial): throw CommandFailure(.failed, "the shrinking process answered with no result")
            }
        } else {
            shrunkReport = try TraceShrink.shrink(input, footer: footer, plan: plan, to: path)
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

/// `simrun _shrink`: shrinks one trace in a process of its own (a candidate schedule may trap) for
/// `simrun shrink` and `FindingCampaign`: one `ShrinkRequest` (SimEngine) on stdin, one typed record
/// (`ChildRecord`) on stdout; the shrinking is the engine's. Hidden: only simrun itself runs it.
struct ShrinkChildCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_shrink", abstract: "Shrink one trace for a parent process (internal).", shouldDisplay: false)

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let record: ChildRecord
        do throws(CommandFailure) {
            record = try ShrinkRequest.read(from: 0).run(in: context.catalog)
        } catch {
            record = .failure(kind: error.kind, message: error.message)
        }
        Console().out(record.text)
        return ExitStatus.ok
    }
}
