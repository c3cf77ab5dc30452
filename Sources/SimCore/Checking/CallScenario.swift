/// The calls of one concurrent check: an optional sequential prefix, a few tasks running their calls
/// concurrently, and an optional sequential suffix. A call names an operation and an argument by
/// index, so a scenario is plain data: generated from choices, printed, compared.
public struct CallScenario: Hashable, Sendable {
    /// One call to make: operation `operation` with its argument number `argument` (0: the simplest).
    public struct Invocation: Hashable, Sendable {
        /// Index into the declared operations.
        public var operation: Int
        /// Index into that operation's arguments (0 when it takes none).
        public var argument: Int

        /// The call of operation `operation` with argument number `argument`.
        public init(_ operation: Int, _ argument: Int = 0) {
            self.operation = operation
            self.argument = argument
        }
    }

    /// Calls made one after another before the tasks start.
    public var prefix: [Invocation]
    /// Each task's calls, made in order; the tasks run concurrently.
    public var tasks: [[Invocation]]
    /// Calls made one after another after every task has finished.
    public var suffix: [Invocation]

    /// A scenario of these calls.
    public init(prefix: [Invocation] = [], tasks: [[Invocation]], suffix: [Invocation] = []) {
        self.prefix = prefix
        self.tasks = tasks
        self.suffix = suffix
    }

    /// Calls in all.
    public var callCount: Int { prefix.count + tasks.reduce(0) { $0 + $1.count } + suffix.count }
}

/// How big generated scenarios are: each range's lower bound is what shrinking aims for.
public struct ScenarioShape: Hashable, Sendable {
    /// Concurrent tasks (at least 1; 2 or more to have concurrency).
    public var tasks: ClosedRange<Int>
    /// Calls per task.
    public var callsPerTask: ClosedRange<Int>
    /// Calls in the sequential prefix.
    public var prefix: ClosedRange<Int>
    /// Calls in the sequential suffix.
    public var suffix: ClosedRange<Int>

    /// The default, after Lincheck's: 2–3 tasks × 1–3 calls, up to one call before and one after.
    public static let standard = ScenarioShape(tasks: 2...3, callsPerTask: 1...3, prefix: 0...1, suffix: 0...1)

    /// A shape with these ranges.
    public init(
        tasks: ClosedRange<Int>, callsPerTask: ClosedRange<Int>, prefix: ClosedRange<Int> = 0...0,
        suffix: ClosedRange<Int> = 0...0
    ) {
        precondition(tasks.lowerBound >= 1 && callsPerTask.lowerBound >= 1, "a scenario has at least one task and call")
        precondition(prefix.lowerBound >= 0 && suffix.lowerBound >= 0, "prefix and suffix sizes are not negative")
        self.tasks = tasks
        self.callsPerTask = callsPerTask
        self.prefix = prefix
        self.suffix = suffix
    }
}

/// Where a generated scenario's choices come from: a run's decisions (recorded, replayed, shrunk) or
/// a seeded generator.
public protocol ScenarioChoices {
    /// A choice among `count` options at the named site; 0 is always the simplest.
    mutating func choose(_ count: Int, _ site: String) -> Int
}

extension Simulation {
    /// The run's decisions as scenario choices: each one is a `choose` decision at its own site, so a
    /// trace holds the scenario, and the shrinker, sending a decision back to 0, simplifies it.
    public struct Choices: ScenarioChoices {
        let simulation: Simulation
        /// Choices made by `simulation`'s strategy.
        public init(_ simulation: Simulation) { self.simulation = simulation }
        /// A recorded `choose` decision at `site`.
        public mutating func choose(_ count: Int, _ site: String) -> Int { simulation.choose(count, site) }
    }
}

/// Choices from a seeded generator: the same seed, the same scenario.
public struct SeededChoices: ScenarioChoices {
    /// The generator.
    public var random: SplitMix64
    /// Choices from `seed`.
    public init(seed: UInt64) { random = SplitMix64(seed: seed) }
    /// A uniform choice.
    public mutating func choose(_ count: Int, _ site: String) -> Int { count <= 1 ? 0 : random.below(count) }
}

extension CallScenario {
    /// A scenario of `shape` over operations taking `argumentCounts[i]` arguments each, from `choices`.
    ///
    /// Every size, operation and argument is one choice at a site of its own (`check.tasks`,
    /// `check.t2.1.op`, …), 0 meaning the smallest size, the first operation, the simplest argument:
    /// sending any choice back to 0 makes the scenario smaller or simpler, and a choice keeps its
    /// identity when others change, so the shrinker can drop them one by one.
    public static func generate<C: ScenarioChoices>(
        shape: ScenarioShape, argumentCounts: [Int], choices: inout C
    ) -> CallScenario {
        precondition(!argumentCounts.isEmpty, "a check needs at least one operation")
        func size(_ range: ClosedRange<Int>, _ site: String) -> Int {
            range.lowerBound + choices.choose(range.count, site)
        }
        func calls(_ count: Int, _ site: String) -> [Invocation] {
            (0..<count).map { index in
                let operation = choices.choose(argumentCounts.count, "\(site).\(index + 1).op")
                let argument = choices.choose(max(1, argumentCounts[operation]), "\(site).\(index + 1).arg")
                return Invocation(operation, argument)
            }
        }
        let prefix = calls(size(shape.prefix, "check.prefix"), "check.p")
        let taskCount = size(shape.tasks, "check.tasks")
        let tasks = (1...taskCount).map { task in calls(size(shape.callsPerTask, "check.t\(task)"), "check.t\(task)") }
        let suffix = calls(size(shape.suffix, "check.suffix"), "check.s")
        return CallScenario(prefix: prefix, tasks: tasks, suffix: suffix)
    }
}
