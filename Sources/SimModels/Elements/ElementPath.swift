/// One step of a path: the element's type, its key, and its occurrence among siblings of that
/// type and key (1-based), as Blueprint's `ElementIdentifier`. Removing an earlier sibling of
/// another type leaves the identifier unchanged, which is what lets views be reused.
public struct ElementIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The element's type name.
    public var typeName: String
    /// The element's key, if any.
    public var key: String?
    /// Its number among siblings of the same type and key, from 1.
    public var occurrence: Int

    /// The identifier of the `occurrence`-th `typeName` (with `key`) among its siblings.
    public init(_ typeName: String, key: String? = nil, occurrence: Int) {
        self.typeName = typeName
        self.key = key
        self.occurrence = occurrence
    }

    /// `Type.occurrence`, or `Type.key.occurrence` for a keyed element.
    public var description: String {
        key.map { "\(typeName).\($0).\(occurrence)" } ?? "\(typeName).\(occurrence)"
    }

    /// Numbers the children of one element: counts per (type, key), in child order.
    public static func identify(_ children: [ElementContent.Child]) -> [ElementIdentifier] {
        var seen: [ElementIdentifier] = []
        var result: [ElementIdentifier] = []
        result.reserveCapacity(children.count)
        for child in children {
            let name = child.element.elementTypeName
            let count = seen.reduce(0) { $1.typeName == name && $1.key == child.key ? $0 + 1 : $0 }
            let identifier = ElementIdentifier(name, key: child.key, occurrence: count + 1)
            seen.append(identifier)
            result.append(identifier)
        }
        return result
    }
}

/// The identifiers from a native view's parent view down to the element backing it.
public struct ElementPath: Hashable, Sendable, CustomStringConvertible {
    /// The steps from the view-backed ancestor down to the element.
    public var identifiers: [ElementIdentifier]

    /// A path of these steps.
    public init(_ identifiers: [ElementIdentifier] = []) { self.identifiers = identifiers }

    func prepending(_ identifier: ElementIdentifier) -> ElementPath {
        ElementPath([identifier] + identifiers)
    }

    /// The steps joined with `/`.
    public var description: String { identifiers.map(\.description).joined(separator: "/") }
}
