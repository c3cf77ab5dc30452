import SimCore

/// Player's data model reduced to string bindings: `set` records `data.set` and notifies observers.
///
/// Like Player's `DataController`, a set that leaves the value unchanged notifies nobody: only
/// real changes reach the view controller. A binding never set holds no value (nil), which is not
/// the empty string: a view resolved from it gives its assets no value to copy.
/// `set` is a native→JS call: microtasks it queues run before it returns (see `PlayerJSContext`).
public final class PlayerDataModel {
    private unowned let simulation: Simulation
    private var values: [String: String]
    private var observers: [(_ binding: String) -> Void] = []
    /// The JS engine the model lives in (shared with the flow and the view controller).
    public let js: PlayerJSContext

    /// A model holding `initial` values in `js` (a context of its own when nil).
    public init(_ simulation: Simulation, initial: [String: String] = [:], js: PlayerJSContext? = nil) {
        self.simulation = simulation
        self.values = initial
        self.js = js ?? PlayerJSContext(simulation)
    }

    /// The value of `binding`, or "" when it was never set (what validation and oracles compare).
    public func get(_ binding: String) -> String { values[binding] ?? "" }

    /// The value of `binding`, nil when it was never set.
    public func value(_ binding: String) -> String? { values[binding] }

    /// Writes `value` into `binding`; observers hear of it only if the value changed.
    public func set(_ binding: String, _ value: String) {
        js.call {
            let changed = values[binding] != value
            values[binding] = value
            simulation.emit("data.set", binding, ["value": .text(value), "changed": .bool(changed)])
            guard changed else { return }
            for observer in observers { observer(binding) }
        }
    }

    /// Calls `observer` with the binding after every change, in subscription order.
    public func onUpdate(_ observer: @escaping (_ binding: String) -> Void) {
        observers.append(observer)
    }
}
