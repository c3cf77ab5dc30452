/// A 64-bit hash over the content of events: two runs with the same digest recorded the same
/// events. Symbols contribute their text's hash (FNV-1a), not their number.
///
/// Words are mixed one at a time (xor, multiply by an odd constant, xor-shift: each step a bijection
/// of the state), which costs a few instructions per word instead of FNV's eight rounds per word.
public struct Digest: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline var storedValue: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The hash so far.
    public var value: UInt64 { storedValue }

    /// The digest of no events (the FNV offset basis).
    public init() {}
    /// A digest read back from a trace footer.
    public init(value: UInt64) { storedValue = value }

    /// Mixes one 64-bit word into the hash.
    @inlinable
    public mutating func mix(_ word: UInt64) {
        var v = (storedValue ^ word) &* 0x9E37_79B9_7F4A_7C15
        v ^= v &>> 29
        storedValue = v
    }

    /// The FNV-1a hash of the text's UTF-8 bytes (a symbol's contribution to a digest).
    public static func hash(text: String) -> UInt64 {
        // Over the contiguous bytes when the string has them (native and small strings do): the
        // `utf8` view's iterator cost several times the loop itself (interning a name hashed it).
        if let hash = text.utf8.withContiguousStorageIfAvailable({ hash(bytes: $0) }) { return hash }
        var d = Digest()
        for byte in text.utf8 {
            d.storedValue ^= UInt64(byte)
            d.storedValue = d.storedValue &* 0x0000_0100_0000_01B3
        }
        return d.value
    }

    /// The FNV-1a hash of UTF-8 bytes: `hash(text:)` of the text they encode.
    @inline(__always)
    static func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value = Digest().storedValue
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return value
    }

    /// Mixes one event in; `symbolHash` gives each symbol's text hash.
    @inlinable
    public mutating func mix(_ event: Event, symbolHash: (Symbol) -> UInt64) {
        mix(event.seq)
        mix(UInt64(bitPattern: event.time))
        mix(symbolHash(event.lane))
        mix(symbolHash(event.kind))
        mix(symbolHash(event.subject))
        mix(event.cause)
        for field in event.fields {
            mix(symbolHash(field.key))
            switch field.value {
            case .int(let v):
                mix(1)
                mix(UInt64(bitPattern: v))
            case .symbol(let s):
                mix(2)
                mix(symbolHash(s))
            case .bool(let b):
                mix(3)
                mix(b ? 1 : 0)
            }
        }
    }

    /// The hash as 16 hex digits.
    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }
}
