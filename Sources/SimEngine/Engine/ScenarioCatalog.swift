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
        let hint = suggestion(for: name).map { "; did you mean '\($0)'?" } ?? ""
        throw .usage("unknown scenario '\(name)'\(hint) (known: \(names); more with `simrun list --group NAME`)")
    }

    /// What the user probably meant by an unknown scenario name: `name/variant` as a trace header
    /// spells it, the name in other case or with typographic dashes, or a name a couple of letters off.
    func suggestion(for name: String) -> String? {
        let typed = Self.normalized(name)
        if let slash = typed.firstIndex(of: "/") {
            let (scenario, variant) = (String(typed[..<slash]), String(typed[typed.index(after: slash)...]))
            if let found = scenarios.first(where: { $0.name == scenario }), found.hasVariant(variant) {
                return "\(found.name) --variant \(variant)"
            }
        }
        if let found = scenarios.first(where: { $0.name == typed }) { return found.name }
        let nearest = scenarios.map { ($0.name, Self.editDistance(typed, $0.name)) }.min { $0.1 < $1.1 }
        guard let (found, distance) = nearest, distance <= max(2, typed.count / 8) else { return nil }
        return found
    }

    /// Lower case, with the Unicode dashes a word processor or a web page puts in (‐ ‑ ‒ – — −) as `-`.
    private static func normalized(_ name: String) -> String {
        let dashes: Set<Character> = ["\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2212}"]
        return String(name.lowercased().map { dashes.contains($0) ? "-" : $0 })
    }

    /// Levenshtein distance, for "did you mean" suggestions (scenarios here, commands in SimRunKit).
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a), Array(b))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
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
