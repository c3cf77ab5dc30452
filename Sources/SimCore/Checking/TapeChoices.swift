/// Scenario choices read back from a recorded tape, by site (what the run chose; 0 where it made none).
public struct TapeChoices: ScenarioChoices {
    private var chosen: [String: [Int]] = [:]
    private var used: [String: Int] = [:]

    /// The `choose` decisions of `tape`, by site.
    public init(_ tape: Tape) {
        for decision in tape.decisions where decision.kind == .choose {
            chosen[tape.text(decision.label), default: []].append(Int(decision.chosen))
        }
    }

    /// The value recorded at `site` (its next occurrence), or 0.
    public mutating func choose(_ count: Int, _ site: String) -> Int {
        let ordinal = used[site] ?? 0
        used[site] = ordinal + 1
        guard let values = chosen[site], ordinal < values.count, values[ordinal] < count else { return 0 }
        return values[ordinal]
    }
}
