/// A growable byte buffer with unchecked appends, reused for every frame.
///
/// The encoder makes sure of room for a whole record before writing it (`room`), so appends need no
/// capacity check in release builds; this keeps the per-event path free of allocation and of
/// `Array`'s uniqueness checks. Debug builds assert every write is inside the buffer.
final class RecordBuffer {
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Bytes that can be written before the buffer is full.
    @inline(__always) var room: Int { capacity - count }

    /// Makes room for `extra` more bytes (rare: only long strings exceed the frame slack).
    func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = max(capacity * 2, count + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    func byte(_ value: UInt8) {
        assert(count < capacity, "RecordBuffer overflow: byte at \(count) of \(capacity)")
        base[count] = value
        count += 1
    }

    /// LEB128: seven bits per byte, low group first, high bit set on all but the last.
    @inline(__always)
    func varint(_ value: UInt64) {
        var v = value
        var i = count
        assert(i + Self.varintBytes(value) <= capacity, "RecordBuffer overflow: varint at \(i) of \(capacity)")
        while v >= 0x80 {
            base[i] = UInt8(truncatingIfNeeded: v) | 0x80
            v &>>= 7
            i += 1
        }
        base[i] = UInt8(truncatingIfNeeded: v)
        count = i + 1
    }

    /// The bytes `varint(value)` writes (1 to 10).
    static func varintBytes(_ value: UInt64) -> Int {
        var bytes = 1
        var v = value
        while v >= 0x80 {
            v &>>= 7
            bytes += 1
        }
        return bytes
    }

    /// Zigzag maps small negative and positive numbers alike to small varints.
    @inline(__always)
    func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value &<< 1) ^ (value >> 63)))
    }

    func fixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { byte(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    func fixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { byte(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Length-prefixed UTF-8; reserves its own room.
    func string(_ text: String) {
        let utf8 = text.utf8
        reserve(utf8.count + 10)
        varint(UInt64(utf8.count))
        for b in utf8 { byte(b) }
    }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
