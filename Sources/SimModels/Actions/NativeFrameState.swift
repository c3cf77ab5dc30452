import SimCore

/// The variables and blocks of one frame, and who observes them.
///
/// Variable writes go through `setVariable` (what `onVariableChange` calls): each write is an
/// event and notifies the observers of that key in registration order.
public final class NativeFrameState {
    unowned let sim: Simulation
    /// The frame's variables now, by key.
    public private(set) var variables: [String: NativeVariableModel] = [:]
    /// The frame's blocks now, by key.
    public private(set) var blocks: [String: NativeBlockModel] = [:]
    private var observers: [(key: String, notify: (NativeVariableModel) -> Void)] = []
    /// Writes so far, in order.
    public private(set) var writes: [NativeVariableModel] = []

    /// An empty frame.
    public init(sim: Simulation) { self.sim = sim }

    /// Declares a variable with its initial value (not an observed write).
    public func declare(_ variable: NativeVariableModel) { variables[variable.key] = variable }

    /// Declares a block.
    public func declare(_ block: NativeBlockModel) { blocks[block.key] = block }

    /// The current value of a variable.
    public func value(_ key: String) -> String? { variables[key]?.value }

    /// Calls `notify` after every write of `key`.
    public func observe(_ key: String, _ notify: @escaping (NativeVariableModel) -> Void) {
        observers.append((key, notify))
    }

    /// Writes a variable and notifies its observers.
    public func setVariable(_ variable: NativeVariableModel) {
        let old = variables[variable.key]?.value ?? ""
        variables[variable.key] = variable
        writes.append(variable)
        sim.emit("variable.set", variable.key, ["value": .text(variable.value), "old": .text(old)])
        for observer in observers where observer.key == variable.key { observer.notify(variable) }
    }

    /// Replaces a block.
    public func changeBlock(_ block: NativeBlockModel) {
        blocks[block.key] = block
        sim.emit("block.change", block.key, ["keyType": .text(block.keyType)])
    }
}
