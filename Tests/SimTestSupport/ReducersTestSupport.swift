import SimCore

/// Helpers for the TCA model's tests: reading recorded events, handing values out of a run.
public enum ReducersTestSupport {
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

    /// A box for values that simulation code (closures and tasks on the simulation's one thread) hands
    /// back to a test. `@unchecked Sendable`: only touched on that thread, and read after the run.
    public final class Box<Value>: @unchecked Sendable {
        public var value: Value
        public init(_ value: Value) { self.value = value }
    }
}
