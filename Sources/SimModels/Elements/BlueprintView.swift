import SimCore

/// A host that keeps a native view tree in step with an element tree, as Blueprint's `BlueprintView`.
///
/// Setting `element` marks the view as needing an update and schedules a layout pass (a `main`
/// job, like UIKit's `setNeedsLayout`). The pass matches child views by element path and reuses a
/// view only when path and view type match; otherwise it builds a new one and removes the old. The
/// order in which removed siblings are processed is a decision (Blueprint walks a dictionary).
/// Lifecycle callbacks are collected during the pass and delivered after it.
public final class BlueprintView {
    /// What the host does with an update requested while a pass runs.
    public enum UpdatePolicy: String, Sendable, CaseIterable {
        /// Blueprint today: lifecycle callbacks run after the pass is marked done, and a request
        /// arriving during the pass is deferred to a later `main` job (coalesced).
        case deferReentrant
        /// A naive host: lifecycle callbacks run inside the pass, and the dirty flag is cleared
        /// when the pass ends, so a request made during the pass is silently lost.
        case clearAfterPass
        /// Blueprint before square/Blueprint PR #618: a request during a pass schedules an ordinary
        /// layout, and a pass forced from inside a pass (`layoutIfNeeded()` from a UIKit callback such
        /// as `safeAreaInsetsDidChange`) trips `precondition(!isInsideUpdate, "Reentrant updates are
        /// not supported in BlueprintView…")`: the process traps.
        case trapReentrant
    }

    private unowned let simulation: Simulation
    private let main: LaneID
    public let policy: UpdatePolicy
    /// Whether the host is in a window: lifecycle callbacks are only delivered when visible.
    public private(set) var isVisible: Bool

    /// The root view (never rebuilt); its children back the element tree.
    public let root: NativeView
    /// The element shown once the next pass has run.
    public var element: (any Element)? {
        didSet {
            simulation.emit("element.set", "", ["updating": .bool(isInsideUpdate)])
            setNeedsViewHierarchyUpdate()
        }
    }

    public private(set) var needsViewHierarchyUpdate = false
    public private(set) var isInsideUpdate = false
    /// Views removed from the element tree whose disappearing transition is still running: they stay
    /// on screen until it finishes (square/Blueprint `NativeViewController`: `performDisappearing(…,
    /// completion: removeChild)`), while their `onDisappear` already ran after the pass.
    public private(set) var disappearingViews: [NativeView] = []
    /// Update passes run so far.
    public private(set) var passCount = 0
    /// Requests deferred because they arrived during a pass.
    public private(set) var deferredCount = 0

    private var hasUpdatedViewHierarchy = false
    private var layoutScheduled = false
    private var hasScheduledDeferredUpdate = false
    private var nextSerial = 0
    private var pendingAnimation: AnimationAttributes?

    public init(_ simulation: Simulation, policy: UpdatePolicy = .deferReentrant, isVisible: Bool = true) {
        self.simulation = simulation
        self.policy = policy
        self.isVisible = isVisible
        main = simulation.lane("main")
        root = NativeView(ViewDescription("PassthroughView"), serial: 0)
    }

    /// Sets the element as if inside an animation block: `animation` is what `inherited`
    /// transitions resolve to at the root during the next pass.
    public func setElement(_ element: (any Element)?, animation: AnimationAttributes?) {
        pendingAnimation = animation
        self.element = element
    }

    /// The host entered or left a window (`BlueprintView.didMoveToWindow`). Becoming visible calls
    /// every view's `onAppear`, becoming hidden every view's `onDisappear`, depth first, at once
    /// (square/Blueprint `BlueprintView.swift`: `isVisible` → `handleAppeared`/`handleDisappeared`);
    /// passes made while hidden deliver no lifecycle callbacks.
    public func moveToWindow(_ inWindow: Bool) {
        guard inWindow != isVisible else { return }
        isVisible = inWindow
        simulation.emit("view.visibility", "", ["visible": .bool(inWindow)])
        var calls: [LifecycleCall] = []
        for child in root.children {
            collectVisibility(child.view, at: child.path.description, appearing: inWindow, into: &calls)
        }
        deliver(calls)
    }

    private func collectVisibility(
        _ view: NativeView, at path: String, appearing: Bool, into calls: inout [LifecycleCall]
    ) {
        if let callback = appearing ? view.description.onAppear : view.description.onDisappear {
            calls.append(LifecycleCall(appearing: appearing, path: path, callback: callback))
        }
        for child in view.children {
            collectVisibility(child.view, at: join(path, child.path), appearing: appearing, into: &calls)
        }
    }

    /// UIKit told the view its safe area changed (`BlueprintView.safeAreaInsetsDidChange`): the
    /// hierarchy must be updated, possibly while a pass is running (the callback is synchronous).
    public func safeAreaInsetsDidChange() {
        simulation.emit("view.safeAreaChange", "", ["updating": .bool(isInsideUpdate)])
        setNeedsViewHierarchyUpdate()
    }

    /// Runs the pending update now (UIKit's `layoutIfNeeded`).
    public func layoutIfNeeded() { updateViewHierarchyIfNeeded() }

    /// True when no update is needed and none is scheduled.
    public var isSettled: Bool { !needsViewHierarchyUpdate && !layoutScheduled && !hasScheduledDeferredUpdate }

    // MARK: Scheduling

    private func setNeedsViewHierarchyUpdate() {
        switch policy {
        case .clearAfterPass:
            // Coalesces with the pass it believes pending, even the one running now.
            if needsViewHierarchyUpdate { return }
            needsViewHierarchyUpdate = true
            setNeedsLayout()
        case .trapReentrant:
            if needsViewHierarchyUpdate { return }
            needsViewHierarchyUpdate = true
            setNeedsLayout()
        case .deferReentrant:
            if needsViewHierarchyUpdate {
                if isInsideUpdate { scheduleDeferredUpdate() }
                return
            }
            needsViewHierarchyUpdate = true
            if isInsideUpdate { scheduleDeferredUpdate() } else { setNeedsLayout() }
        }
    }

    private func setNeedsLayout() {
        guard !layoutScheduled else { return }
        layoutScheduled = true
        simulation.post(main, simulation.symbol("view.layout")) { [self] in
            layoutScheduled = false
            updateViewHierarchyIfNeeded()
        }
    }

    private func scheduleDeferredUpdate() {
        guard !hasScheduledDeferredUpdate else { return }
        hasScheduledDeferredUpdate = true
        deferredCount += 1
        simulation.emit("update.deferred", "", ["pass": .int(passCount)])
        simulation.post(main, simulation.symbol("update.deferred")) { [self] in
            hasScheduledDeferredUpdate = false
            if needsViewHierarchyUpdate { setNeedsLayout() }
        }
    }

    // MARK: The update pass

    private func updateViewHierarchyIfNeeded() {
        guard needsViewHierarchyUpdate else { return }
        if isInsideUpdate {
            // A pass forced from inside a pass: never nest, retry later (or drop, naively).
            switch policy {
            case .deferReentrant: scheduleDeferredUpdate()
            case .clearAfterPass: break
            case .trapReentrant:
                simulation.emit("update.reentrant", "", ["pass": .int(passCount)])
                preconditionFailure(
                    "Reentrant updates are not supported in BlueprintView. Ensure that view events from within"
                        + " the hierarchy are not synchronously triggering additional updates.")
            }
            return
        }
        isInsideUpdate = true
        if policy != .clearAfterPass { needsViewHierarchyUpdate = false }
        passCount += 1
        let expected = element.map(ResolvedViewNode.resolve) ?? []
        simulation.emit("element.update", "", ["pass": .int(passCount), "views": .int(expected.count)])
        let animation = pendingAnimation
        pendingAnimation = nil
        var lifecycle: [LifecycleCall] = []
        let context = UpdateContext(appearanceTransitionsEnabled: hasUpdatedViewHierarchy, isVisible: isVisible)
        updateChildren(of: root, to: expected, at: "", animation: animation, context: context, lifecycle: &lifecycle)
        hasUpdatedViewHierarchy = true
        switch policy {
        case .deferReentrant, .trapReentrant:
            // Done before the callbacks, so a callback that re-renders schedules a normal pass.
            isInsideUpdate = false
            deliver(lifecycle)
        case .clearAfterPass:
            deliver(lifecycle)
            needsViewHierarchyUpdate = false
            isInsideUpdate = false
        }
    }

    private struct UpdateContext {
        var appearanceTransitionsEnabled: Bool
        var isVisible: Bool
    }

    private struct LifecycleCall {
        var appearing: Bool
        var path: String
        var callback: () -> Void
    }

    private func deliver(_ calls: [LifecycleCall]) {
        for call in calls {
            simulation.emit(call.appearing ? "view.appear" : "view.disappear", call.path)
            call.callback()
        }
    }

    private func apply(_ description: ViewDescription, to view: NativeView) {
        view.description = description
        view.content = description.content
        view.frame = description.frame
        description.onApply?()
    }

    private func updateChildren(
        of view: NativeView, to nodes: [(path: ElementPath, node: ResolvedViewNode)], at base: String,
        animation: AnimationAttributes?, context: UpdateContext, lifecycle: inout [LifecycleCall]
    ) {
        if view.children.isEmpty && nodes.isEmpty { return }
        var old = view.children
        var updated: [(path: ElementPath, view: NativeView)] = []
        updated.reserveCapacity(nodes.count)
        for (path, node) in nodes {
            if updated.contains(where: { $0.path == path }) {
                simulation.fail("duplicate-view-identifier", "two views at \(join(base, path))")
                continue
            }
            let here = join(base, path)
            let type = node.description.viewType
            if let slot = old.firstIndex(where: { $0.path == path && $0.view.viewType == type }) {
                let child = old.remove(at: slot).view
                updated.append((path, child))
                let moved = child.frame != node.description.frame
                let transition = moved ? node.description.layoutTransition : .inherited
                let resolved = transition.resolve(inherited: animation)
                simulation.emit("view.reuse", here, ["type": .text(type), "serial": .int(child.serial)])
                if moved {
                    simulation.emit(
                        "view.transition", here,
                        ["kind": "layout", "animation": .text(resolved?.description ?? "none")])
                }
                apply(node.description, to: child)
                updateChildren(
                    of: child, to: node.children, at: here, animation: resolved, context: context, lifecycle: &lifecycle
                )
            } else {
                nextSerial += 1
                let child = NativeView(node.description, serial: nextSerial)
                simulation.emit("view.build", here, ["type": .text(type), "serial": .int(child.serial)])
                if context.isVisible, let onAppear = node.description.onAppear {
                    lifecycle.append(LifecycleCall(appearing: true, path: here, callback: onAppear))
                }
                apply(node.description, to: child)
                // A new view is built without animation, and its subviews never animate in.
                var inner = context
                inner.appearanceTransitionsEnabled = false
                updateChildren(
                    of: child, to: node.children, at: here, animation: nil, context: inner, lifecycle: &lifecycle)
                updated.append((path, child))
                if context.appearanceTransitionsEnabled, let appearing = node.description.appearingTransition {
                    simulation.emit(
                        "view.transition", here, ["kind": "appear", "animation": .text(appearing.description)])
                }
            }
        }
        for (path, child) in simulation.permutation(old, "blueprint.removeOrder") {
            let here = join(base, path)
            simulation.emit(
                "view.remove", here,
                [
                    "type": .text(child.viewType), "serial": .int(child.serial),
                    "animated": .bool(child.description.disappearingTransition != nil),
                ])
            if context.isVisible { collectDisappear(child, at: here, into: &lifecycle) }
            if let disappearing = child.description.disappearingTransition {
                simulation.emit(
                    "view.transition", here, ["kind": "disappear", "animation": .text(disappearing.description)])
                disappearingViews.append(child)
                let duration = Duration.milliseconds(disappearing.attributes.milliseconds)
                let serial = child.serial
                simulation.after(duration, on: main, "view.animationDone") { [weak self] in
                    guard let self else { return }
                    disappearingViews.removeAll { $0.serial == serial }
                    simulation.emit("view.removeFromSuperview", here, ["serial": .int(serial)])
                }
            }
        }
        view.children = updated
    }

    private func collectDisappear(_ view: NativeView, at path: String, into lifecycle: inout [LifecycleCall]) {
        if let onDisappear = view.description.onDisappear {
            lifecycle.append(LifecycleCall(appearing: false, path: path, callback: onDisappear))
        }
        for child in view.children { collectDisappear(child.view, at: join(path, child.path), into: &lifecycle) }
    }

    private func join(_ base: String, _ path: ElementPath) -> String {
        base.isEmpty ? path.description : base + " > " + path.description
    }

    // MARK: Checking

    /// Nil when the view tree shows exactly the current element tree (paths, view types,
    /// contents, frames); otherwise the first difference.
    public func mismatch() -> String? {
        compare(root.children, element.map(ResolvedViewNode.resolve) ?? [], at: "")
    }

    private func compare(
        _ views: [(path: ElementPath, view: NativeView)], _ nodes: [(path: ElementPath, node: ResolvedViewNode)],
        at base: String
    ) -> String? {
        let viewPaths = views.map(\.path)
        let nodePaths = nodes.map(\.path)
        if viewPaths != nodePaths {
            return "under '\(base)': views \(viewPaths.map(\.description)) but elements \(nodePaths.map(\.description))"
        }
        for (view, node) in zip(views, nodes) {
            let here = join(base, view.path)
            if view.view.viewType != node.node.description.viewType {
                return "at '\(here)': view is \(view.view.viewType), element wants \(node.node.description.viewType)"
            }
            if view.view.content != node.node.description.content || view.view.frame != node.node.description.frame {
                return "at '\(here)': view shows '\(view.view.content)'@\(view.view.frame), "
                    + "element says '\(node.node.description.content)'@\(node.node.description.frame)"
            }
            if let difference = compare(view.view.children, node.node.children, at: here) { return difference }
        }
        return nil
    }
}
