import SimCore

/// Runs scenarios and bare simulations over ranges of seeds for the Player and Blueprint tests.
public enum PlayerElementsProbe {
    /// The first seed in `seeds` whose run of `variant` fails, with its result; nil when all pass.
    /// One strategy object serves the whole range, as in a fuzz run (so `pct` learns the length).
    public static func firstFailure(
        _ scenario: Scenario, variant: String, strategy: StrategySpec, seeds: Range<UInt64>
    ) -> (seed: UInt64, result: RunResult)? {
        let shared = strategy.makeStrategy()
        for seed in seeds {
            let result = scenario.run(variant: variant, seed: seed, strategy: shared)
            if result.verdict.isFailure { return (seed, result) }
        }
        return nil
    }

    /// Runs one simulation set up by `setUp`; returns its result and whatever `setUp` returned.
    public static func run<Model>(
        seed: UInt64, strategy: any Strategy = FIFOStrategy(), sink: any EventSink = NullSink(),
        _ setUp: (Simulation) -> Model
    ) -> (result: RunResult, model: Model) {
        let simulation = Simulation(seed: seed, strategy: strategy, sink: sink)
        let model = setUp(simulation)
        return (simulation.run(), model)
    }

    /// The kinds of the events recorded in `sink`, in order, optionally only those in `kinds`.
    public static func kinds(_ sink: MemorySink, only kinds: Set<String>? = nil) -> [String] {
        sink.events.map { sink.text($0.kind) }.filter { kinds?.contains($0) ?? true }
    }

    /// The recorded events as "kind subject" lines, optionally only those of `kinds`.
    public static func lines(_ sink: MemorySink, only kinds: Set<String>? = nil) -> [String] {
        sink.events.compactMap { event in
            let kind = sink.text(event.kind)
            guard kinds?.contains(kind) ?? true else { return nil }
            let subject = sink.text(event.subject)
            return subject.isEmpty ? kind : "\(kind) \(subject)"
        }
    }
}

extension PlayerElementsProbe {
    /// The events of `kind`, each as its subject and its fields by key (values as text).
    public static func events(_ sink: MemorySink, _ kind: String) -> [(subject: String, fields: [String: String])] {
        sink.events.compactMap { event in
            guard sink.text(event.kind) == kind else { return nil }
            var fields: [String: String] = [:]
            for field in event.fields {
                let value: String
                switch field.value {
                case .int(let number): value = String(number)
                case .bool(let flag): value = String(flag)
                case .symbol(let symbol): value = sink.text(symbol)
                }
                fields[sink.text(field.key)] = value
            }
            return (sink.text(event.subject), fields)
        }
    }
}
