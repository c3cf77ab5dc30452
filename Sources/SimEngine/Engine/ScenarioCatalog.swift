import SimCore

/// The scenarios a command tree can run, looked up by name.
public struct ScenarioCatalog: Sendable {
    /// The scenarios, in the order given.
    public let scenarios: [Scenario]

    /// A catalog of `scenarios`.
    public init(_ scenarios: [Scenario]) {
        self.scenarios = scenarios
    }

    /// The scenario called `name`; a usage failure naming the known ones when there is none.
    public func scenario(named name: String) throws(SimEngineError) -> Scenario {
        if let found = scenarios.first(where: { $0.name == name }) { return found }
        let names = scenarios.filter { $0.group == nil }.map(\.name).joined(separator: ", ")
        throw .usage("unknown scenario '\(name)' (known: \(names); more with `simrun list --group NAME`)")
    }

    /// The variant to run: the requested one, checked, or the scenario's first.
    public func variant(_ requested: String?, of scenario: Scenario) throws(SimEngineError) -> String {
        guard let requested else { return scenario.defaultVariant }
        guard scenario.hasVariant(requested) else {
            let names = scenario.variants.map(\.name).joined(separator: ", ")
            throw .usage("scenario '\(scenario.name)' has no variant '\(requested)' (variants: \(names))")
        }
        return requested
    }
}
