/// A strategy as named on the command line and in trace headers: `fifo`, `random`, `pct`,
/// `pct:depth=3`, `delay:bound=2`, `dfs:preemptions=2`, `portfolio`.
public struct StrategySpec: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The strategies there are, by their command-line names.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Jobs in the order they were posted: what a test store with a test clock gives.
        case fifo
        /// A uniformly random ready job at every step.
        case random
        /// Probabilistic concurrency testing: random lane priorities, `depth - 1` change points.
        case pct
        /// Delay-bounded: fifo, passing the fifo job over at up to `bound` chosen steps.
        case delay
        /// Exhaustive depth-first search, bounded by preemptions (bound 0 first, then up to the bound).
        case dfs
        /// Rotates random, pct, delay, pos, surw and rff by seed.
        case portfolio
        /// Follows a recorded schedule (a trace's decisions), fifo where it has none.
        case replay
        /// Partial order sampling: random priorities, re-drawn for the jobs that race with the one that ran.
        case pos
        /// The selective uniform walk: one profiled shared cell's accesses ordered uniformly.
        case surw
        /// Coverage-guided: keeps schedules that show new reads-from pairs and mutates their prefixes.
        case coverage
        /// SURW's non-selective variant (N-S in its artifact): every object-touching job weighted.
        case nsurw
        /// Reads-from fuzzing (RFF, ASPLOS 2024).
        case rff

        /// The strategy carries what it learned from one run into the next (`surw`'s profile,
        /// `nsurw`'s event counts, `coverage`'s and `rff`'s corpus), so a campaign runs it on one
        /// thread in seed order.
        public var learnsAcrossRuns: Bool {
            self == .surw || self == .coverage || self == .nsurw || self == .rff || self == .portfolio
        }

        /// The campaign this strategy needs (campaign code asks this, never the kind).
        public var campaignShape: CampaignShape {
            switch self {
            case .dfs: .exhaustive
            case .surw, .coverage, .nsurw, .rff, .portfolio: .inOrder
            case .fifo, .random, .pct, .delay, .replay, .pos: .independentSeeds
            }
        }

        /// The strategy follows a recorded trace's decisions, so a seed alone cannot drive it: `run`
        /// and `fuzz` refuse it (the CLI asks this, never the kind; `simrun replay` is its command).
        public var followsRecordedTrace: Bool {
            switch self {
            case .replay: true
            case .fifo, .random, .pct, .delay, .dfs, .portfolio, .pos, .surw, .coverage, .nsurw, .rff: false
            }
        }
    }

    /// The campaign a strategy needs (Shuttle's "does the scheduler hand out a new execution" in
    /// three answers).
    public enum CampaignShape: Sendable, Hashable {
        /// Each seed's schedule depends on the seed alone: seeds run in any order, on any thread or
        /// process, split into shards, and a finding is redone from its seed.
        case independentSeeds
        /// One strategy object learns from run to run: seeds run in order on one thread, never split,
        /// and a finding keeps its run's tape.
        case inOrder
        /// One strategy object walks a finite space (runs are numbered, not seeded) until it says the
        /// space is exhausted: one thread, never split, a finding keeps its tape.
        case exhaustive

        /// Seeds of this shape can run anywhere, each on its own.
        public var isIndependent: Bool { self == .independentSeeds }
    }

    /// The campaign this strategy needs.
    public var campaignShape: CampaignShape { kind.campaignShape }

    /// The strategy needs a recorded trace to follow (`Kind.followsRecordedTrace`).
    public var followsRecordedTrace: Bool { kind.followsRecordedTrace }

    /// The strategy object an exhaustive campaign walks its space with, or nil for other shapes
    /// (their runs each make their own).
    public func makeExhaustiveWalker() -> ExhaustiveStrategy? {
        campaignShape == .exhaustive ? DFSStrategy(preemptionBound: parameter ?? 2) : nil
    }

    /// Which strategy.
    public var kind: Kind
    /// Its parameter (depth, bound or preemptions), nil for the default.
    public var parameter: Int?

    /// The strategy `kind` with `parameter`, or its default.
    public init(kind: Kind, parameter: Int? = nil) {
        self.kind = kind
        self.parameter = parameter
    }

    /// Parses `name` or `name:key=value`; nil when it is not understood (`parse` says why).
    public init?(parsing text: String) {
        guard case .success(let spec) = Self.parse(text) else { return nil }
        self = spec
    }

    /// Why a strategy text was refused, in words that name the accepted form.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// One line: what is wrong and what is accepted.
        public var description: String
    }

    /// The one parameter each kind takes, its accepted range; nil for kinds that take none.
    public static func parameter(of kind: Kind) -> (key: String, range: ClosedRange<Int>)? {
        switch kind {
        case .pct: ("depth", 1...1_000)
        case .delay: ("bound", 0...1_000)
        case .dfs: ("preemptions", 0...1_000)
        case .fifo, .random, .portfolio, .replay, .pos, .surw, .coverage, .nsurw, .rff: nil
        }
    }

    /// Parses `name` or `name:key=value` strictly: an unknown name or key, a missing or malformed
    /// value, or a value out of range is an error (never silently clamped: `pct:depth=0` is refused,
    /// not run as depth 1).
    public static func parse(_ text: String) -> Result<StrategySpec, ParseError> {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let kind = Kind(rawValue: parts[0].lowercased()) else {
            return .failure(ParseError(description: "unknown strategy '\(parts[0])' (known: \(names))"))
        }
        guard parts.count == 2 else { return .success(StrategySpec(kind: kind)) }
        guard let (key, range) = parameter(of: kind) else {
            return .failure(ParseError(description: "\(kind.rawValue) takes no parameters (got '\(text)')"))
        }
        let pair = parts[1].split(separator: "=", omittingEmptySubsequences: false).map(String.init)
        guard pair.count == 2, pair[0] == key else {
            return .failure(
                ParseError(description: "\(kind.rawValue) takes only \(key)=N (got '\(parts[1])')"))
        }
        guard let value = Int(pair[1]), range.contains(value) else {
            return .failure(
                ParseError(
                    description:
                        "\(kind.rawValue):\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got '\(pair[1])')"
                ))
        }
        return .success(StrategySpec(kind: kind, parameter: value))
    }

    /// The name as written on the command line, parameter included.
    public var description: String { makeStrategy().description }

    /// A fresh strategy object (state lives across the runs it is used for).
    /// `estimatedSteps` is the run length `pct` and `delay` spread their change points over.
    public func makeStrategy(tape: Tape = Tape(), estimatedSteps: Int = 64) -> any Strategy {
        switch kind {
        case .fifo: FIFOStrategy()
        case .random: RandomStrategy()
        case .pct: PCTStrategy(depth: max(1, parameter ?? 3), estimatedSteps: estimatedSteps)
        case .delay: DelayBoundedStrategy(delays: parameter ?? 2, estimatedSteps: estimatedSteps)
        case .dfs: DFSStrategy(preemptionBound: parameter ?? 2)
        case .portfolio: PortfolioStrategy(estimatedSteps: estimatedSteps)
        case .replay: ReplayStrategy(tape: tape)
        case .pos: POSStrategy()
        case .surw: SURWStrategy()
        case .coverage: CoverageGuidedStrategy()
        case .nsurw: NSURWStrategy()
        case .rff: RFFStrategy()
        }
    }

    /// The strategy a campaign runs when none is named (`pct`: a few priority change points find the
    /// shallow ordering bugs of app code fastest), and the campaign the replay verdict's "the fix
    /// removes the race" rule checks a fix with. Named here so that no campaign code names a kind.
    package static let campaignDefault = StrategySpec(kind: .pct)

    /// The plain order (`fifo`, what a test store with a test clock gives): the run that plans a
    /// campaign, and the order a crash's shrink falls back to.
    package static let plainOrder = StrategySpec(kind: .fifo)

    /// A strategy whose runs are independent, uniform samples of the schedules (`random`): what
    /// `explain` measures failure rates with, where a biased strategy would skew them.
    package static let uniformSampling = StrategySpec(kind: .random)

    /// The accepted spellings, for help texts and error messages.
    public static let names =
        "fifo, random, pct[:depth=D], delay[:bound=B], dfs[:preemptions=P], portfolio, pos, surw, coverage, nsurw, rff"
}
