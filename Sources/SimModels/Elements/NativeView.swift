/// A native view built from a view description, with its child views keyed by element path.
public final class NativeView {
    /// The view class it was built as (fixed for its lifetime).
    public let viewType: String
    /// Build number within its host: a rebuilt view gets a new one, a reused view keeps it.
    public let serial: Int
    public internal(set) var content: String
    public internal(set) var frame: Int
    public internal(set) var children: [(path: ElementPath, view: NativeView)] = []
    var description: ViewDescription

    init(_ description: ViewDescription, serial: Int) {
        viewType = description.viewType
        self.serial = serial
        content = description.content
        frame = description.frame
        self.description = description
    }

    /// Delivers a user event to the handler this view received at the last pass that applied it
    /// (not the current element's: see `ViewDescription.onEvent`). False when it has none.
    @discardableResult
    public func send(_ event: String) -> Bool {
        guard let handler = description.onEvent else { return false }
        handler(event)
        return true
    }

    /// Visits this view and then its descendants, depth first, in child order.
    public func traverse(_ visit: (NativeView) -> Void) {
        visit(self)
        for child in children { child.view.traverse(visit) }
    }

    /// The child at `path`, if any.
    public func child(_ path: ElementPath) -> NativeView? {
        children.first { $0.path == path }?.view
    }
}
