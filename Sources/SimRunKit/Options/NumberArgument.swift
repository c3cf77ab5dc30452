import ArgumentParser

/// Whole-number options with a stated range. Declared with `parsing: .unconditional` so that `-1` is
/// read as the option's value (and refused with its range) instead of as an unknown flag, which
/// ArgumentParser would report as a missing value.
enum NumberArgument {
    /// Why a number was refused: the accepted form, shown after ArgumentParser's
    /// `The value '-1' is invalid for '--jobs <n>'`.
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// A parser for whole numbers in `range`.
    static func int(_ range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = Int(text), range.contains(value) else {
                throw Refused(
                    description: range.upperBound == .max
                        ? "expected a whole number, \(range.lowerBound) or more"
                        : "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
    }

    /// A parser for seeds: whole numbers from 0 to 2^64-1.
    static let seed: @Sendable (String) throws -> UInt64 = { text in
        guard let value = UInt64(text) else {
            throw Refused(description: "expected a whole number from 0 to \(UInt64.max)")
        }
        return value
    }
}
