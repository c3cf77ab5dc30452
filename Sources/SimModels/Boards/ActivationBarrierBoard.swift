import SimCore

/// Holds activations of other boards until a gate board completes (Boardy's core
/// `ActivatableBarrierBoard`, what `activation(…).barrier()` installs: "log in first, then open
/// checkout").
///
/// Facts from congncif/boardy `Boardy/Core/BoardType/ActivatableBarrierBoard.swift`: the first
/// pending activation starts a cycle: the barrier installs itself on its owner motherboard,
/// registers a completion flow for the gate board on it, and activates the gate; activations arriving
/// meanwhile join the cycle. When the gate completes, the barrier completes (the default flow
/// removes it) and, if the gate succeeded, runs every pending activation in order. The completion
/// flow lives in the owner's flow list, so `Motherboard.resetFlows()` wipes it.
///
/// `registration` chooses the version. `.latched` (before commit 7ccc9991): a one-shot
/// `isRegistered` flag makes every later registration return early, so after `resetFlows()` the
/// gate completes with nobody listening and the pending activations hang; the flow also stays on
/// the owner after the cycle (the accumulation ad68c058 fixes). `.live` (7ccc9991, ad68c058):
/// registration checks the owner's live flows under a stable flow name, the barrier takes its flow
/// back off when it completes, and `resetFlows()` re-registers the flow of every installed barrier.
public final class ActivationBarrierBoard: ActivatableBoard {
    /// How the barrier decides whether its completion flow is registered.
    public enum FlowRegistration: String, Sendable {
        /// Before congncif/boardy commit 7ccc9991: a flag set once, never reset.
        case latched
        /// Commit 7ccc9991: the owner's live flows are checked, and `resetFlows()` restores the flow.
        case live
    }

    /// The board's address: the gate's identifier with Boardy's private barrier suffix.
    public let identifier: String
    /// The motherboard it sends to; weak, as in Boardy.
    public weak var delegate: Motherboard?
    /// The board whose completion opens the barrier (a login board).
    public let gate: String
    /// Which version of the registration this barrier follows.
    public let registration: FlowRegistration
    unowned let sim: Simulation
    private unowned let owner: Motherboard
    private var pending: [(target: String, option: BoardOption)] = []
    private var isRegistered = false

    /// True between the first pending activation and the gate's completion.
    public private(set) var isActive = false
    /// Activations the barrier released after its gate succeeded.
    public private(set) var released = 0

    /// Activations waiting for the gate.
    public var pendingCount: Int { pending.count }
    /// The name of the completion flow it registers on its owner (stable, as 7ccc9991 makes it).
    public var completionFlowName: String { "boardy.barrier.completion." + identifier }

    /// A barrier on `owner` that opens when `gate` completes.
    public init(gate: String, owner: Motherboard, sim: Simulation, registration: FlowRegistration) {
        self.gate = gate
        self.identifier = gate + "___PRIVATE_BARRIER___"
        self.owner = owner
        self.sim = sim
        self.registration = registration
    }

    /// Activations reach the barrier through `request`; an option sent to it directly is dropped.
    public func activate(withOption option: BoardOption) {
        sim.emit("board.drop", identifier, ["reason": "activate a target through request(_:_:)"])
    }

    /// Activates `target` with `option` once the gate has completed successfully.
    public func request(_ target: String, _ option: BoardOption = .value(.none)) {
        pending.append((target, option))
        sim.emit("barrier.enqueue", identifier, ["target": .text(target), "pending": .int(pending.count)])
        guard !isActive else { return }
        isActive = true
        if !owner.isInstalled(identifier) { owner.installBoard(self) }
        registerCompletionFlow()
        owner.activate(gate)
    }

    /// Registers the gate's completion flow on the owner unless this version thinks it is there.
    func registerCompletionFlow() {
        let present: Bool
        switch registration {
        case .latched: present = isRegistered
        case .live: present = owner.flowNames.contains(completionFlowName)
        }
        sim.emit(
            "barrier.registerFlow", identifier,
            ["registered": .bool(!present), "live": .bool(owner.flowNames.contains(completionFlowName))])
        guard !present else { return }
        isRegistered = true
        owner.registerCompletionFlow(completionFlowName, from: gate) { [weak self] isDone in
            self?.gateCompleted(isDone)
        }
    }

    private func gateCompleted(_ isDone: Bool) {
        guard isActive else { return }
        let released = pending
        pending.removeAll()
        isActive = false
        sim.emit("barrier.open", identifier, ["done": .bool(isDone), "pending": .int(released.count)])
        if registration == .live { owner.removeFlow(completionFlowName) }
        complete(true, in: sim)
        guard isDone else { return }
        for task in released {
            self.released += 1
            owner.activate(task.target, task.option)
        }
    }
}
