/// Where a `ReplayStrategy` built with `init(source:)` gets its decisions: one at a time, in the
/// order they were recorded, so a schedule can be followed while it is still being read (a replay
/// that reads its trace once instead of loading the tape first).
public protocol DecisionSource: AnyObject {
    /// The next recorded decision; nil when the schedule has no more (its end, or a rest that cannot
    /// be read — the source keeps the reason).
    func nextDecision() -> Decision?
    /// The text of a symbol as the recording numbers it (defined before any decision that uses it).
    func text(_ symbol: Symbol) -> String
}
