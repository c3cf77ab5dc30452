import SimCore
import SimEngine
import SimScenarios
import SimTrace

/// Measures simrun's performance figures, each against a baseline measured in the same process run
/// (so that a busy machine slows both alike and the ratios stay meaningful).
///
/// ```swift
/// let figures = try Benchmark(configuration: .quick(in: "/tmp/b")).run { print($0) }
/// ```
package struct Benchmark {
    /// The sizes of each measurement; `full` runs in minutes on two cores, `quick` in seconds.
    package struct Configuration: Sendable {
        var kernelJobs: Int
        /// Jobs of the timer-heavy workload (about 1024 timers pending throughout).
        var timerJobs: Int
        var recordEvents: Int
        var replayEvents: Int
        var corpusSeeds: Int
        var fuzzSeeds: Int
        var bugCampaigns: Int
        var bugSeedLimit: Int
        /// Calls checked for linearizability per history size (so fewer histories of the larger sizes).
        var linearizabilityCalls: Int
        var memoryEventsSmall: Int
        var memoryEventsLarge: Int
        /// Timings repeated this many times; the fastest counts.
        var repetitions: Int
        /// Where the benchmark's trace files go (deleted afterwards).
        var directory: String
        var isQuick: Bool

        package static func full(in directory: String) -> Configuration {
            Configuration(
                kernelJobs: 4_000_000, timerJobs: 2_000_000, recordEvents: 8_000_000, replayEvents: 4_000_000,
                corpusSeeds: 1_000,
                fuzzSeeds: 200_000, bugCampaigns: 100, bugSeedLimit: 1_000, linearizabilityCalls: 1_000_000,
                memoryEventsSmall: 1_000_000,
                memoryEventsLarge: 100_000_000, repetitions: 3, directory: directory, isQuick: false)
        }

        /// The kernel, timer, async, recording and replay sizes multiplied by `factor` (the growth
        /// curves of `tools/growth.sh`: the same measurement at growing sizes).
        package func scaled(by factor: Int) -> Configuration {
            var scaled = self
            scaled.kernelJobs *= factor
            scaled.timerJobs *= factor
            scaled.recordEvents *= factor
            scaled.replayEvents *= factor
            return scaled
        }

        package static func quick(in directory: String) -> Configuration {
            Configuration(
                kernelJobs: 100_000, timerJobs: 50_000, recordEvents: 200_000, replayEvents: 100_000, corpusSeeds: 50,
                fuzzSeeds: 2_000, bugCampaigns: 5, bugSeedLimit: 200, linearizabilityCalls: 10_000,
                memoryEventsSmall: 100_000,
                memoryEventsLarge: 1_000_000, repetitions: 1, directory: directory, isQuick: true)
        }
    }

    let configuration: Configuration
    /// Who starts worker processes for the fuzz figures; nil when this program cannot re-run itself.
    let launcher: ProcessLauncher?

    package init(configuration: Configuration, launcher: ProcessLauncher? = nil) {
        self.configuration = configuration
        self.launcher = launcher
    }

    /// The measurements, by the names `--only` accepts.
    package static let groups = [
        "kernel", "timers", "async", "async-platform", "carriers", "viewmodel", "record", "corpus", "replay", "fuzz",
        "until-bug", "linearizability", "memory", "allocations",
    ]

    /// Runs the measurements in `groups` (all by default) in turn; `progress` hears each as it starts.
    package func run(only groups: Set<String> = Set(Benchmark.groups), progress: (String) -> Void = { _ in })
        throws(SimEngineError) -> [BenchFigure]
    {
        var figures: [BenchFigure] = []
        for group in Self.groups where groups.contains(group) {
            progress(group)
            switch group {
            case "kernel": figures.append(kernelFigure())
            case "timers": figures.append(timerFigure())
            case "async": figures.append(asyncFigure())
            case "async-platform": figures.append(asyncPlatformFigure())
            case "carriers": figures += carrierFigures()
            case "viewmodel": figures.append(try viewModelFigure())
            case "record": figures.append(try recordingFigure())
            case "corpus": figures += try corpusFigures()
            case "replay": figures += try replayAndDecodeFigures()
            case "fuzz": figures += try fuzzFigures()
            case "until-bug": figures += untilBugFigures()
            case "linearizability": figures += linearizabilityFigures()
            case "allocations": figures += try allocationFigures()
            default: figures.append(try memoryFigure())
            }
        }
        return figures
    }

    var repetitions: Int { configuration.repetitions }

    func path(_ name: String) -> String { "\(configuration.directory)/\(name)" }

    /// The header of a benchmark recording.
    func header(scenario: String, variant: String, seed: UInt64, strategy: String) -> TraceHeader {
        TraceHeader(
            toolVersion: SimRunVersion.current, scenario: scenario, variant: variant, seed: seed, strategy: strategy)
    }

    /// The footer for a run recorded into `writer` (whose counts hold even when the tape is not kept).
    static func footer(_ result: RunResult, _ writer: TraceWriter) -> TraceFooter {
        TraceFooter(
            eventCount: writer.eventCount, decisionCount: writer.decisionCount, steps: UInt64(result.steps),
            endTime: result.endTime, verdict: result.verdict, digest: result.digest)
    }

    static func failure(_ what: String, _ error: any Error) -> SimEngineError {
        SimEngineError(.cannotWrite, "bench: \(what): \(error)")
    }
}
