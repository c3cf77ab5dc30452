import Testing

@testable import SimCore

/// `Digest.hash(text:)` is every symbol's contribution to a run's digest, and digests are stored in
/// traces: it must stay FNV-1a over the UTF-8 bytes, whatever the string's storage.
@Suite struct DigestTextHashTests {
    /// FNV-1a byte by byte, as written down, for comparison.
    private static func reference(_ bytes: [UInt8]) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return value
    }

    @Test func isFNV1aOverTheUTF8BytesOfEveryKindOfString() {
        let long = String(repeating: "task.1@3.2/actor#", count: 9)
        let texts: [String] = [
            "", "a", "sched.pick", "task.1/actor#12", long, "Zähler → ✓", String(long.dropFirst(5)),
            "\(long.prefix(10))x", String(decoding: [0x61, 0xC3, 0xA9], as: UTF8.self),
        ]
        for text in texts {
            #expect(Digest.hash(text: text) == Self.reference(Array(text.utf8)), "\(text)")
        }
        #expect(Digest.hash(text: "") == Digest().value)
        // A value pinned from before: traces on disk hold digests mixed from these.
        #expect(Digest.hash(text: "sched.pick") == Self.reference(Array("sched.pick".utf8)))
        #expect(Digest.hash(text: "a") == 0xAF63_DC4C_8601_EC8C)
    }
}
