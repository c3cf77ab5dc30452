/// An oracle for the usual fix of a lock-order inversion around continuations (issue #41): resume
/// (or yield) *outside* the lock. It removes the deadlock and opens another race: two producers that
/// each took their turn under the lock can deliver in the other order, as supabase-swift's first fix
/// (PR #1155) did before a FIFO turnstile (PR #1156) put deliveries back in production order.
///
/// Mark each value where it is produced — where producers are serialised, typically under the lock —
/// and where each consumer receives it; the run fails at the first delivery that overtakes a value
/// produced earlier and not yet delivered to that consumer:
///
/// ```swift
/// let order = simulation.deliveryOrder("delivered-in-order", of: Int.self)
/// lock.withLock { order.produced(value); pending = continuations }
/// for continuation in pending { continuation.yield(value) }   // outside the lock
/// // the consumer:
/// for await value in stream { order.delivered(value) }
/// ```
///
/// Values must be unique per run; a value delivered that was never produced fails too. Checks run on
/// the run's own turn (one carrier at a time), so no lock is needed around the marks.
public final class DeliveryOrder<Value: Hashable>: @unchecked Sendable {
    private unowned let simulation: Simulation
    private let name: String
    private var sequence: [Value: Int] = [:]
    private var produced: [Value] = []
    private var lastDelivered: [String: Int] = [:]

    init(simulation: Simulation, name: String) {
        self.simulation = simulation
        self.name = name
    }

    /// `value` was produced now: its place in the production order.
    public func produced(_ value: Value) {
        guard sequence[value] == nil else {
            simulation.fail(name, "\(value) was produced twice (values must be unique in a run)")
            return
        }
        sequence[value] = produced.count
        produced.append(value)
    }

    /// `value` reached `consumer` now: it must come after every value already delivered to it.
    public func delivered(_ value: Value, to consumer: String = "the consumer") {
        guard let place = sequence[value] else {
            simulation.fail(name, "\(consumer) received \(value), which was never produced")
            return
        }
        if let last = lastDelivered[consumer], last > place {
            simulation.fail(
                name,
                "\(consumer) received \(value) after \(produced[last]), though \(value) was produced first "
                    + "(produced: \(produced.map { "\($0)" }.joined(separator: ", ")))")
            return
        }
        lastDelivered[consumer] = place
    }
}

extension Simulation {
    /// A delivery-order oracle named `name` for this run (see ``DeliveryOrder``).
    public func deliveryOrder<Value: Hashable>(_ name: String, of type: Value.Type = Value.self) -> DeliveryOrder<Value> {
        DeliveryOrder(simulation: self, name: name)
    }
}
