/// A node of a declarative UI tree, as in Blueprint: it has children (`content`) and may be backed
/// by a native view (`backingViewDescription`). Elements without a view are flattened away: their
/// children's views become children of the nearest view-backed ancestor.
public protocol Element {
    /// The element's children.
    var content: ElementContent { get }
    /// How to build and update the native view backing this element, or nil for none.
    func backingViewDescription() -> ViewDescription?
}

extension Element {
    /// No view: by default an element only groups its children.
    public func backingViewDescription() -> ViewDescription? { nil }

    /// The name identifying this element's type in paths (the type name, stable across runs).
    public var elementTypeName: String { String(describing: type(of: self)) }
}

/// An element made of another element, as Blueprint's `ProxyElement`: only
/// `elementRepresentation` is written, and the representation is its single child.
public protocol ProxyElement: Element {
    /// The element this one is made of.
    var elementRepresentation: any Element { get }
}

extension ProxyElement {
    /// The representation, as the single child.
    public var content: ElementContent { ElementContent(child: elementRepresentation) }
    /// No view of its own: the representation has it.
    public func backingViewDescription() -> ViewDescription? { nil }
}
