/// An element tree flattened to the views it needs: each view-backed element with the paths of
/// the view-backed elements below it (elements without a view pass their children up, each path
/// prefixed with the identifier of the element it passed through).
struct ResolvedViewNode {
    var description: ViewDescription
    var children: [(path: ElementPath, node: ResolvedViewNode)]

    static func resolve(_ element: any Element) -> [(path: ElementPath, node: ResolvedViewNode)] {
        let content = element.content.children
        let identifiers = ElementIdentifier.identify(content)
        var children: [(path: ElementPath, node: ResolvedViewNode)] = []
        for (identifier, child) in zip(identifiers, content) {
            for resolved in resolve(child.element) {
                children.append((resolved.path.prepending(identifier), resolved.node))
            }
        }
        if let description = element.backingViewDescription() {
            return [(ElementPath(), ResolvedViewNode(description: description, children: children))]
        }
        return children
    }
}
