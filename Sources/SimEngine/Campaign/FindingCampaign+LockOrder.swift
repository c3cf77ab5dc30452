import SimCore
import SimTrace

extension FindingCampaign {
    /// How many schedules the search aimed at an inverted lock order runs, per order.
    static let aimedSchedules: UInt64 = 300

    /// A pair of lock classes the campaign's runs took in both orders (`--preempt`): a trace of a run
    /// that took each order is saved; then, unless a run already deadlocked, a search is aimed at the
    /// inverted schedule — runs that keep one order's schedule up to the moment its taker holds the
    /// first lock and is about to take the second, and explore from there (random), so the other
    /// order can come in between. A deadlock it finds is an ordinary finding, appended to `findings`.
    func handle(
        _ potential: PotentialDeadlock, number: Int, alreadyDeadlocked: Bool, findings: inout [SavedFinding],
        observer: some FindingCampaignObserver
    ) -> PotentialDeadlock {
        var potential = potential
        let stem = "\(plan.scenario.name)-\(plan.variant)-potential-deadlock\(number == 0 ? "" : "-\(number + 1)")"
        let directory = options.directory.hasSuffix("/") ? String(options.directory.dropLast()) : options.directory
        var tapes: [(path: String, tape: Tape, keep: Int)] = []
        do throws(SimEngineError) {
            try OutputPath.createParent(of: "\(directory)/\(stem).simtrace")
            for (label, sighting) in [("first", potential.first), ("second", potential.second)] {
                let path = "\(directory)/\(stem)-\(label)-seed\(sighting.seed).simtrace"
                try record(seed: sighting.seed, to: path)
                potential.traces.append(path)
                tapes.append((path, try TraceInput(path: path).tape, sighting.edge.decisionsBefore))
            }
        } catch {
            potential.problem = "the traces of the two orders could not be saved: \(error.message)"
            return potential
        }
        guard !alreadyDeadlocked, !options.isolation.cancellation.isRequested else { return potential }
        for (path, tape, keep) in tapes {
            var aimed = plan
            aimed.strategy = StrategySpec(kind: .random)
            aimed.prefix = SchedulePrefix(tape: tape, keep: keep, source: path)
            var aimedOptions = options
            aimedOptions.aimsAtLockOrders = false
            let search = FindingCampaign(
                plan: aimed,
                configuration: Fuzzer.Configuration(
                    seeds: 0..<Self.aimedSchedules, jobs: configuration.jobs, keepGoing: false),
                options: aimedOptions)
            do throws(SimEngineError) {
                let result = try search.run(observer: observer)
                potential.aimedSchedules += result.report.schedules
                let deadlocks = result.findings.filter {
                    if case .deadlock = $0.verdict { return true } else { return false }
                }
                if let found = deadlocks.first {
                    potential.aimedDeadlockSeed = found.seed
                    findings += deadlocks
                    break
                }
            } catch {
                potential.problem = "the search aimed at the inverted order could not run: \(error.message)"
                break
            }
        }
        return potential
    }

    /// Records `seed`'s run of the campaign's plan into `path` (in a child when there are children).
    private func record(seed: UInt64, to path: String) throws(SimEngineError) {
        if let launcher = options.isolation.launcher {
            _ = try IsolatedRecording(plan: try plan.descriptor(), launcher: launcher).record(seed: seed, to: path)
        } else {
            _ = try Recorder.record(
                plan: plan, seed: seed, strategy: plan.makeStrategy(), strategyName: plan.strategy.description,
                to: path)
        }
    }
}
