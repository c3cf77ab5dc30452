import SimCore

/// Delta debugging over a failing run's departures from `fifo`, keyed by identity: any subset of
/// them can be sent back to the `fifo` default (ddmin), then the remaining ones are varied toward a
/// shorter run, keeping the same failure throughout. Every candidate is a real re-run; nothing is
/// guessed.
///
/// A candidate is a `Schedule` holding only the departures kept, followed by `ScheduleStrategy`:
/// a departure names the job it took and the jobs it went ahead of, so dropping one does not shift
/// the others (as dropping a position would). That is what lets irrelevant decisions — background
/// work, `--noise` lanes — be removed wherever they sit, before or after the decisive one.
public struct Shrinker {
    /// What runs: the scenario, variant and strategy.
    public let plan: RunPlan
    /// The seed of the run shrunk.
    public let seed: UInt64
    /// The failure every kept candidate must still show.
    public let target: FailureSignature
    /// Re-runs allowed in total.
    public var budget: Int

    /// A shrink's result.
    public struct Outcome: Sendable {
        /// The shrunk schedule.
        public var tape: Tape
        /// The shrunk schedule's run.
        public var result: RunResult
        /// Candidate runs tried.
        public var runs: Int
        /// The run before shrinking (re-run from the original tape).
        public var original: RunResult
    }

    /// A failing run and its schedule by identity.
    private struct Found {
        var schedule: Schedule
        var result: RunResult
        var departures: Int { result.deviations }
    }

    /// A shrinker of `seed`'s run of `plan` keeping `target`, trying at most `budget` candidates.
    public init(plan: RunPlan, seed: UInt64, target: FailureSignature, budget: Int = 4_000) {
        self.plan = plan
        self.seed = seed
        self.target = target
        self.budget = budget
    }

    private func attempt(_ strategy: any Strategy, runs: inout Int) -> Found? {
        runs += 1
        let observer = ScheduleObserver(strategy, keepsReadySets: true)
        let result = plan.run(seed: seed, strategy: observer)
        return target.matches(result.verdict) ? Found(schedule: observer.schedule, result: result) : nil
    }

    /// Shrinks `tape` (a failing run of `plan` from `seed`); nil when it does not fail that way.
    public func shrink(_ tape: Tape) -> Outcome? {
        var runs = 0
        guard let original = attempt(ReplayStrategy(tape: tape), runs: &runs) else { return nil }
        var best = original
        // A generated call scenario first gets fewer tasks, calls and simpler arguments (each candidate
        // explored under a few schedules), then its schedule shrinks below as any other.
        if let space = plan.scenario.callSpace {
            best = reduceCalls(best, space: space, runs: &runs)
        }

        // ddmin: drop chunks of departures (back to fifo) while the failure survives with fewer.
        var granularity = 2
        while runs < budget {
            let departures = best.schedule.deviations
            guard !departures.isEmpty else { break }
            let chunkSize = max(1, (departures.count + granularity - 1) / granularity)
            var reduced = false
            var start = 0
            while start < departures.count && runs < budget {
                let end = min(start + chunkSize, departures.count)
                let kept = departures[..<start] + departures[end...]
                if let found = attempt(ScheduleStrategy(schedule: best.schedule.keeping(kept)), runs: &runs),
                    found.departures < best.departures
                {
                    best = found
                    granularity = max(granularity - 1, 2)
                    reduced = true
                    break
                }
                start = end
            }
            if !reduced {
                if chunkSize == 1 { break }
                granularity = min(granularity * 2, departures.count)
            }
        }

        // One departure alone: the hand minimum is often a single decision the run made in fifo order
        // (or one of its departures without the rest), which removing departures never reaches.
        best = singleDeparture(from: best, runs: &runs)

        // Toward fewer steps: try the other options of each remaining departure.
        var improved = true
        while improved && runs < budget {
            improved = false
            let departures = best.schedule.deviations
            search: for (position, index) in departures.enumerated() {
                for variation in Self.variations(of: best.schedule.entries[index]) {
                    guard runs < budget else { break search }
                    var kept = departures.map { best.schedule.entries[$0] }
                    kept[position] = variation
                    let candidate = Schedule(entries: kept)
                    guard let found = attempt(ScheduleStrategy(schedule: candidate), runs: &runs) else { continue }
                    let shorter = found.result.steps < best.result.steps && found.departures <= best.departures
                    let fewer = found.departures < best.departures && found.result.steps <= best.result.steps
                    if shorter || fewer {
                        best = found
                        improved = true
                        break search
                    }
                }
            }
        }
        return Outcome(tape: best.result.tape, result: best.result, runs: runs, original: original.result)
    }

    /// Most candidate runs the one-departure search may take (it tries every other option of every
    /// decision up to the last departure, each alone).
    public static let singleDepartureBudget = 600

    /// The first schedule of one departure that still fails the same way: each departure of `found`
    /// alone, then each other option of each decision of the `fifo` run (the schedule with no
    /// departure), alone, in the order the runs made them; `found` when none does or it has two
    /// departures or fewer. Removing departures (ddmin) never reaches a departure the found run did
    /// not take, and a failure often needs one such departure only (a job entering an actor first);
    /// with two left, ddmin has tried each alone, and the search is not worth its runs.
    private func singleDeparture(from found: Found, runs: inout Int) -> Found {
        guard found.departures > 2 else { return found }
        let stop = min(budget, runs + Self.singleDepartureBudget)
        var candidates = found.schedule.deviations.map { found.schedule.entries[$0] }
        let observer = ScheduleObserver(ScheduleStrategy(schedule: Schedule()), keepsReadySets: true)
        if runs < stop {
            runs += 1
            _ = plan.run(seed: seed, strategy: observer)
            candidates += observer.schedule.entries.flatMap(Self.variations(of:))
        }
        for candidate in candidates {
            guard runs < stop else { return found }
            if let shorter = attempt(ScheduleStrategy(schedule: Schedule(entries: [candidate])), runs: &runs),
                shorter.departures < found.departures
            {
                return shorter
            }
        }
        return found
    }

    /// Seeds each candidate call scenario is tried with (random walks, then `pct`) before the
    /// shrinker concludes it does not fail.
    public static let schedulesPerCallScenario: UInt64 = 64

    /// The smallest call scenario reachable from `found`'s by one-step reductions that still fails
    /// with the target, and a failing run of it.
    private func reduceCalls(_ found: Found, space: CallSpace, runs: inout Int) -> Found {
        let start = space.scenario(from: found.result.tape)
        var spent = runs
        let reduced = space.reduce(start, failure: found, budget: 400) { candidate -> Found? in
            guard let pinned = space.choices(for: candidate) else { return nil }
            for attemptSeed in 0..<Self.schedulesPerCallScenario where spent < budget {
                let inner: any Strategy =
                    attemptSeed % 2 == 0 ? RandomStrategy() : PCTStrategy(estimatedSteps: plan.estimatedSteps)
                spent += 1
                let observer = ScheduleObserver(PinnedChoices(pinned, inner: inner), keepsReadySets: true)
                let result = plan.run(seed: attemptSeed, strategy: observer)
                if target.matches(result.verdict) {
                    // Re-run from the shrinker's own seed by its decisions, as every later candidate is.
                    var again = spent
                    if let replayed = attempt(ScheduleStrategy(schedule: observer.schedule), runs: &again),
                        space.scenario(from: replayed.result.tape) == candidate
                    {
                        spent = again
                        return replayed
                    }
                }
            }
            return nil
        }
        runs = spent
        return reduced.failure
    }

    /// The other departures one decision could have made: another ready job taken ahead of the
    /// older ones, or another non-default value (the default itself is ddmin's to try).
    static func variations(of entry: Schedule.Entry) -> [Schedule.Entry] {
        if entry.kind == .pick {
            // `ready` is oldest first; the oldest is `fifo`'s own choice, which is not a departure.
            return entry.ready.indices.dropFirst().compactMap { position in
                let job = entry.ready[position]
                guard job != entry.job else { return nil }
                var variation = entry
                variation.job = job
                variation.overtaken = Array(entry.ready[..<position])
                return variation
            }
        }
        return (1..<max(1, Int(entry.count))).compactMap { value in
            guard value != Int(entry.chosen) else { return nil }
            var variation = entry
            variation.chosen = UInt32(value)
            return variation
        }
    }
}

extension RunResult {
    /// Decisions that depart from what `fifo` would choose: the essence of a schedule.
    public var deviations: Int { tape.decisions.reduce(0) { $0 + ($1.isDeviation ? 1 : 0) } }
}
