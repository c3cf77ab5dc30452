import SimCore
import SimTrace

extension RunPlan {
    /// A plan as it crosses to a child process: everything that decides its runs, typed (the
    /// strategy is a ``StrategySpec``, never its text), and nothing the child could learn
    /// differently by running the scenario (the step estimate and the goals come planned). Every
    /// job a child is given carries one (`ChildJob`), and ``init(_:in:)`` is the one place a plan is
    /// rebuilt from it: a member added here reaches every child, or no child decodes its job.
    package struct Descriptor: Sendable, Equatable, Codable {
        /// A recorded schedule's head that every run keeps (`fuzz --from`), by the trace it is in.
        package struct Prefix: Sendable, Equatable, Codable {
            /// The trace file holding the schedule.
            package var source: String
            /// How many of its decisions every run follows.
            package var keep: Int

            package init(source: String, keep: Int) {
                self.source = source
                self.keep = keep
            }
        }

        /// The scenario, by name in the child's catalog.
        package var scenario: String
        /// The variant.
        package var variant: String
        /// The strategy.
        package var strategy: StrategySpec
        /// The planned step estimate (``RunPlan/estimatedSteps``).
        package var estimatedSteps: Int
        /// Noise lanes.
        package var noise: Int
        /// Where the runs' jobs run.
        package var carriers: CarrierMode
        /// The schedule prefix, or nil.
        package var prefix: Prefix?
        /// The coverage goals the planning probe declared, in order; nil when unknown.
        package var goals: [String]?

        package init(
            scenario: String, variant: String, strategy: StrategySpec, estimatedSteps: Int, noise: Int,
            carriers: CarrierMode, prefix: Prefix? = nil, goals: [String]? = nil
        ) {
            self.scenario = scenario
            self.variant = variant
            self.strategy = strategy
            self.estimatedSteps = estimatedSteps
            self.noise = noise
            self.carriers = carriers
            self.prefix = prefix
            self.goals = goals
        }

        /// The plan a trace's header names (its strategy, step estimate, noise and carriers); a header
        /// without a step estimate cannot be re-run without planning again, which is an error here.
        package init(header: TraceHeader, path: String) throws(SimEngineError) {
            guard let strategy = StrategySpec(parsing: header.strategy) else {
                throw SimEngineError(
                    .badTrace, "\(path): at byte 0: expected a known strategy (the header names '\(header.strategy)')")
            }
            guard let steps = TraceInput.estimatedSteps(of: header) else {
                throw SimEngineError(.badTrace, "\(path): at byte 0: expected the run's step estimate in the header")
            }
            self.init(
                scenario: header.scenario, variant: header.variant, strategy: strategy, estimatedSteps: steps,
                noise: try TraceInput.noise(of: header, path: path), carriers: try TraceInput.carriers(of: header, path: path))
        }

        /// This plan with another strategy (and no prefix): the runs a shrink or an explanation
        /// records of the same scenario, variant, noise and carriers.
        package func with(strategy: StrategySpec, prefix: Prefix?) -> Descriptor {
            var changed = self
            changed.strategy = strategy
            changed.prefix = prefix
            return changed
        }
    }

    /// The plan's descriptor, for a child process. A prefix that names no trace cannot reach a child
    /// (it would run without it): that is an error, never a silently different run.
    package func descriptor() throws(SimEngineError) -> Descriptor {
        var prefix: Descriptor.Prefix?
        if let kept = self.prefix {
            guard let source = kept.source else {
                throw SimEngineError(.failed, "a schedule prefix read from no trace file cannot reach a child process")
            }
            prefix = Descriptor.Prefix(source: source, keep: kept.keep)
        }
        return Descriptor(
            scenario: scenario.name, variant: variant, strategy: strategy, estimatedSteps: estimatedSteps,
            noise: noise, carriers: carriers, prefix: prefix, goals: goalNames)
    }

    /// The plan `descriptor` describes, its scenario and variant looked up in `catalog` and its prefix
    /// read from its trace: the one place a child rebuilds its parent's plan. Runs nothing.
    package init(_ descriptor: Descriptor, in catalog: ScenarioCatalog) throws(SimEngineError) {
        let scenario = try catalog.scenario(named: descriptor.scenario)
        let variant = try catalog.variant(descriptor.variant, of: scenario)
        guard (0...RunPlan.maxNoise).contains(descriptor.noise) else {
            throw .usage("a plan with \(descriptor.noise) noise lanes (most \(RunPlan.maxNoise))")
        }
        self.init(
            scenario: scenario, variant: variant, strategy: descriptor.strategy,
            estimatedSteps: descriptor.estimatedSteps, noise: descriptor.noise, carriers: descriptor.carriers,
            goals: descriptor.goals)
        if let kept = descriptor.prefix {
            prefix = SchedulePrefix(tape: try TraceInput(path: kept.source).tape, keep: kept.keep, source: kept.source)
        }
    }
}
