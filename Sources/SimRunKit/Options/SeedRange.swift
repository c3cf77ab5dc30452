import ArgumentParser

/// `--seeds A..<B` (or `N`, meaning `0..<N`): the seeds a campaign runs.
struct SeedRange: Sendable, Equatable {
    /// The seeds, never empty.
    var range: Range<UInt64>

    init(_ range: Range<UInt64>) { self.range = range }

    /// Parses `A..<B` with A < B, or `N` ≥ 1 for `0..<N`; nil when it is not one of them.
    init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    /// Parses the option's text, saying why it is refused (`10..<5`: the range is empty).
    @Sendable static func parse(_ text: String) throws -> SeedRange {
        let form = "expected N (for 0..<N) or A..<B with A < B, whole numbers from 0 to \(UInt64.max)"
        if let count = UInt64(text) {
            guard count >= 1 else { throw NumberArgument.Refused(description: "no seeds in 0..<0; \(form)") }
            return SeedRange(0..<count)
        }
        if !text.isEmpty && text.allSatisfy(\.isNumber) {
            throw NumberArgument.Refused(description: "\(text) is above \(UInt64.max); \(form)")
        }
        if text.hasPrefix("-") { throw NumberArgument.Refused(description: "seeds are not negative; \(form)") }
        let parts = text.split(separator: "..<", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw NumberArgument.Refused(description: text.contains("...") ? "use A..<B, not A...B; \(form)" : form)
        }
        guard let low = UInt64(parts[0]), let high = UInt64(parts[1]) else {
            let tooLarge = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
            throw NumberArgument.Refused(description: tooLarge ? "a bound is above \(UInt64.max); \(form)" : form)
        }
        guard low < high else {
            throw NumberArgument.Refused(description: "\(low)..<\(high) holds no seed (A must be below B); \(form)")
        }
        return SeedRange(low..<high)
    }

    var description: String { "\(range.lowerBound)..<\(range.upperBound)" }
}
