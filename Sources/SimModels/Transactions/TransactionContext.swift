import SimCore

/// Pending transactions (callbacks) grouped by phase: registered by assets, committed by actions.
///
/// Player's `TransactionContext` keeps callbacks per namespace: `register` appends, `commit` runs
/// them and leaves them registered, `clear` drops them. Its documentation promises no particular
/// commit order, so the order here is a decision (`fifo` keeps registration order).
///
/// ```swift
/// let context = TransactionContext<PendingTransactionPhases>(simulation)
/// context.register(.input) { input.set() }
/// context.commit(.input)   // runs the callback, keeps it
/// context.clear(.input)    // removes it
/// ```
public final class TransactionContext<Phase: Hashable & CustomStringConvertible> {
    /// Work to run when its phase is committed.
    public typealias Callback = () -> Void

    private unowned let simulation: Simulation
    // Looked up by key only, never iterated: iteration order must not leak into a run.
    private var callbacks: [Phase: [Callback]] = [:]

    /// An empty context in `simulation`.
    public init(_ simulation: Simulation) { self.simulation = simulation }

    /// Appends `callback` to `phase`.
    public func register(_ phase: Phase, _ callback: @escaping Callback) {
        callbacks[phase, default: []].append(callback)
        simulation.emit("txn.register", phase.description, ["count": .int(callbackCount(phase))])
    }

    /// Runs the callbacks of `phase` in an order chosen by the strategy; they stay registered.
    public func commit(_ phase: Phase) {
        let registered = callbacks[phase] ?? []
        simulation.emit("txn.commit", phase.description, ["count": .int(registered.count)])
        guard !registered.isEmpty else { return }
        let order = simulation.permutation(Array(registered.indices), "txn.commit.\(phase.description)")
        for index in order { registered[index]() }
    }

    /// Commits each phase in turn, in the order given.
    public func commit(_ phases: [Phase]) {
        for phase in phases { commit(phase) }
    }

    /// Removes every callback of `phase`.
    public func clear(_ phase: Phase) {
        let removed = callbacks.removeValue(forKey: phase)?.count ?? 0
        simulation.emit("txn.clear", phase.description, ["count": .int(removed)])
    }

    /// Clears each phase in turn, in the order given.
    public func clear(_ phases: [Phase]) {
        for phase in phases { clear(phase) }
    }

    /// How many callbacks `phase` holds.
    public func callbackCount(_ phase: Phase) -> Int { callbacks[phase]?.count ?? 0 }
}
