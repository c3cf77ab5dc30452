/// Which variant holds the fix for a trace recorded on some variant: the fix hint fuzz, merge and
/// `explore` print under a failure. A trace of `buggy-noisy` is checked on `fixed-noisy` (the same
/// code apart from the fix), not on `fixed`, whose other differences make the replay inconclusive.
public enum FixHint: Sendable, Equatable {
    /// The fixed variant that matches the trace's variant (`buggy` → `fixed`, `buggy-noisy` →
    /// `fixed-noisy`).
    case variant(String)
    /// The trace's variant is a `buggy…` variant with no matching `fixed…` variant; `nearest` is the
    /// scenario's plain `fixed`, if it has one (it differs from the trace's code in more than the fix).
    case noMatch(nearest: String?)
}

extension Scenario {
    /// The fix hint for a trace of `variant`, or nil when there is nothing to hint (the trace is of a
    /// fixed variant already, or the scenario has no fixed variant at all).
    public func fixHint(for variant: String) -> FixHint? {
        if variant.hasPrefix("fixed") { return nil }
        let plain = hasVariant("fixed") ? "fixed" : nil
        guard variant.hasPrefix("buggy") else { return plain.map { .variant($0) } }
        let matching = "fixed" + variant.dropFirst("buggy".count)
        if hasVariant(matching) { return .variant(matching) }
        if plain == nil && !variants.contains(where: { $0.name.hasPrefix("fixed") }) { return nil }
        return .noMatch(nearest: plain)
    }

    /// The line printed under a failure's `replay:` line for a trace of `variant` replayed with
    /// `replayCommand`, or nil when there is nothing to hint.
    public func fixHintLine(for variant: String, replayCommand: String) -> String? {
        switch fixHint(for: variant) {
        case nil: return nil
        case .variant(let fixed): return "  fixed:  \(replayCommand) --variant \(fixed)"
        case .noMatch(let nearest?):
            return
                "  fixed:  no fixed variant matches \(variant) (no fixed\(variant.dropFirst("buggy".count))); "
                + "\(nearest) differs in more than the fix: \(replayCommand) --variant \(nearest)"
        case .noMatch(nil):
            return "  fixed:  no fixed variant matches \(variant) (no fixed\(variant.dropFirst("buggy".count)))"
        }
    }
}
