import SimCore

/// One state of a Player navigation flow: a view to show (or an end), and its named transitions.
public struct PlayerFlowState: Sendable, Hashable {
    /// The state's name, which transitions target.
    public var name: String
    /// The view shown in this state; nil for an END state.
    public var viewRef: String?
    /// Transition value → next state name, in declaration order.
    public var transitions: [String: String]

    /// A state showing `viewRef` (nil for an END state) with these transitions.
    public init(_ name: String, view viewRef: String?, transitions: [String: String] = [:]) {
        self.name = name
        self.viewRef = viewRef
        self.transitions = transitions
    }
}

/// Player's flow state machine: `transition` is synchronous, and a transition requested while one
/// is running is refused (Player throws "Transitioning while ongoing transition … is not supported").
///
/// Before a transition, the `skipTransition` hooks run (player-ui/player
/// `core/player/src/controllers/flow/flow.ts`, a `SyncBailHook`): the first that answers true blocks
/// it, and the flow stays where it is. Player's validation taps it (`core/player/src/player.ts`).
public final class PlayerFlow {
    private unowned let simulation: Simulation
    private let states: [String: PlayerFlowState]
    private let startState: String
    private var hooks: [(_ from: String?, _ to: PlayerFlowState) -> Void] = []
    private var skipHooks: [(_ current: PlayerFlowState) -> Bool] = []
    /// The JS engine the flow runs in: `start` and `transition` are native→JS calls.
    public let js: PlayerJSContext

    /// The state the flow is in, nil before `start`.
    public private(set) var current: PlayerFlowState?
    /// True while a transition (and the hooks it calls) runs.
    public private(set) var isTransitioning = false
    /// Names of the states entered, in order.
    public private(set) var history: [String] = []
    /// Transitions refused because another was running.
    public private(set) var refusedCount = 0
    /// Transitions a `skipTransition` hook blocked (validation, in Player).
    public private(set) var skippedCount = 0

    /// A flow over `states`, entering `start` when started, in `js` (a context of its own when nil).
    public init(_ simulation: Simulation, start: String, states: [PlayerFlowState], js: PlayerJSContext? = nil) {
        self.simulation = simulation
        self.js = js ?? PlayerJSContext(simulation)
        self.startState = start
        var table: [String: PlayerFlowState] = [:]
        for state in states { table[state.name] = state }
        self.states = table
        precondition(table[start] != nil, "the start state must be one of the states")
    }

    /// Calls `hook` synchronously inside every transition, after the new state is current.
    public func onTransition(_ hook: @escaping (_ from: String?, _ to: PlayerFlowState) -> Void) {
        hooks.append(hook)
    }

    /// Calls `hook` before every transition that is not forced; the first hook returning true blocks
    /// the transition (Player's `skipTransition` bail hook), in registration order.
    public func onSkipTransition(_ hook: @escaping (_ current: PlayerFlowState) -> Bool) {
        skipHooks.append(hook)
    }

    /// Enters the start state.
    public func start() {
        guard current == nil, let state = states[startState] else { return }
        js.call { enter(state, value: "start") }
    }

    /// Follows the transition named `value` from the current state. Returns false when refused:
    /// during another transition, at an END state, when a `skipTransition` hook blocks it (unless
    /// `force`, Player's `TransitionOptions.force`), or when no such transition exists.
    @discardableResult
    public func transition(_ value: String, force: Bool = false) -> Bool {
        js.call { transitionInJS(value, force: force) }
    }

    private func transitionInJS(_ value: String, force: Bool) -> Bool {
        let from = current?.name ?? ""
        if isTransitioning {
            refusedCount += 1
            simulation.emit("flow.refused", value, ["from": .text(from), "reason": "in-transition"])
            return false
        }
        guard let state = current, state.viewRef != nil else {
            simulation.emit("flow.refused", value, ["from": .text(from), "reason": "end"])
            return false
        }
        if !force, skipHooks.contains(where: { $0(state) }) {
            skippedCount += 1
            simulation.emit("flow.skipped", value, ["from": .text(from), "reason": "skipTransition"])
            return false
        }
        guard let nextName = state.transitions[value], let next = states[nextName] else {
            simulation.emit("flow.refused", value, ["from": .text(from), "reason": "no-transition"])
            return false
        }
        enter(next, value: value)
        return true
    }

    private func enter(_ state: PlayerFlowState, value: String) {
        let from = current?.name
        isTransitioning = true
        current = state
        history.append(state.name)
        simulation.emit("flow.transition", value, ["from": .text(from ?? ""), "to": .text(state.name)])
        for hook in hooks { hook(from, state) }
        isTransitioning = false
    }
}
