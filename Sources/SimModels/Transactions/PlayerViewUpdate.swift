/// A resolved view as the core hands it to the native side: the view and its bindings' values at
/// resolution time (a snapshot: the native side may apply it after the data has moved on).
public struct PlayerViewUpdate: Sendable {
    /// The view's reference (its id in the flow).
    public var viewRef: String
    /// Binding → value (nil: the binding holds no value), in the view's asset order.
    public var values: [(binding: String, value: String?)]
    /// Why the view was resolved: `enter` (a transition), `data` (batched data changes) or
    /// `validation` (a blocked transition re-rendering the current view).
    public var reason: String
    /// Resolution number within the run, 1-based.
    public var number: Int
    /// The view instance that resolved it (each entered view is a new instance), 1-based.
    public var instance: Int

    /// The snapshot value of `binding`, nil when the view does not show it or it holds no value.
    public func value(of binding: String) -> String? {
        values.first { $0.binding == binding }?.value ?? nil
    }
}
