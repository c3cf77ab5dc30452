/// What a native view backing an element looks like and how it behaves, as Blueprint's
/// `ViewDescription`: the view's class, the properties an update applies, its layout frame, its
/// transitions and its lifecycle hooks.
public struct ViewDescription {
    /// The native view class; a view is reused only for the same class.
    public var viewType: String
    /// The properties an update applies (e.g. a label's text).
    public var content: String
    /// The layout attribute that, when it changes, triggers the layout transition.
    public var frame: Int
    public var layoutTransition: LayoutTransition
    public var appearingTransition: VisibilityTransition?
    public var disappearingTransition: VisibilityTransition?
    /// Called (after the update) when the view is inserted into a visible hierarchy.
    public var onAppear: (() -> Void)?
    /// Called (after the update) when the view is removed from a visible hierarchy.
    public var onDisappear: (() -> Void)?
    /// Called during the update each time the description is applied to the view (build or
    /// reuse), like a view's own layout callbacks that may run inside Blueprint's update.
    public var onApply: (() -> Void)?
    /// The control's event handler (a button's tap, a field's edit), installed on the native view
    /// each time the description is applied. Between a new element and the next pass the view still
    /// holds the previous pass's closure, so an event in that gap runs stale code (square/Blueprint
    /// issue #13, "Events can be dropped between updates", open).
    public var onEvent: ((_ event: String) -> Void)?

    public init(
        _ viewType: String, content: String = "", frame: Int = 0, layoutTransition: LayoutTransition = .inherited,
        appearingTransition: VisibilityTransition? = nil, disappearingTransition: VisibilityTransition? = nil,
        onAppear: (() -> Void)? = nil, onDisappear: (() -> Void)? = nil, onApply: (() -> Void)? = nil,
        onEvent: ((_ event: String) -> Void)? = nil
    ) {
        self.onEvent = onEvent
        self.viewType = viewType
        self.content = content
        self.frame = frame
        self.layoutTransition = layoutTransition
        self.appearingTransition = appearingTransition
        self.disappearingTransition = disappearingTransition
        self.onAppear = onAppear
        self.onDisappear = onDisappear
        self.onApply = onApply
    }
}
