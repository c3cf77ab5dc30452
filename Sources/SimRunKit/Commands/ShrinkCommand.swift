import ArgumentParser
import SimCore

struct ShrinkCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "shrink", abstract: "Shrink a failing trace toward fifo and fewer steps, keeping its failure.")

    @Argument(help: "The failing .simtrace file.") var trace: String
    @Option(name: [.short, .long], help: "Where to write the shrunk trace (default: <trace>.shrunk.simtrace).")
    var out: String?

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let input = try TraceInput(path: trace)
        guard let footer = input.footer else {
            throw CommandFailure(
                ExitStatus.badTrace,
                "\(trace): at decompressed byte \(input.endOffset): expected the footer with the run's verdict (the trace is truncated after event \(input.eventCount); shrinking needs the failure to keep)"
            )
        }
        if case .crashed = footer.verdict {
            throw CommandFailure(
                ExitStatus.usage,
                "\(trace): the recorded run crashed; shrinking would run candidate schedules that trap (not supported) — `simrun replay` reproduces it in a child process"
            )
        }
        guard footer.verdict.isFailure else {
            throw CommandFailure(ExitStatus.usage, "\(trace): the recorded run did not fail; nothing to shrink")
        }
        let plan = try input.plan(in: context.catalog)
        let shrinker = Shrinker(plan: plan, seed: input.header.seed, target: FailureSignature(footer.verdict))
        guard let outcome = shrinker.shrink(input.tape) else {
            throw CommandFailure(
                ExitStatus.failure, "\(trace): the recorded failure does not reproduce on this build; cannot shrink")
        }
        let path = out ?? (trace.hasSuffix(".simtrace") ? String(trace.dropLast(9)) : trace) + ".shrunk.simtrace"
        let recorded = try Recorder.record(
            plan: plan, seed: input.header.seed, tape: outcome.tape, strategyName: input.header.strategy, to: path,
            options: [("shrunk", "true")])
        let console = context.console
        console.out("shrunk in \(outcome.runs) runs, same failure: \(recorded.verdict)")
        console.out(ShrinkSummary(before: outcome.original, after: recorded).lines.joined(separator: "\n"))
        console.out("trace: \(path)")
        console.out("replay: simrun replay \(shellQuoted(path))")
        return ExitStatus.ok
    }
}

/// Before/after figures of a shrink.
struct ShrinkSummary {
    let before: RunResult
    let after: RunResult

    private static func deviations(_ result: RunResult) -> Int { result.tape.decisions.filter(\.isDeviation).count }

    var lines: [String] {
        [
            "             before   after",
            "decisions  \(pad(before.tape.count))  \(pad(after.tape.count))",
            "  non-fifo \(pad(Self.deviations(before)))  \(pad(Self.deviations(after)))",
            "events     \(pad(Int(before.eventCount)))  \(pad(Int(after.eventCount)))",
            "steps      \(pad(before.steps))  \(pad(after.steps))",
        ]
    }

    private func pad(_ value: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, 7 - text.count)) + text
    }
}
