import SimCore

/// A check of an object's calls under concurrency, with no hand-written oracle: declare the object
/// (an actor, or a `@MainActor` or otherwise `Sendable` type), its operations and their arguments;
/// every run generates a small scenario of concurrent calls from its decisions, runs it under the
/// scheduler, and checks the results against the same type run one call at a time (Lincheck's idea:
/// the object is its own sequential specification).
///
/// ```swift
/// let check = ObjectCheck<Counter>(
///     name: "counter", summary: "increments are not lost",
///     variants: [.init("buggy", "…", property: .linearizable) { _ in Counter() }],
///     operations: [
///         .init("increment") { await $0.increment() },
///         .init("add", arguments: [1, 2]) { await $0.add($1) },
///     ])
/// let scenario = check.scenario()  // fuzz, shrink, replay, show it like any other
/// ```
///
/// Results are compared with their type's `Equatable`; a thrown error is a result (see `CallResult`).
/// Operations must return on their own: one that suspends until another call releases it (a blocking
/// `acquire`) cannot be run one call at a time, and shows up as pending work, not as a verdict.
public struct ObjectCheck<Object: Sendable>: Sendable {
    /// One operation of the object: a name, its arguments (simplest first), and how to call it.
    public struct Operation: Sendable {
        /// The name tables and traces print (`increment`).
        public var name: String
        /// Each argument as printed, simplest first; empty when the operation takes none.
        public var arguments: [String]
        let call: @Sendable (Object, Int) async -> CallResult

        /// An operation without arguments.
        public init<R: Equatable & Sendable>(_ name: String, _ body: @escaping @Sendable (Object) async throws -> R) {
            self.name = name
            arguments = []
            call = { object, _ in
                do { return .value(try await body(object)) } catch { return .threw(error) }
            }
        }

        /// An operation without arguments or result (its thrown errors are still results).
        public init(_ name: String, _ body: @escaping @Sendable (Object) async throws -> Void) {
            self.name = name
            arguments = []
            call = { object, _ in
                do {
                    try await body(object)
                    return .value(Returned())
                } catch { return .threw(error) }
            }
        }

        /// An operation taking one of `arguments` (simplest first: shrinking prefers the first ones).
        public init<A: Sendable, R: Equatable & Sendable>(
            _ name: String, arguments: [A], _ body: @escaping @Sendable (Object, A) async throws -> R
        ) {
            precondition(!arguments.isEmpty, "an operation with arguments needs at least one")
            self.name = name
            self.arguments = arguments.map { String(describing: $0) }
            call = { object, index in
                do { return .value(try await body(object, arguments[index])) } catch { return .threw(error) }
            }
        }

        /// An operation taking one of `arguments` and returning nothing (its thrown errors are results).
        public init<A: Sendable>(
            _ name: String, arguments: [A], _ body: @escaping @Sendable (Object, A) async throws -> Void
        ) {
            self.init(name, arguments: arguments) { (object: Object, argument: A) async throws -> Returned in
                try await body(object, argument)
                return Returned()
            }
        }

        /// How a call of this operation prints: `add(2)`, `increment()`.
        public func text(argument: Int) -> String {
            arguments.isEmpty ? "\(name)()" : "\(name)(\(arguments[argument]))"
        }
    }

    /// What a variant's runs must satisfy.
    public enum Property: String, Sendable {
        /// Some order of the calls that respects real time gives every call its result.
        case linearizable
        /// Every call gives the result it would give run without interruption in invocation order:
        /// no interleaving at an `await` inside a call changes its result (stronger).
        case atomic
    }

    /// One version of the object's code, and the property its runs are checked for.
    public struct Variant: Sendable {
        /// The name and summary `simrun list` shows.
        public var variant: Scenario.Variant
        /// The property checked.
        public var property: Property
        /// A fresh object: one for the concurrent run, one for each sequential run of the model.
        public var make: @Sendable (Simulation) async -> Object

        /// A variant `name` whose objects `make` builds, checked for `property`.
        public init(
            _ name: String, _ summary: String, property: Property = .linearizable,
            make: @escaping @Sendable (Simulation) async -> Object
        ) {
            variant = Scenario.Variant(name, summary)
            self.property = property
            self.make = make
        }
    }

    /// The scenario's name (`actor-counter-check`).
    public var name: String
    /// One line for `simrun list`.
    public var summary: String
    /// The versions of the object; the first is the default.
    public var variants: [Variant]
    /// The operations scenarios are made of.
    public var operations: [Operation]
    /// How big generated scenarios are.
    public var shape: ScenarioShape
    /// Step and time limits of one run (the concurrent calls and the sequential runs that check them).
    public var limits: RunLimits
    /// What the object needs from the concurrency runtime (`.eitherRoute` for actors without sleeps).
    public var concurrency: Scenario.Concurrency
    /// The most sequential runs of the model one check may make before it says `undecided`.
    public var maxModelRuns: Int
    /// The sequential specification: makes the objects the calls are run on one at a time. Nil (the
    /// default): each variant's own objects, so the object is its own specification (Lincheck's
    /// default); give a reference implementation (of the same type, or of the protocol `Object` is)
    /// to catch code that is wrong even one call at a time.
    public var specification: (@Sendable (Simulation) async -> Object)?

    /// A check of `operations` on the objects of `variants`, against `specification`'s objects run one
    /// call at a time (nil: the variants' own).
    public init(
        name: String, summary: String, variants: [Variant], operations: [Operation], shape: ScenarioShape = .standard,
        limits: RunLimits = RunLimits(maxSteps: 20_000), concurrency: Scenario.Concurrency = .eitherRoute,
        maxModelRuns: Int = 2_000, specification: (@Sendable (Simulation) async -> Object)? = nil
    ) {
        precondition(!variants.isEmpty && !operations.isEmpty, "a check needs a variant and an operation")
        self.name = name
        self.summary = summary
        self.variants = variants
        self.operations = operations
        self.shape = shape
        self.limits = limits
        self.concurrency = concurrency
        self.maxModelRuns = maxModelRuns
        self.specification = specification
    }

    /// The check as a scenario: each run generates its calls from its decisions (so a seed names a
    /// scenario and a schedule, and a trace holds both), runs them, and fails with the oracle
    /// `linearizable` or `atomic-calls` and a table of the calls when the results are wrong.
    public func scenario() -> Scenario {
        let check = self
        var scenario = Scenario.async(
            name: name, summary: summary, variants: variants.map(\.variant), limits: limits, concurrency: concurrency
        ) { simulation, name in
            guard let variant = check.variants.first(where: { $0.variant.name == name }) else { return }
            await check.run(simulation, variant: variant)
        }
        scenario.callSpace = callSpace
        return scenario
    }

    /// This check with every variant checked for `property`.
    public func checking(_ property: Property) -> ObjectCheck {
        var copy = self
        for index in copy.variants.indices { copy.variants[index].property = property }
        return copy
    }

    /// The call scenarios this check generates.
    public var callSpace: CallSpace { CallSpace(shape: shape, argumentCounts: operations.map(\.arguments.count)) }

    /// The scenario a run with these decisions generates (for tests and reports: the scenario inside a
    /// trace, from its tape).
    public func callScenario(from tape: Tape) -> CallScenario { callSpace.scenario(from: tape) }
}
