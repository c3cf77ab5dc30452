import SimCore
import SimModels
import SimTestSupport
import Testing

/// A view-backed test element whose description is given field by field.
private struct Box: Element {
    var viewType = "UIView"
    var text = ""
    var frame = 0
    var layout: LayoutTransition = .inherited
    var appearing: VisibilityTransition?
    var disappearing: VisibilityTransition?
    var onAppear: (() -> Void)?
    var onDisappear: (() -> Void)?
    var onApply: (() -> Void)?
    var children: [ElementContent.Child] = []

    var content: ElementContent { ElementContent(children: children) }
    func backingViewDescription() -> ViewDescription? {
        ViewDescription(
            viewType, content: text, frame: frame, layoutTransition: layout, appearingTransition: appearing,
            disappearingTransition: disappearing, onAppear: onAppear, onDisappear: onDisappear, onApply: onApply)
    }
}

/// Another view-backed element type, to change the type at a path.
private struct Badge: Element {
    var text = ""
    var content: ElementContent { .empty }
    func backingViewDescription() -> ViewDescription? { ViewDescription("BadgeView", content: text) }
}

/// An element with no view: its children's views belong to the nearest view-backed ancestor.
private struct Group: Element {
    var children: [ElementContent.Child]
    var content: ElementContent { ElementContent(children: children) }
}

/// A proxy made of a `Box`.
private struct Caption: ProxyElement {
    var text: String
    var elementRepresentation: any Element { Box(viewType: "UILabel", text: text) }
}

private func child(_ element: any Element, key: String? = nil) -> ElementContent.Child {
    ElementContent.Child(element, key: key)
}

private func path(_ steps: (String, Int)...) -> ElementPath {
    ElementPath(steps.map { ElementIdentifier($0.0, occurrence: $0.1) })
}

@Suite struct ElementsTests {
    // MARK: Layout transitions

    static let parent = AnimationAttributes("parent", milliseconds: 300)
    static let own = AnimationAttributes("own", milliseconds: 100)

    @Test(arguments: [
        (LayoutTransition.none, parent as AnimationAttributes?, nil as AnimationAttributes?),
        (.none, nil, nil),
        (.inherited, parent, parent),
        (.inherited, nil, nil),
        (.inheritedWithFallback(own), parent, parent),
        (.inheritedWithFallback(own), nil, own),
        (.specific(own), parent, own),
        (.specific(own), nil, own),
    ])
    func layoutTransitionInheritanceTable(
        _ transition: LayoutTransition, _ inherited: AnimationAttributes?, _ expected: AnimationAttributes?
    ) {
        #expect(transition.resolve(inherited: inherited) == expected)
    }

    /// The animation recorded for each layout transition of one update that moves every view.
    private func layoutAnimations(outer: LayoutTransition, inner: LayoutTransition, root: AnimationAttributes?)
        -> [String: String]
    {
        let sink = MemorySink()
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let view = BlueprintView(simulation)
        func tree(_ frame: Int) -> Box {
            Box(
                frame: frame,
                children: [child(Box(frame: frame, layout: outer, children: [child(Box(frame: frame, layout: inner))]))]
            )
        }
        view.element = tree(0)
        view.layoutIfNeeded()
        view.setElement(tree(1), animation: root)
        view.layoutIfNeeded()
        var result: [String: String] = [:]
        for event in PlayerElementsProbe.events(sink, "view.transition") where event.fields["kind"] == "layout" {
            result[event.subject] = event.fields["animation"]
        }
        return result
    }

    @Test func transitionsResolveDownTheViewTree() {
        let outer = "Box.1"
        let inner = "Box.1 > Box.1"
        let specific = layoutAnimations(outer: .specific(Self.parent), inner: .inherited, root: nil)
        #expect(specific[outer] == Self.parent.description && specific[inner] == Self.parent.description)
        let none = layoutAnimations(outer: .none, inner: .inherited, root: Self.parent)
        #expect(none[outer] == "none" && none[inner] == "none")
        let fallback = layoutAnimations(outer: .none, inner: .inheritedWithFallback(Self.own), root: nil)
        #expect(fallback[inner] == Self.own.description)
        let fromRoot = layoutAnimations(outer: .inherited, inner: .inheritedWithFallback(Self.own), root: Self.parent)
        #expect(fromRoot[outer] == Self.parent.description && fromRoot[inner] == Self.parent.description)
        let overridden = layoutAnimations(outer: .inherited, inner: .specific(Self.own), root: Self.parent)
        #expect(overridden[inner] == Self.own.description)
    }

    // MARK: Paths, reuse and rebuild

    @Test func pathsCountOccurrencesPerTypeAndKeyAndSkipViewlessElements() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let view = BlueprintView(simulation)
        view.element = Box(children: [
            child(Box(text: "a")), child(Badge(text: "b")), child(Box(text: "c")),
            child(Group(children: [child(Box(text: "d"))])), child(Box(text: "k"), key: "k"),
            child(Caption(text: "e")),
        ])
        view.layoutIfNeeded()
        let screen = view.root.children[0].view
        #expect(
            screen.children.map(\.path.description) == [
                "Box.1", "Badge.1", "Box.2", "Group.1/Box.1", "Box.k.1", "Caption.1/Box.1",
            ])
        #expect(view.mismatch() == nil)
    }

    @Test func viewsAreReusedByPathAndTypeAndRebuiltWhenTheTypeChanges() {
        let sink = MemorySink()
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let view = BlueprintView(simulation)
        view.element = Box(children: [child(Badge(text: "x")), child(Box(text: "a")), child(Box(text: "b"))])
        view.layoutIfNeeded()
        let screen = view.root.children[0].view
        let before = screen.children.map(\.view.serial)
        // Removing the badge keeps the boxes' identifiers (Box.1, Box.2): both are reused.
        view.element = Box(children: [child(Box(text: "a2")), child(Box(text: "b2"))])
        view.layoutIfNeeded()
        #expect(screen.children.map(\.view.serial) == Array(before[1...]))
        #expect(screen.children.map(\.view.content) == ["a2", "b2"])
        // A different type at the same path is built anew; the old view is removed.
        view.element = Box(children: [child(Box(viewType: "UIButton", text: "a3")), child(Box(text: "b3"))])
        view.layoutIfNeeded()
        #expect(screen.children[0].view.serial != before[1] && screen.children[0].view.viewType == "UIButton")
        #expect(screen.children[1].view.serial == before[2])
        #expect(view.mismatch() == nil)
        let removed = PlayerElementsProbe.events(sink, "view.remove").map(\.subject)
        // The root element backs the root view, so child paths start below it.
        #expect(removed == ["Badge.1", "Box.1"])
        #expect(PlayerElementsProbe.kinds(sink, only: ["view.reuse"]).count >= 4)
    }

    // MARK: Lifecycle and visibility

    @Test func appearAndDisappearRunAfterTheUpdate() {
        let sink = MemorySink()
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let view = BlueprintView(simulation)
        var log: [String] = []
        func hook(_ name: String) -> () -> Void {
            {
                log.append(
                    "\(name) inside=\(view.isInsideUpdate) views=\(view.root.children.first?.view.children.count ?? 0)")
            }
        }
        view.element = Box(children: [
            child(Box(text: "a", onAppear: hook("appear a"), onDisappear: hook("disappear a"))),
            child(Box(text: "b", onAppear: hook("appear b"))),
        ])
        view.layoutIfNeeded()
        #expect(log == ["appear a inside=false views=2", "appear b inside=false views=2"])
        view.element = Box(children: [child(Badge(text: "b"))])
        view.layoutIfNeeded()
        #expect(log.last == "disappear a inside=false views=1")
        let order = PlayerElementsProbe.kinds(sink, only: ["view.remove", "view.disappear", "element.update"])
        #expect(order.suffix(4) == ["element.update", "view.remove", "view.remove", "view.disappear"])
    }

    @Test func aHiddenHostDeliversNoLifecycleCallbacks() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let view = BlueprintView(simulation, isVisible: false)
        var calls = 0
        view.element = Box(onAppear: { calls += 1 }, onDisappear: { calls += 1 })
        view.layoutIfNeeded()
        view.element = nil
        view.layoutIfNeeded()
        #expect(calls == 0)
    }

    @Test func visibilityTransitionsRunOnInsertAfterTheFirstUpdateAndOnRemove() {
        let sink = MemorySink()
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let view = BlueprintView(simulation)
        let fading = Box(text: "a", appearing: .fade, disappearing: .scale, children: [child(Box(appearing: .fade))])
        view.element = Box(children: [child(fading)])
        view.layoutIfNeeded()
        #expect(PlayerElementsProbe.events(sink, "view.transition").isEmpty, "the first update does not animate in")
        view.element = Box(children: [child(Badge()), child(fading)])
        view.layoutIfNeeded()
        view.element = Box(children: [child(Badge())])
        view.layoutIfNeeded()
        let transitions = PlayerElementsProbe.events(sink, "view.transition").map {
            "\($0.fields["kind"] ?? "") \($0.subject)"
        }
        // Box.1 survived the first change (same path), so only the removal animates.
        #expect(transitions == ["disappear Box.1"])
        view.element = Box(children: [child(Badge()), child(fading)])
        view.layoutIfNeeded()
        let appeared = PlayerElementsProbe.events(sink, "view.transition").filter { $0.fields["kind"] == "appear" }
        #expect(appeared.map(\.subject) == ["Box.1"], "a new view's subviews do not animate in")
    }

    @Test func siblingRemovalOrderIsADecision() {
        func order(seed: UInt64, strategy: any Strategy) -> [String] {
            let simulation = Simulation(seed: seed, strategy: strategy)
            let view = BlueprintView(simulation)
            var log: [String] = []
            view.element = Box(
                children: ["a", "b", "c"].map { name in
                    child(Box(text: name, onDisappear: { log.append(name) }), key: name)
                })
            view.layoutIfNeeded()
            view.element = Box()
            view.layoutIfNeeded()
            return log
        }
        #expect(order(seed: 0, strategy: FIFOStrategy()) == ["a", "b", "c"])
        var seen = Set<[String]>()
        for seed in 0..<60 { seen.insert(order(seed: UInt64(seed), strategy: RandomStrategy())) }
        #expect(seen.count == 6)
    }

    // MARK: Scheduling and re-entrancy

    @Test func settingTheElementSchedulesOneCoalescedLayoutJob() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let view = BlueprintView(simulation)
        view.element = Box(text: "1")
        view.element = Box(text: "2")
        #expect(simulation.pendingJobs(on: simulation.lane("main")) == 1)
        #expect(simulation.run().verdict == .pass)
        #expect(view.passCount == 1 && view.root.children.first?.view.content == "2")
    }

    @Test func anUpdateRequestedDuringAnUpdateIsDeferredToALaterMainJob() {
        let sink = MemorySink()
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy(), sink: sink)
        let view = BlueprintView(simulation)
        var requested = false
        // Like a safe-area callback: applying the view asks for another render mid-update.
        view.element = Box(
            text: "first",
            onApply: {
                guard !requested else { return }
                requested = true
                view.element = Box(text: "second")
                view.layoutIfNeeded()  // forced from inside: must not nest
            })
        let result = simulation.run()
        #expect(result.verdict == .pass)
        #expect(view.deferredCount == 1)
        #expect(view.passCount == 2)
        #expect(view.mismatch() == nil && view.root.children.first?.view.content == "second")
        let order = PlayerElementsProbe.lines(sink, only: ["element.update", "update.deferred", "sched.pick"])
        #expect(order.firstIndex(of: "update.deferred")! < order.lastIndex(of: "sched.pick update.deferred")!)
        #expect(order.last == "element.update")
    }

    @Test func theNaiveHostLosesARequestMadeDuringItsPass() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let view = BlueprintView(simulation, policy: .clearAfterPass)
        var requested = false
        view.element = Box(
            text: "first",
            onAppear: {
                guard !requested else { return }
                requested = true
                view.element = Box(text: "second")
            })
        #expect(simulation.run().verdict == .pass)
        #expect(view.passCount == 1)
        #expect(view.mismatch() != nil, "the view still shows 'first'")
    }

    @Test func randomSchedulesKeepTheViewTreeInStepWithTheElementTree() {
        let strategy = RandomStrategy()
        let types = ["UIView", "UILabel"]
        for seed in 0..<200 {
            let simulation = Simulation(seed: UInt64(seed), strategy: strategy)
            let view = BlueprintView(simulation)
            var maxDepth = 0
            func randomTree(_ depth: Int) -> any Element {
                let count = depth > 2 ? 0 : simulation.choose(4, "children")
                let kids = (0..<count).map { _ -> ElementContent.Child in
                    let element: any Element
                    switch simulation.choose(4, "kind") {
                    case 0: element = Badge(text: "\(simulation.choose(3, "text"))")
                    case 1: element = Group(children: [child(randomTree(depth + 1))])
                    default: element = randomTree(depth + 1)
                    }
                    return child(element, key: simulation.buggify("key") ? "k" : nil)
                }
                return Box(
                    viewType: types[simulation.choose(2, "type")], text: "\(simulation.choose(3, "text"))",
                    frame: simulation.choose(2, "frame"),
                    onAppear: { maxDepth = max(maxDepth, depth) },
                    onDisappear: {
                        // A lifecycle callback that re-renders, as real screens do.
                        if simulation.choose(4, "rerender") == 0 { view.element = randomTree(0) }
                    },
                    children: kids)
            }
            for lane in ["user", "network", "timer.lane"] {
                for step in 0..<3 {
                    simulation.post(on: lane, "\(lane).\(step)") { view.element = randomTree(0) }
                }
            }
            simulation.always("no-pass-left-open") { view.isInsideUpdate ? "a pass did not finish" : nil }
            simulation.atEnd("view-tree-matches-element-tree") { view.mismatch() }
            simulation.atEnd("settled") { view.isSettled ? nil : "an update is still pending" }
            simulation.atEnd("serials-unique") {
                var serials: [Int] = []
                view.root.traverse { serials.append($0.serial) }
                return Set(serials).count == serials.count ? nil : "a view appears twice in the tree"
            }
            let result = simulation.run()
            #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
        }
    }
}

/// square/Blueprint PR #618 (`BlueprintUI/Sources/BlueprintView/BlueprintView.swift`): a safe-area
/// change inside a pass, followed by a forced layout, is deferred; before the PR it trapped
/// (`.trapReentrant`, fuzzed through worker processes in SimEngineTests' `FindingCampaignCrashTests`).
@Suite struct BlueprintSafeAreaTests {
    private func host(_ policy: BlueprintView.UpdatePolicy, insideThePass: Bool) -> (BlueprintView, RunResult) {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let view = BlueprintView(simulation, policy: policy)
        var changed = false
        let changeSafeArea = {
            guard !changed else { return }
            changed = true
            view.safeAreaInsetsDidChange()
            view.layoutIfNeeded()
        }
        view.element = Box(text: "header", onApply: insideThePass ? changeSafeArea : nil)
        if !insideThePass { simulation.post(on: "main", "keyboard.willShow") { changeSafeArea() } }
        return (view, simulation.run())
    }

    @Test func aSafeAreaChangeInsideAPassIsDeferredSinceTheFix() {
        let (view, result) = host(.deferReentrant, insideThePass: true)
        #expect(result.verdict == .pass)
        #expect(view.deferredCount == 1 && view.passCount == 2 && view.isSettled)
    }

    @Test func beforeTheFixAChangeBetweenPassesIsAnOrdinaryForcedLayout() {
        let (view, result) = host(.trapReentrant, insideThePass: false)
        #expect(result.verdict == .pass)
        #expect(view.deferredCount == 0 && view.passCount == 2 && view.isSettled)
    }
}

/// square/Blueprint issue #13 ("Events can be dropped between updates"): a new element reaches the
/// native view only at the next pass, so an event in between runs the previous render's closure.
@Suite struct BlueprintEventClosureTests {
    private struct Button: Element {
        var render: Int
        var tapped: (Int) -> Void
        var content: ElementContent { .empty }
        func backingViewDescription() -> ViewDescription? {
            ViewDescription("UIButton", content: "Tap", onEvent: { _ in tapped(render) })
        }
    }

    @Test func anEventBeforeTheNextPassRunsThePreviousRendersClosure() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let view = BlueprintView(simulation)
        var heard: [Int] = []
        view.element = Button(render: 1) { heard.append($0) }
        #expect(simulation.run().verdict == .pass)
        let button = view.root.children.first?.view
        view.element = Button(render: 2) { heard.append($0) }
        #expect(button?.send("tap") == true)
        view.layoutIfNeeded()
        #expect(button?.send("tap") == true)
        #expect(heard == [1, 2], "render 1's closure until the pass, render 2's after it")
    }
}

/// square/Blueprint `BlueprintView.swift`: `didMoveToWindow` sets `isVisible`; becoming visible
/// calls every view's `onAppear`, becoming hidden every view's `onDisappear`.
@Suite struct BlueprintVisibilityTests {
    @Test func movingInAndOutOfAWindowCallsEveryViewsLifecycleOnce() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let view = BlueprintView(simulation, isVisible: false)
        var log: [String] = []
        view.element = Box(
            text: "outer", onAppear: { log.append("appear outer") }, onDisappear: { log.append("disappear outer") },
            children: [
                .init(
                    Box(
                        text: "inner", onAppear: { log.append("appear inner") },
                        onDisappear: { log.append("disappear inner") }))
            ])
        #expect(simulation.run().verdict == .pass)
        #expect(log.isEmpty, "hidden: the pass delivers no lifecycle callbacks")
        view.moveToWindow(true)
        view.moveToWindow(true)
        view.moveToWindow(false)
        #expect(log == ["appear outer", "appear inner", "disappear outer", "disappear inner"])
    }
}

/// square/Blueprint `BlueprintView.swift` (`NativeViewController`): a removed view with a
/// disappearing transition is animated out and removed from its superview only on completion,
/// while its `onDisappear` runs right after the pass.
@Suite struct BlueprintAnimatedRemovalTests {
    @Test func aViewStaysOnScreenUntilItsDisappearingTransitionFinishes() {
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        let view = BlueprintView(simulation)
        var disappeared = false
        view.element = Box(
            text: "toast", disappearing: VisibilityTransition(alpha: 0, scale: 1, attributes: .init(milliseconds: 300)),
            onDisappear: { disappeared = true })
        var onScreenAfterPass: [Int] = []
        simulation.post(on: "main", "dismiss") {
            view.element = nil
            view.layoutIfNeeded()
            onScreenAfterPass = view.disappearingViews.map(\.serial)
        }
        let result = simulation.run()
        #expect(result.verdict == .pass)
        #expect(disappeared, "onDisappear runs after the pass, not after the animation")
        #expect(onScreenAfterPass == [1], "still on screen while it animates out")
        #expect(view.disappearingViews.isEmpty && result.endTime == 300_000_000)
        #expect(view.mismatch() == nil)
    }
}
