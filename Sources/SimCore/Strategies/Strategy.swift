/// Makes every choice of a run: which ready job runs next, and every data choice.
///
/// A strategy object may live across many runs (so `pct` can learn the step count and `dfs` can
/// walk its tree); `start` begins each run.
public protocol Strategy: AnyObject {
    /// The name and parameters, as written on the command line (`pct:depth=3`).
    var description: String { get }
    /// Begins a run with this seed.
    func start(seed: UInt64, symbols: SymbolTable)
    /// Picks the index of the candidate to run (`ready.count` is at least 2).
    func pick(_ ready: ReadySet) -> Int
    /// Picks a value in `0..<count` (at least 2) for a data choice at `site`.
    func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int
    /// Ends a run that took `steps` steps.
    func finish(steps: Int)
    /// Where the strategy could not do what it was asked (a replay that diverged).
    var notes: [String] { get }
}

extension Strategy {
    /// Does nothing: most strategies keep no state between runs.
    public func finish(steps: Int) {}
    /// None: only strategies that follow a tape can fail to do what they are asked.
    public var notes: [String] { [] }
}

/// The per-run fault-injection rule shared by the randomized strategies (swarm testing): a run
/// turns buggify on with probability one half, each site is then enabled or not for the whole run,
/// and an enabled site fires a quarter of the time.
struct BuggifyPolicy {
    private var active = false
    private var sites: [Symbol: Bool] = [:]

    mutating func start(_ random: inout SplitMix64) {
        active = random.chance(0.5)
        sites.removeAll(keepingCapacity: true)
    }

    mutating func fires(_ site: Symbol, _ random: inout SplitMix64) -> Bool {
        guard active else { return false }
        let enabled: Bool
        if let known = sites[site] {
            enabled = known
        } else {
            enabled = random.chance(0.5)
            sites[site] = enabled
        }
        return enabled && random.chance(0.25)
    }
}
