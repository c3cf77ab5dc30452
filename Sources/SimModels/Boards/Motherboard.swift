import SimCore

/// Owns installed boards and the flows between them (Boardy's `Motherboard`).
///
/// Facts from congncif/Boardy `Boardy/Core/Board/Motherboard.swift`, `Core/BoardType/Flow.swift` and
/// `Core/BoardType/MotherboardType.swift`: the default flows (activation, then completion → remove)
/// are registered first, so a completing board is removed before user flows see its completion;
/// a message is matched against a snapshot of the flows in registration order; removing a board
/// that is not installed is a no-op; since 1.63 removal also detaches the board, so output from a
/// removed board reaches no flow (`detachesRemovedBoards`; false models the older releases).
public final class Motherboard {
    /// One registered flow: which messages it takes and what it does.
    struct BoardFlow {
        enum Kind { case output, completion, activation }
        let name: String
        let kind: Kind
        let source: String?
        let isDefault: Bool
        let handler: (_ source: String, _ message: BoardMessage) -> Void

        func matches(_ message: BoardMessage, from board: String) -> Bool {
            if let source, source != board { return false }
            switch (kind, message) {
            case (.output, .output), (.completion, .complete), (.activation, .activate): return true
            default: return false
            }
        }
    }

    /// The motherboard's name.
    public let identifier: String
    unowned let sim: Simulation
    /// False models Boardy before 1.63: a removed board keeps its delegate and can still drive flows.
    public let detachesRemovedBoards: Bool
    /// True models a DEBUG build of Boardy: a board or flow change made off the `main` lane fails the
    /// run (oracle `boardy.main-thread`), as `boardyAssertMainThread()` asserts in
    /// congncif/boardy `Boardy/Core/Utils/Locked.swift` (called by `registerFlow`, `removeFlow`,
    /// `addBoard`, `removeBoard`). Release builds do not check.
    public let checksMainThread: Bool
    /// True models Boardy since commit 7ccc9991: `resetFlows()` re-registers the completion flow of
    /// every installed `ActivationBarrierBoard` (`restoreBarrierCompletionFlows` in
    /// congncif/boardy `Boardy/Core/BoardType/MotherboardType.swift`).
    public let restoresBarrierFlows: Bool
    /// Installed boards, in installation order.
    public private(set) var boards: [any ActivatableBoard] = []
    private var producers: [(identifier: String, make: () -> any ActivatableBoard)] = []
    private var flows: [BoardFlow] = []

    /// A motherboard with its default flows registered.
    public init(
        _ identifier: String = "mainboard", sim: Simulation, detachesRemovedBoards: Bool = true,
        checksMainThread: Bool = false, restoresBarrierFlows: Bool = true
    ) {
        self.identifier = identifier
        self.sim = sim
        self.detachesRemovedBoards = detachesRemovedBoards
        self.checksMainThread = checksMainThread
        self.restoresBarrierFlows = restoresBarrierFlows
        registerDefaultFlows()
    }

    private func registerDefaultFlows() {
        flows.append(
            BoardFlow(name: "default.activation", kind: .activation, source: nil, isDefault: true) {
                [unowned self] _, message in
                if case .activate(let target, let option) = message { activate(target, option) }
            })
        flows.append(
            BoardFlow(name: "default.completion", kind: .completion, source: nil, isDefault: true) {
                [unowned self] source, _ in removeBoard(source)
            })
    }

    // MARK: Boards

    /// Installs a board now.
    public func installBoard(_ board: any ActivatableBoard) {
        assertMainThread("installBoard")
        precondition(self.board(board.identifier) == nil, "board \(board.identifier) is already installed")
        boards.append(board)
        board.delegate = self
        sim.emit("board.install", board.identifier, ["motherboard": .text(identifier)])
    }

    /// Registers how to build a board the first time (or the next time, after removal) it is activated.
    public func registerProducer(_ identifier: String, _ make: @escaping () -> any ActivatableBoard) {
        producers.append((identifier, make))
    }

    /// The installed board with this identifier.
    public func board(_ identifier: String) -> (any ActivatableBoard)? {
        boards.first { $0.identifier == identifier }
    }

    /// Whether a board with this identifier is installed.
    public func isInstalled(_ identifier: String) -> Bool { board(identifier) != nil }

    /// Activates a board, producing and installing it first if needed.
    public func activate(_ identifier: String, _ option: BoardOption = .value(.none)) {
        var target = board(identifier)
        if target == nil, let producer = producers.first(where: { $0.identifier == identifier }) {
            let made = producer.make()
            installBoard(made)
            target = made
        }
        guard let target else {
            sim.emit("board.activate", identifier, ["input": .text(option.summary), "found": false])
            return
        }
        sim.emit("board.activate", identifier, ["input": .text(option.summary), "found": true])
        target.activate(withOption: option)
    }

    /// Removes a board; removing one that is not installed does nothing (a double completion).
    public func removeBoard(_ identifier: String) {
        assertMainThread("removeBoard")
        guard let index = boards.firstIndex(where: { $0.identifier == identifier }) else {
            sim.emit("board.remove", identifier, ["installed": false])
            return
        }
        let board = boards.remove(at: index)
        if detachesRemovedBoards { board.delegate = nil }
        sim.emit("board.remove", identifier, ["installed": true])
    }

    /// Boardy's DEBUG check: motherboard storage is unsynchronized, so it may only change on `main`
    /// (set-up code, before the run, counts as main).
    private func assertMainThread(_ function: String) {
        guard checksMainThread, let lane = sim.currentLane, lane != sim.lane("main") else { return }
        sim.emit("boardy.offMain", identifier, ["function": .text(function)])
        sim.fail("boardy.main-thread", "\(identifier).\(function) was called off the main thread")
    }

    // MARK: Flows

    /// Registers a flow for the outputs of `source` (or of every board when nil).
    public func registerFlow(_ name: String, from source: String?, _ handler: @escaping (BoardValue) -> Void) {
        assertMainThread("registerFlow")
        flows.append(
            BoardFlow(name: name, kind: .output, source: source, isDefault: false) { _, message in
                if case .output(let value) = message { handler(value) }
            })
    }

    /// Registers a flow for the completion of `source`; it runs after the default flow removed it.
    public func registerCompletionFlow(_ name: String, from source: String, _ handler: @escaping (Bool) -> Void) {
        flows.append(
            BoardFlow(name: name, kind: .completion, source: source, isDefault: false) { _, message in
                if case .complete(let isDone) = message { handler(isDone) }
            })
    }

    /// Removes the user flows with this name.
    public func removeFlow(_ name: String) {
        assertMainThread("removeFlow")
        flows.removeAll { $0.name == name && !$0.isDefault }
    }

    /// Boardy's `resetFlows()`: drops every flow, registers the default flows again and, since
    /// commit 7ccc9991 (`restoresBarrierFlows`), the completion flows of installed barriers.
    public func resetFlows() {
        assertMainThread("resetFlows")
        let dropped = flows.count { !$0.isDefault }
        flows.removeAll()
        registerDefaultFlows()
        sim.emit("flows.reset", identifier, ["dropped": .int(dropped)])
        guard restoresBarrierFlows else { return }
        for board in boards {
            (board as? ActivationBarrierBoard)?.registerCompletionFlow()
        }
    }

    /// The names of the registered flows, in matching order (default flows first).
    public var flowNames: [String] { flows.map(\.name) }

    // MARK: Messages

    /// A message from a board whose delegate is this motherboard.
    func receive(_ message: BoardMessage, from board: any ActivatableBoard) {
        let source = board.identifier
        let installed = boards.contains { $0 === board }
        switch message {
        case .output(let value):
            sim.emit("board.output", source, ["value": .text(value.description), "installed": .bool(installed)])
        case .complete(let isDone):
            sim.emit("board.complete", source, ["done": .bool(isDone), "installed": .bool(installed)])
        case .activate(let target, _):
            sim.emit("board.next", source, ["target": .text(target)])
        }
        // A snapshot: flows registered by a handler do not see the message being dispatched.
        let snapshot = flows
        for flow in snapshot where flow.matches(message, from: source) {
            sim.emit("flow.match", flow.name, ["source": .text(source), "default": .bool(flow.isDefault)])
            flow.handler(source, message)
        }
    }
}
