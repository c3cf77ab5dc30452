import SimCore

/// The iOS `SwiftUIPlayer.Context` around a Player: it loads a player, mirrors the player's state
/// for SwiftUI, and unloads it (what `ManagedPlayer` does between flows).
///
/// Facts from player-ui/player `ios/swiftui/Sources/SwiftUIPlayer.swift`: `load` taps the
/// player's `hooks.state` and writes each new state through `Task { @MainActor in … }` — a `main`
/// job that runs later; `unload()` releases the player and sets `state = nil`. The state hook fires
/// when the flow starts (in progress) and when it ends (completed). Before commit b57d1fdc the
/// deferred write had no staleness check, so a state event fired just before `unload()` wrote the
/// old player's state after it, re-anchoring the old JSContext (`stateGuard: .none`); b57d1fdc
/// guards it as the other taps are guarded: the write happens only if the player that fired it is
/// still the loaded one (`.loadedPlayer`).
public final class SwiftUIPlayerContext {
    /// How the deferred state write checks that its player is still loaded.
    public enum StateGuard: String, Sendable {
        /// Before commit b57d1fdc: no check.
        case none
        /// Commit b57d1fdc: `guard self.player == playerValue`.
        case loadedPlayer
    }

    /// A player state as the context holds it: which loaded player it belongs to, and its name.
    public struct State: Sendable, Equatable {
        /// The number of the load that produced the player (1-based).
        public var player: Int
        /// `in-progress` or `completed`.
        public var name: String

        /// The state `name` of the player loaded `player`-th.
        public init(player: Int, name: String) {
            self.player = player
            self.name = name
        }
    }

    private unowned let simulation: Simulation
    private let main: LaneID
    private var loads = 0

    /// The staleness check of this version.
    public let stateGuard: StateGuard
    /// The loaded player, nil before `load` and after `unload`.
    public private(set) var player: PlayerSession?
    /// The number of the loaded player's load, nil when none is loaded.
    public private(set) var loadedNumber: Int?
    /// The state SwiftUI shows; nil after `unload`.
    public private(set) var state: State?
    /// State writes made for a player that was no longer loaded.
    public private(set) var staleWrites = 0

    /// A context whose deferred state writes check `stateGuard`.
    public init(_ simulation: Simulation, stateGuard: StateGuard) {
        self.simulation = simulation
        self.stateGuard = stateGuard
        main = simulation.lane("main")
    }

    /// Loads `session` (taps its state hook) and starts its flow.
    public func load(_ session: PlayerSession) {
        loads += 1
        let number = loads
        player = session
        loadedNumber = number
        simulation.emit("player.load", "", ["player": .int(number)])
        session.flow.onTransition { [weak self, weak session] from, to in
            guard let self else { return }
            // `hooks.state` fires when the flow starts and when it reaches an END state.
            guard from == nil || to.viewRef == nil else { return }
            let name = to.viewRef == nil ? "completed" : "in-progress"
            simulation.emit("player.state", name, ["player": .int(number)])
            // Task { @MainActor in self.state = newState }
            simulation.post(main, simulation.symbol("state.write")) { [weak self, weak session] in
                guard let self else { return }
                if stateGuard == .loadedPlayer {
                    guard let session, player === session else {
                        simulation.emit("state.skip", name, ["player": .int(number)])
                        return
                    }
                }
                let stale = loadedNumber != number
                if stale { staleWrites += 1 }
                state = State(player: number, name: name)
                simulation.emit("state.write", name, ["player": .int(number), "stale": .bool(stale)])
            }
        }
        session.start()
    }

    /// Releases the player and clears the state (`unload()`).
    public func unload() {
        simulation.emit("player.unload", "", ["player": .int(loadedNumber ?? 0)])
        player = nil
        loadedNumber = nil
        state = nil
    }
}
