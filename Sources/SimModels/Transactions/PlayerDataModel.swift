import SimCore

/// Player's data model reduced to string bindings: `set` records `data.set` and notifies observers.
///
/// Like Player's `DataController`, a set that leaves the value unchanged notifies nobody: only
/// real changes reach the view controller.
public final class PlayerDataModel {
    private unowned let simulation: Simulation
    private var values: [String: String]
    private var observers: [(_ binding: String) -> Void] = []

    /// A model holding `initial` values (missing bindings read as "").
    public init(_ simulation: Simulation, initial: [String: String] = [:]) {
        self.simulation = simulation
        self.values = initial
    }

    /// The value of `binding`, or "" when it was never set.
    public func get(_ binding: String) -> String { values[binding] ?? "" }

    /// Writes `value` into `binding`; observers hear of it only if the value changed.
    public func set(_ binding: String, _ value: String) {
        let changed = get(binding) != value
        values[binding] = value
        simulation.emit("data.set", binding, ["value": .text(value), "changed": .bool(changed)])
        guard changed else { return }
        for observer in observers { observer(binding) }
    }

    /// Calls `observer` with the binding after every change, in subscription order.
    public func onUpdate(_ observer: @escaping (_ binding: String) -> Void) {
        observers.append(observer)
    }
}
