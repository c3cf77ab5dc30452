import SimCore

/// Helpers shared by the TCA model's tests (`ReducersTests`, `SearchStaleResponseTests`).
public enum ReducersTestSupport {
    /// Runs one fresh simulation: `setUp` posts the first jobs, then it runs to the end.
    public static func run(
        seed: UInt64 = 0, strategy: any Strategy = FIFOStrategy(), sink: any EventSink = NullSink(),
        _ setUp: (Simulation) -> Void
    ) -> RunResult {
        let simulation = Simulation(seed: seed, strategy: strategy, sink: sink)
        setUp(simulation)
        return simulation.run()
    }

    /// The events of one kind, each as `subject key=value …`, in the order they were recorded.
    public static func lines(_ sink: MemorySink, kind: String) -> [String] {
        sink.events.filter { sink.text($0.kind) == kind }.map { event in
            var parts = [sink.text(event.subject)]
            for field in event.fields {
                let value: String
                switch field.value {
                case .int(let number): value = String(number)
                case .bool(let flag): value = String(flag)
                case .symbol(let symbol): value = sink.text(symbol)
                }
                parts.append("\(sink.text(field.key))=\(value)")
            }
            return parts.joined(separator: " ")
        }
    }

    /// The events of several kinds, each as `kind subject key=value …`, in order.
    public static func lines(_ sink: MemorySink, kinds: [String]) -> [String] {
        var result: [String] = []
        var remaining = kinds.reduce(into: [String: [String]]()) { $0[$1] = lines(sink, kind: $1) }
        for event in sink.events {
            let kind = sink.text(event.kind)
            guard var queue = remaining[kind], !queue.isEmpty else { continue }
            result.append(kind + " " + queue.removeFirst())
            remaining[kind] = queue
        }
        return result
    }

    /// A box for values that simulation code (closures and tasks on the simulation's one thread) hands
    /// back to a test. `@unchecked Sendable`: only touched on that thread, and read after the run.
    public final class Box<Value>: @unchecked Sendable {
        public var value: Value
        public init(_ value: Value) { self.value = value }
    }
}
