import SimCore
import SimModels
import SimTestSupport
import Testing

/// A view-backed element with optional children and a disappearing transition.
private struct Row: Element {
    var text = ""
    var fades = false
    var children: [ElementContent.Child] = []

    var content: ElementContent { ElementContent(children: children) }
    func backingViewDescription() -> ViewDescription? {
        ViewDescription(
            "RowView", content: text,
            disappearingTransition: fades
                ? VisibilityTransition(alpha: 0, scale: 1, attributes: .init("fade", milliseconds: 100)) : nil,
            onAppear: {}, onDisappear: {})
    }
}

/// What an oracle outside SimModels can see of a Blueprint view: its live views by path, the
/// description (transitions, hooks) each holds, appear/disappear counts, and element identifiers.
@Suite struct BlueprintViewStateTests {
    @Test func liveViewsCountsAndDescriptionsAreVisibleFromOutside() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        do {
            let view = BlueprintView(simulation)
            view.element = Row(children: [ElementContent.Child(Row(text: "a", fades: true)), .init(Row(text: "b"))])
            view.layoutIfNeeded()
            #expect(view.liveViews().map(\.path) == ["", "Row.1", "Row.2"])
            #expect(view.liveViews().map(\.view.content) == ["", "a", "b"])
            #expect(view.liveViews()[1].view.description.disappearingTransition != nil)
            #expect(view.appearCounts == ["": 1, "Row.1": 1, "Row.2": 1])

            view.element = Row(children: [.init(Row(text: "a2"))])
            view.layoutIfNeeded()
            #expect(view.liveViews().map(\.path) == ["", "Row.1"])
            #expect(view.disappearCounts == ["Row.2": 1])

            let ids = ElementIdentifier.identify([.init(Row()), .init(Row(), key: "k"), .init(Row())])
            #expect(ids.map(\.description) == ["Row.1", "Row.k.1", "Row.2"])
        }
    }
}
