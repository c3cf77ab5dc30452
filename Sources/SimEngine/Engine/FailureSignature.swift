import SimCore

/// What makes two failures "the same bug": the verdict's kind and oracle, and its message with
/// numbers blanked (so "counter is 1" and "counter is 3" are one failure, "crashed" another).
public struct FailureSignature: Hashable, Sendable, CustomStringConvertible {
    /// The verdict's oracle (or limit) name.
    public var oracle: String
    /// The message with every number blanked.
    public var shape: String

    /// The signature of `verdict`.
    public init(_ verdict: Verdict) {
        oracle = verdict.oracle
        var shape = ""
        var inNumber = false
        for character in verdict.message {
            if character.isNumber {
                if !inNumber { shape.append("#") }
                inNumber = true
            } else {
                shape.append(character)
                inNumber = false
            }
        }
        self.shape = shape
    }

    /// Whether a run's verdict is this failure (the shrinker keeps to the same oracle).
    public func matches(_ verdict: Verdict) -> Bool {
        verdict.isFailure && verdict.oracle == oracle
    }

    /// `oracle: shape`, or the oracle alone.
    public var description: String { shape.isEmpty ? oracle : "\(oracle): \(shape)" }

    /// A 64-bit name for the signature (a hash of `description`): what a worker process writes on
    /// the shared board and what a `FindingsTable` is keyed by.
    public var id: UInt64 { Digest.hash(text: description) }
}
