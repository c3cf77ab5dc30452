import SimCore

/// Delta debugging over a failing run's decisions: send as many as possible back to the `fifo`
/// default (ddmin over the deviations), then prefer alternatives that shorten the run, keeping the
/// same failure throughout. Every candidate is a real re-run; nothing is guessed.
public struct Shrinker {
    public let plan: RunPlan
    public let seed: UInt64
    public let target: FailureSignature
    /// Re-runs allowed in total.
    public var budget: Int

    public struct Outcome: Sendable {
        public var tape: Tape
        public var result: RunResult
        public var runs: Int
        /// The run before shrinking (re-run positionally from the original tape).
        public var original: RunResult
    }

    public init(plan: RunPlan, seed: UInt64, target: FailureSignature, budget: Int = 4_000) {
        self.plan = plan
        self.seed = seed
        self.target = target
        self.budget = budget
    }

    private func attempt(_ choices: [UInt32?], runs: inout Int) -> RunResult? {
        runs += 1
        let result = plan.run(seed: seed, strategy: GuidedStrategy(choices: choices))
        return target.matches(result.verdict) ? result : nil
    }

    private static func choices(of tape: Tape) -> [UInt32?] { tape.decisions.map { $0.chosen } }

    private static func deviations(of tape: Tape) -> [Int] {
        tape.decisions.indices.filter { tape.decisions[$0].isDeviation }
    }

    /// Shrinks `tape` (a failing run of `plan` from `seed`); returns the original when it does not
    /// reproduce positionally.
    public func shrink(_ tape: Tape) -> Outcome? {
        var runs = 0
        guard let original = attempt(Self.choices(of: tape), runs: &runs) else { return nil }
        var best = original
        var deviations = Self.deviations(of: best.tape)

        // ddmin: drop chunks of deviations (back to fifo) while the failure survives.
        var granularity = 2
        while deviations.count >= 1 && runs < budget {
            let chunkSize = max(1, (deviations.count + granularity - 1) / granularity)
            var reduced = false
            var start = 0
            while start < deviations.count && runs < budget {
                let chunk = Set(deviations[start..<min(start + chunkSize, deviations.count)])
                var candidate = Self.choices(of: best.tape)
                for index in chunk { candidate[index] = nil }
                if let result = attempt(candidate, runs: &runs) {
                    best = result
                    deviations = Self.deviations(of: best.tape)
                    granularity = max(granularity - 1, 2)
                    reduced = true
                    break
                }
                start += chunkSize
            }
            if !reduced {
                if chunkSize == 1 { break }
                granularity = min(granularity * 2, deviations.count)
            }
        }

        // Toward fewer steps: try the other options of each remaining deviation.
        var improved = true
        while improved && runs < budget {
            improved = false
            for index in Self.deviations(of: best.tape) where runs < budget {
                let decision = best.tape.decisions[index]
                for option in 0..<decision.count where option != decision.chosen && runs < budget {
                    var candidate = Self.choices(of: best.tape)
                    candidate[index] = option
                    guard let result = attempt(candidate, runs: &runs) else { continue }
                    let fewerDeviations = Self.deviations(of: result.tape).count < Self.deviations(of: best.tape).count
                    if result.steps < best.steps || fewerDeviations && result.steps <= best.steps {
                        best = result
                        improved = true
                        break
                    }
                }
                if improved { break }
            }
        }
        return Outcome(tape: best.tape, result: best, runs: runs, original: original)
    }
}

extension RunResult {
    /// Decisions that depart from what `fifo` would choose: the essence of a schedule.
    public var deviations: Int { tape.decisions.reduce(0) { $0 + ($1.isDeviation ? 1 : 0) } }
}
