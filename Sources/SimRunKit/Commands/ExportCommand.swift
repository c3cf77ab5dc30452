import ArgumentParser
import SimEngine
import SimTrace

struct ExportCommand: CatalogCommand {
    /// The formats `export` writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case perfetto, jsonl
    }

    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a trace as Perfetto/Chrome JSON or as JSON Lines.",
        discussion: """
            perfetto: open the file in ui.perfetto.dev (lanes are threads, jobs slices, causes flow arrows, \
            decisions and the oracle failure instant events). jsonl: one JSON object per line, schema \
            simrun.jsonl/1 (the article "The trace format"). Streams: memory stays bounded whatever the trace's length.

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `export` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.usage, ExitStatus.badTrace, ExitStatus.missingInput, ExitStatus.cannotWrite,
        ExitStatus.interrupted,
    ]

    @Argument(help: "The .simtrace file.") var trace: String
    @Option(help: "perfetto or jsonl.") var format: Format
    @Option(name: [.short, .long], help: "Write here instead of stdout (atomically: a temporary name, then renamed).")
    var out: String?

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        // `--out -` is stdout, like no --out (through the console, whose every write is checked).
        let out = self.out == "-" ? nil : self.out
        if let out {
            // `export t --out t` would replace the trace with its own export.
            try OutputPath.refuseInput(out, flag: "--out", inputs: [(trace, "the input trace")])
            try OutputPath.prepareFile(out, flag: "--out")
        }
        do {
            let reader = try TraceReader(path: trace)
            if let out {
                try OutputPath.createParent(of: out)
                let sink: FileExportSink
                do {
                    sink = try FileExportSink(path: out)
                } catch {
                    // The output could not be opened: a write error (73), never the trace's fault.
                    throw CommandFailure.cannotWrite(out, error)
                }
                do {
                    try export(reader, to: sink)
                    try sink.finish()
                } catch {
                    sink.abandon()
                    // A damaged trace found mid-stream is the input's fault (65), not the output's (73).
                    if error.file == reader.name { throw TraceInput.failure(error) }
                    throw CommandFailure.cannotWrite(out, error)
                }
                if reader.isTruncated {
                    context.console.err("note: \(trace) is truncated; exported its readable prefix")
                }
                context.console.err("wrote \(out) (\(format.rawValue), \(reader.eventCount) events)")
            } else {
                // A failed stdout stops the export; SimRun says why once the command ends (73).
                if try !exportToConsole(reader, context.console) { return ExitStatus.cannotWrite }
            }
        } catch let error as TraceError {
            throw TraceInput.failure(error)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(ExitStatus.badTrace, "\(trace): \(error)")
        }
        return ExitStatus.ok
    }

    /// Exports to stdout; false when stdout could not be written.
    private func exportToConsole(_ reader: TraceReader, _ console: Console) throws(TraceError) -> Bool {
        do {
            try export(reader, to: ConsoleExportSink(console: console))
        } catch {
            if error.file == ConsoleExportSink.name { return false }
            throw error
        }
        return true
    }

    private func export(_ reader: TraceReader, to sink: any ExportSink) throws(TraceError) {
        switch format {
        case .perfetto: try PerfettoExporter(reader: reader).write(to: sink)
        case .jsonl: try JSONLinesExporter(reader: reader).write(to: sink)
        }
    }
}

/// Sends exported lines to the console's stdout (so in-process tests capture them).
final class ConsoleExportSink: ExportSink {
    let console: Console
    init(console: Console) { self.console = console }
    /// The name a stdout write failure is reported under.
    static let name = "<stdout>"
    func line(_ text: String) throws(TraceError) {
        console.out(text)
        // Streaming the rest of a long trace into a failed stdout would only waste time.
        if let failure = console.outputFailure {
            throw TraceError(.unreadable, file: Self.name, offset: 0, expected: "to write stdout", detail: failure)
        }
    }
}
