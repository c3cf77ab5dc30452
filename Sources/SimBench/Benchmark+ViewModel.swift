import SimCapture
import SimCore
import SimEngine

extension Benchmark {
    /// Schedules/s of a small `@MainActor` view-model exploration in this process (the load-time
    /// executor factory, as inside `swift test`), against runs/s of the same model tested the
    /// Point-Free way — `TestClock` + `withMainSerialExecutor`, one order per run — by
    /// `simrun-bench-baseline`, a child run in the same bench.
    func viewModelFigure() throws(SimEngineError) -> BenchFigure {
        let seeds = configuration.isQuick ? 500 : 20_000
        let plan = RunPlan.probed(scenario: BenchViewModel.scenario, variant: "fixed", strategy: StrategySpec(kind: .random))
        var report: Fuzzer.Report?
        let seconds = Stopwatch.best(of: repetitions) {
            report = Fuzzer(plan: plan, configuration: .init(seeds: 0..<UInt64(seeds))).run()
        }
        let schedules = report?.schedules ?? 0
        let passed = report.map { $0.failures == 0 && $0.schedules == seeds } ?? false
        let rate = Double(schedules) / seconds

        var baselineRate = Double.nan
        var baselineNote = ""
        do throws(SimEngineError) {
            var best = Double.infinity
            for _ in 0..<repetitions {
                let output = try ChildProcess.runSibling("simrun-bench-baseline", [String(seeds)])
                guard case .exited(0) = output.termination,
                    let line = output.stdout.split(separator: "\n").last(where: { $0.hasPrefix("runs=") }),
                    let field = line.split(separator: " ").first(where: { $0.hasPrefix("seconds=") }),
                    let taken = Double(field.dropFirst("seconds=".count))
                else {
                    throw SimEngineError(
                        .cannotWrite, "simrun-bench-baseline: \(output.stdout)\(output.stderr)")
                }
                if !line.contains("passed=\(seeds)") {
                    baselineNote = "; the baseline's runs did not all pass: \(line)"
                }
                best = min(best, taken)
            }
            baselineRate = Double(seeds) / best
        } catch {
            baselineNote = "; baseline not measured: \(error.message)"
        }
        let ratio = rate / baselineRate
        return BenchFigure(
            key: "viewmodel_schedules_per_second",
            name: "@MainActor view-model schedules/s, in process", value: rate, unit: "schedules/s",
            baselineName: "the same model under TestClock + withMainSerialExecutor (one order per run)",
            baseline: baselineRate.isNaN ? nil : baselineRate,
            ratioText: baselineRate.isNaN ? "n/a" : "\(ratio.rounded(significant: 3))x the baseline's runs/s",
            ratio: baselineRate.isNaN ? nil : ratio, ratioMeaning: "simrun schedules/s / baseline runs/s",
            target: "context", met: nil,
            note:
                "\(seeds) seeds of a model selecting two profiles whose loads (an actor, Task.sleep 100 ms) race, "
                + "random strategy, \(ExecutorCapture.route) route\(passed ? "" : ", NOT all passed"); the baseline runs the "
                + "same model \(seeds) times in a child process (swift-clocks 1.1.1, swift-concurrency-extras 1.4.3)"
                + baselineNote)
    }
}

/// The bench's view model: what `Tests/UserPackageTests/ProfileModelTests.swift` explores, fixed.
enum BenchViewModel {
    static let scenario = Scenario.async(
        name: "bench-view-model", summary: "two profile selections whose loads race",
        variants: [.init("fixed", "a load whose selection is no longer current is dropped")]
    ) { simulation, _ in
        await select(simulation)
    }

    @MainActor static func select(_ simulation: Simulation) async {
        let model = Model(service: Service())
        model.select(1)
        model.select(2)
        await simulation.settle()
        simulation.check("shows-the-latest-selection", model.shown == model.selected, "shows \(model.shown ?? 0)")
    }

    @MainActor final class Model {
        private(set) var selected: Int?
        private(set) var shown: Int?
        private let service: Service

        init(service: Service) { self.service = service }

        func select(_ id: Int) {
            selected = id
            Task {
                let profile = await service.load(id)
                if selected != id { return }
                shown = profile
            }
        }
    }

    actor Service {
        func load(_ id: Int) async -> Int {
            try? await Task.sleep(for: .milliseconds(100))
            return id
        }
    }
}
