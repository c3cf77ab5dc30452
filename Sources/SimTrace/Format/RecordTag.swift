/// The first byte of every record in the decompressed stream.
///
/// Events are the bulk of a trace, so they get the whole range `0x00...0x7F`: the tag's bits say
/// which fields differ from the previous event, and only those follow. Decisions get `0x80...0xBF`
/// (kind and presence flags in the tag). The rare records share `0xC0...`.
///
/// Event tag bits:
/// - `0x01` time delta (zigzag varint) follows; absent means same time as the previous event
/// - `0x02` lane, `0x04` kind, `0x08` subject symbol id follows; absent means unchanged
/// - `0x10` cause follows as `seq - cause` (varint); absent means no cause (0)
/// - `0x60` field count 0, 1 or 2; 3 means a varint count (3 or 4) follows
///
/// Decision tag bits: `0x03` kind - 1; `0x04` lane, `0x08` label, `0x10` ordinal follow when
/// non-empty/non-zero; `0x20` fallback follows when it differs from `chosen`.
enum RecordTag {
    static let eventLimit: UInt8 = 0x80
    static let timeBit: UInt8 = 0x01
    static let laneBit: UInt8 = 0x02
    static let kindBit: UInt8 = 0x04
    static let subjectBit: UInt8 = 0x08
    static let causeBit: UInt8 = 0x10
    static let fieldShift: UInt8 = 5
    static let fieldMask: UInt8 = 0x60
    static let explicitFieldCount: UInt8 = 3

    static let decisionBase: UInt8 = 0x80
    static let decisionLimit: UInt8 = 0xC0
    static let decisionKindMask: UInt8 = 0x03
    static let decisionLaneBit: UInt8 = 0x04
    static let decisionLabelBit: UInt8 = 0x08
    static let decisionOrdinalBit: UInt8 = 0x10
    static let decisionFallbackBit: UInt8 = 0x20

    /// `id`, byte length, UTF-8 bytes.
    static let symbol: UInt8 = 0xC0
    /// Event count, decision count, running digest (8 bytes little-endian). Ends every frame.
    static let checkpoint: UInt8 = 0xC1
    /// Counts, steps, end time, verdict, digest. Ends the trace.
    static let footer: UInt8 = 0xC2
    /// The next event's seq is not previous + 1: zigzag delta from previous + 1 follows.
    static let seqJump: UInt8 = 0xC3
}

/// Field value type tags, stored in the low two bits of `key << 2 | type`.
enum FieldTag {
    /// Zigzag varint delta from the previous int value of the same key.
    static let int: UInt64 = 0
    static let symbol: UInt64 = 1
    static let boolFalse: UInt64 = 2
    static let boolTrue: UInt64 = 3
}
