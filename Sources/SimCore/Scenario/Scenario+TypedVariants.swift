/// A scenario's variants as a type of its own: each case is one version of the code.
///
/// The command line and traces keep naming variants by string (the case's raw value); the set-up
/// closure gets the case, so a misspelt variant is a compile error in the scenario, not a run that
/// quietly takes the default branch.
///
/// ```swift
/// enum Checkout: String, ScenarioVariant {
///     case buggy, fixed
///     var summary: String { self == .buggy ? "Pay runs at once" : "Pay commits pending input first" }
/// }
/// let scenario = Scenario(name: "checkout", summary: "…", variants: Checkout.self) { sim, variant in
///     if variant == .fixed { … }
/// }
/// ```
public protocol ScenarioVariant: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// What this version of the code does differently (`simrun list` shows it).
    var summary: String { get }
}

extension Scenario {
    /// A scenario whose variants are the cases of `variants`, in declaration order (the first is the
    /// default), and whose `setUp` receives the case.
    ///
    /// Asked to run a name that is no case of `variants` (the command line refuses such names before
    /// running; a direct `run(variant:)` call may not), the run fails with the `known-variant` oracle
    /// instead of running some other variant's code.
    public init<V: ScenarioVariant>(
        name: String, summary: String, variants: V.Type, limits: RunLimits = .standard, group: String? = nil,
        setUp: @escaping @Sendable (_ simulation: Simulation, _ variant: V) -> Void
    ) {
        self.init(
            name: name, summary: summary, variants: V.allCases.map { Variant($0.rawValue, $0.summary) },
            limits: limits, group: group
        ) { simulation, variantName in
            guard let variant = V(rawValue: variantName) else {
                let known = V.allCases.map(\.rawValue).joined(separator: ", ")
                simulation.atEnd("known-variant") { "no variant '\(variantName)' in \(name) (known: \(known))" }
                return
            }
            setUp(simulation, variant)
        }
    }
}
