/// A digest is encoded as its 64-bit value (a child process reports the digest of each run it
/// checks, and its parent compares it with its own).
extension Digest: Codable {
    /// Reads a digest written as its value.
    public init(from decoder: any Decoder) throws {
        self.init(value: try decoder.singleValueContainer().decode(UInt64.self))
    }

    /// Writes the digest's value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
