/// Helpers for tests that check a rule over the whole space of cases it decides, against a small
/// reference implementation written from the rule's documentation (not from its code).
public enum RuleTable {
    /// Every combination of one value from each of `a` and `b`, in order.
    public static func product<A, B>(_ a: [A], _ b: [B]) -> [(A, B)] {
        a.flatMap { x in b.map { (x, $0) } }
    }

    /// Every combination of one value from each of `a`, `b` and `c`, in order.
    public static func product<A, B, C>(_ a: [A], _ b: [B], _ c: [C]) -> [(A, B, C)] {
        product(a, b).flatMap { pair in c.map { (pair.0, pair.1, $0) } }
    }

    /// Every combination of one value from each of `a`, `b`, `c` and `d`, in order.
    public static func product<A, B, C, D>(_ a: [A], _ b: [B], _ c: [C], _ d: [D]) -> [(A, B, C, D)] {
        product(a, b, c).flatMap { triple in d.map { (triple.0, triple.1, triple.2, $0) } }
    }

    /// Runs `decide` and `reference` on every case and returns the cases where they disagree, each
    /// described by `describe` (at most `limit`, so a wrong rule does not flood the log).
    public static func disagreements<Case, Answer: Equatable>(
        _ cases: [Case], limit: Int = 8, describe: (Case) -> String, decide: (Case) -> Answer,
        reference: (Case) -> Answer
    ) -> [String] {
        var found: [String] = []
        for item in cases {
            let actual = decide(item)
            let expected = reference(item)
            if actual != expected {
                found.append("\(describe(item)): got \(actual), the rule says \(expected)")
                if found.count == limit { break }
            }
        }
        return found
    }

    /// Every subset of `0..<count` (as sorted index arrays), for rules over sets of decisions.
    public static func subsets(of count: Int) -> [[Int]] {
        (0..<(1 << count)).map { mask in (0..<count).filter { mask & (1 << $0) != 0 } }
    }
}
