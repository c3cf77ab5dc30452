import ArgumentParser
import SimBench
import SimCore
import SimEngine
import SimTrace

struct BenchCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Measure performance, each figure against a baseline from the same run.",
        discussion: """
            Prints a table of figures (kernel jobs/s, timer jobs/s, recording, corpus bytes/event, replay, decode, fuzz \
            schedules/s, schedules until the lost-input bug, peak memory while recording, allocations per unit on the six \
            hot paths), each with its \
            baseline, the ratio and the target. The full run takes a few minutes on two cores; --quick runs \
            reduced sizes in seconds (its figures only show that everything runs).

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `bench` can return (the exit-code test walks each one).
    static let codes = [ExitStatus.ok, ExitStatus.usage, ExitStatus.cannotWrite, ExitStatus.interrupted]

    @Flag(help: "Reduced sizes: seconds instead of minutes.") var quick = false
    @Flag(help: "Print one JSON object instead of the table.") var json = false
    @Option(
        parsing: .unconditional,
        help:
            "Multiply the kernel, timer, async, recording and replay sizes by this (1 to \(Self.maxScale); tools/growth.sh measures growth with it).",
        transform: NumberArgument.int(1...BenchCommand.maxScale))
    var scale = 1
    @Option(help: "Run only these measurements (comma-separated: \(Benchmark.groups.joined(separator: ", "))).")
    var only: String?

    /// The largest `--scale`: the full sizes times this still count in `Int` and fit a day's run.
    static let maxScale = 1_000

    func validate() throws {
        // An empty selection (`--only "$FIGURES"` with the variable unset) would measure nothing and pass.
        if only != nil && selected.isEmpty {
            throw ValidationError(
                "--only names no measurement; give one or more of \(Benchmark.groups.joined(separator: ", ")), or leave --only out to run them all"
            )
        }
        for name in selected where !Benchmark.groups.contains(name) {
            throw ValidationError("unknown measurement '\(name)' (known: \(Benchmark.groups.joined(separator: ", ")))")
        }
    }

    private var selected: Set<String> {
        guard let only else { return Set(Benchmark.groups) }
        return Set(
            only.split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }.filter { !$0.isEmpty })
    }

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        // One document on stdout (an interruption prints its own, marked partial).
        console.outputStyle = json ? .json : .human
        // Removed when the bench ends, or when a signal ends it (with what its children wrote there).
        let directory = try TemporaryDirectory.makeDirectory(prefix: "simrun-bench")
        defer { TemporaryDirectory.removeDirectory(directory) }
        let configuration = (quick ? Benchmark.Configuration.quick(in: directory) : .full(in: directory))
            .scaled(by: scale)
        let start = ContinuousClock.now
        let figures = try Benchmark(configuration: configuration, launcher: context.isolation.launcher).run(
            only: selected
        ) {
            console.progress("bench: \($0)")
        }
        console.endProgress()
        let report = BenchReport(figures: figures, quick: quick)
        if json {
            console.json(report.json)
        } else {
            for line in report.table { console.out(line) }
            console.out("")
            for line in report.notes { console.out(line) }
            console.out("")
            console.out("took \(String(format: (ContinuousClock.now - start).seconds, decimals: 1)) s")
        }
        return ExitStatus.ok
    }
}

/// The benchmark's child process: records the synthetic workload so its peak memory can be read.
struct BenchRecordCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_bench-record", abstract: "Internal: the recording child of `simrun bench`.",
        shouldDisplay: false)

    @Option(help: "About this many events.") var events: Int
    @Option(help: "The trace file to write (deleted afterwards).") var out: String
    @Option(help: "Where to write this process's peak resident memory (KiB) when done.") var report: String?

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        _ = try Benchmark.recordForMemory(events: events, path: out)
        unlink(out)
        if let report {
            guard let kib = PeakMemoryProbe.ownPeakKiB() else {
                throw CommandFailure(ExitStatus.cannotWrite, "bench: cannot measure this process's peak memory")
            }
            // Written like every result: whole or not at all, so the parent never reads half a number.
            try AtomicFile.write(Array("\(kib)\n".utf8), to: report)
        }
        return ExitStatus.ok
    }
}

/// The benchmark's child process for allocation counts: run with `libSimAllocCount` preloaded, it
/// prints `<path> <allocations per unit>` for each of `AllocationProbe`'s hot paths.
struct BenchAllocationsCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "_bench-allocations", abstract: "Internal: the allocation-counting child of `simrun bench`.",
        shouldDisplay: false)

    @Option(help: "A scratch directory for trace files (they are removed).") var directory: String

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        guard let counter = AllocationProbe.preloadedCounter() else {
            throw CommandFailure(
                ExitStatus.usage, "_bench-allocations: allocations are not counted here (preload libSimAllocCount)")
        }
        let probe = AllocationProbe(directory: directory, count: counter)
        for path in AllocationProbe.Path.allCases {
            context.console.out("\(path.rawValue) \(try probe.perUnit(path))")
        }
        return ExitStatus.ok
    }
}
