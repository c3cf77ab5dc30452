/// The children of an element, each with an optional key that disambiguates siblings of one type.
public struct ElementContent {
    /// One child and its key.
    public struct Child {
        /// Tells apart siblings of one type (nil for none).
        public var key: String?
        /// The child element.
        public var element: any Element

        /// A child, keyed or not.
        public init(_ element: any Element, key: String? = nil) {
            self.element = element
            self.key = key
        }
    }

    /// The children, in order.
    public var children: [Child]

    /// Content of these children.
    public init(children: [Child]) { self.children = children }

    /// Unkeyed children, in order.
    public init(_ elements: [any Element]) { children = elements.map { Child($0) } }

    /// A single child.
    public init(child: any Element, key: String? = nil) { children = [Child(child, key: key)] }

    /// No children.
    public static var empty: ElementContent { ElementContent(children: []) }
}
