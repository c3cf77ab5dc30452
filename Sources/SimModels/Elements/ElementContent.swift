/// The children of an element, each with an optional key that disambiguates siblings of one type.
public struct ElementContent {
    /// One child and its key.
    public struct Child {
        public var key: String?
        public var element: any Element

        public init(_ element: any Element, key: String? = nil) {
            self.element = element
            self.key = key
        }
    }

    public var children: [Child]

    public init(children: [Child]) { self.children = children }

    /// Unkeyed children, in order.
    public init(_ elements: [any Element]) { children = elements.map { Child($0) } }

    /// A single child.
    public init(child: any Element, key: String? = nil) { children = [Child(child, key: key)] }

    /// No children.
    public static var empty: ElementContent { ElementContent(children: []) }
}
