import Synchronization

extension Scenario {
    /// This scenario with `lanes` noise lanes added to every run (see `Simulation.addNoise`):
    /// background work that touches nothing, for testing strategies, shrinking and replay against
    /// irrelevant decisions. Zero lanes gives the scenario unchanged.
    ///
    /// Each lane posts up to twice as many ticks as the variant's own `fifo` run takes steps (plus
    /// 16), learned by one `fifo` run of the variant just before its first noisy run, so noise lasts
    /// the whole run without ever pushing it past its step limit.
    ///
    /// ```swift
    /// let noisy = LostInputNavigation.scenario.withNoise(lanes: 3)
    /// let result = noisy.run(variant: "buggy", seed: 7, strategy: PCTStrategy())
    /// ```
    public func withNoise(lanes: Int) -> Scenario { withNoise(lanes: lanes, variants: nil) }

    /// This scenario with `lanes` noise lanes, learning the tick counts only for `variants` (nil:
    /// every variant); a variant not listed gets the step limit's share of ticks.
    ///
    /// Nothing runs here: the sizing `fifo` run of a variant happens when that variant first runs,
    /// in the process that runs it. Building a noisy plan therefore never runs user code, so a model
    /// that traps on its `fifo` schedule traps where its runs do (a child process, for `simrun`),
    /// and that trap is a crash finding, not the end of the planning process.
    public func withNoise(lanes: Int, variants only: [String]?) -> Scenario {
        guard lanes > 0 else { return self }
        var noisy = self
        let base = self
        let setUp = self.setUp
        let ceiling = max(1, limits.maxSteps / (2 * lanes))
        let sizing = NoiseSizing(probed: only.map(Set.init))
        noisy.beforeRun = { [beforeRun = self.beforeRun] variant in
            beforeRun?(variant)
            sizing.size(variant) {
                min(2 * base.run(variant: variant, seed: 0, strategy: FIFOStrategy()).steps + 16, ceiling)
            }
        }
        noisy.setUp = { simulation, variant in
            setUp(simulation, variant)
            simulation.addNoise(lanes: lanes, ticks: sizing.ticks(variant) ?? ceiling)
        }
        return noisy
    }
}

/// The tick count of each variant's noise lanes, learned once per variant by a `fifo` run that
/// happens before the variant's first noisy run (outside any simulation), then read by every run's
/// set-up. Each noisy scenario value owns one; the value learned is the same in every process.
final class NoiseSizing: Sendable {
    private let probed: Set<String>?
    private let learned = Mutex<[String: Int]>([:])

    init(probed: Set<String>?) { self.probed = probed }

    /// Learns `variant`'s ticks with `measure` unless known (or the variant is not to be probed).
    func size(_ variant: String, _ measure: () -> Int) {
        guard probed?.contains(variant) ?? true, learned.withLock({ $0[variant] }) == nil else { return }
        let ticks = measure()
        learned.withLock { $0[variant] = ticks }
    }

    /// The ticks learned for `variant`, or nil when it was not probed.
    func ticks(_ variant: String) -> Int? { learned.withLock { $0[variant] } }
}
