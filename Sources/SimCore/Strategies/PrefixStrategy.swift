/// Follows the first `keep` decisions of a recorded tape, then hands every later choice to another
/// strategy: the neighbourhood of a known schedule.
///
/// The prefix is followed by job identity, exactly as `ReplayStrategy` does (it is one, run for the
/// first `keep` decisions), so a prefix still steers a run whose code added unrelated jobs. With
/// `keep` equal to the tape's length the run is the recorded one; with `keep` 0 it is the delegate's.
///
/// ```swift
/// let strategy = PrefixStrategy(prefix: trace.tape, keep: 12, then: RandomStrategy())
/// let result = scenario.run(variant: "buggy", seed: 7, strategy: strategy)
/// ```
public final class PrefixStrategy: Strategy {
    /// The recorded schedule whose head is kept.
    public let prefix: Tape
    /// Decisions taken from the tape before the delegate takes over (at most the tape's length).
    public let keep: Int
    /// The strategy that makes every choice after the prefix.
    public let delegate: any Strategy
    private let replay: ReplayStrategy
    private var position = 0

    /// A strategy that keeps `keep` decisions of `prefix` (clamped to its length), then asks `then`.
    public init(prefix: Tape, keep: Int, then delegate: any Strategy) {
        self.prefix = prefix
        self.keep = min(max(0, keep), prefix.count)
        self.delegate = delegate
        replay = ReplayStrategy(
            tape: Tape(decisions: Array(prefix.decisions.prefix(self.keep)), symbols: prefix.symbols))
    }

    /// `prefix:keep=N+` and the delegate's name.
    public var description: String { "prefix:keep=\(keep)+\(delegate.description)" }

    /// Starts the prefix over and the delegate with `seed`.
    public func start(seed: UInt64, symbols: SymbolTable) {
        position = 0
        replay.start(seed: seed, symbols: symbols)
        // The delegate starts with the run, not at the hand-over, so its random stream (and `pct`'s
        // step count) depend only on the seed: `keep 0` is exactly the delegate's own run.
        delegate.start(seed: seed, symbols: symbols)
    }

    /// The prefix's job while it lasts, then the delegate's pick.
    public func pick(_ ready: ReadySet) -> Int {
        defer { position += 1 }
        return position < keep ? replay.pick(ready) : delegate.pick(ready)
    }

    /// The prefix's value while it lasts, then the delegate's.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int {
        defer { position += 1 }
        return position < keep
            ? replay.choose(count, kind: kind, site: site) : delegate.choose(count, kind: kind, site: site)
    }

    /// Ends the delegate's run.
    public func finish(steps: Int) { delegate.finish(steps: steps) }

    /// Where the prefix could not be followed (the delegate's own notes after it).
    public var notes: [String] { replay.notes + delegate.notes }

    /// True when the last run took every kept decision from the tape as recorded.
    public var followedPrefix: Bool { replay.notes.isEmpty && replay.consumed == keep }
}
