import ArgumentParser

/// `--seeds A..<B` (or `N`, meaning `0..<N`): the seeds a campaign runs.
struct SeedRange: ExpressibleByArgument, Sendable, Equatable {
    /// The seeds, never empty.
    var range: Range<UInt64>

    init(_ range: Range<UInt64>) { self.range = range }

    /// Parses `A..<B` with A < B, or `N` ≥ 1 for `0..<N`.
    init?(argument: String) {
        if let count = UInt64(argument) {
            guard count >= 1 else { return nil }
            range = 0..<count
            return
        }
        let parts = argument.split(separator: "..<", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low < high else { return nil }
        range = low..<high
    }

    var description: String { "\(range.lowerBound)..<\(range.upperBound)" }
    var defaultValueDescription: String { description }
}
