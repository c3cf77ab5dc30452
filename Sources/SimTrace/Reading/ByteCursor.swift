/// Why a cursor stopped: what it expected and what it found, at a position within its buffer.
struct DecodeFailure: Error {
    var position: Int
    var expected: String
    var detail: String
    var kind: TraceError.Kind = .malformedRecord
}

/// Reads varints, fixed-width integers and strings from a verified frame, checking every bound.
///
/// Lengths are checked against the bytes actually present and against `TraceLimits` before anything
/// is allocated, so a corrupted length costs an error, not memory.
struct ByteCursor {
    let base: UnsafePointer<UInt8>
    let end: Int
    var position: Int

    init(_ base: UnsafePointer<UInt8>, count: Int, position: Int = 0) {
        // Every read checks `position < end` and nothing else: a cursor must start inside its frame.
        assert(count >= 0 && position >= 0 && position <= count, "ByteCursor: position outside its frame")
        self.base = base
        self.end = count
        self.position = position
    }

    var isAtEnd: Bool { position >= end }
    var remaining: Int { end - position }

    mutating func byte(_ what: @autoclosure () -> String) throws(DecodeFailure) -> UInt8 {
        guard position < end else { throw DecodeFailure(position: position, expected: what(), detail: "end of frame") }
        let value = base[position]
        position += 1
        return value
    }

    /// LEB128, at most ten bytes, rejecting encodings that overflow 64 bits.
    @inline(__always)
    mutating func varint(_ what: @autoclosure () -> String) throws(DecodeFailure) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < end {
            let b = base[position]
            position += 1
            if shift == 63 && b > 1 { break }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift > 63 { break }
        }
        let detail = position >= end ? "end of frame" : "varint longer than 64 bits"
        position = start
        throw DecodeFailure(position: start, expected: what(), detail: detail)
    }

    @inline(__always)
    mutating func signed(_ what: @autoclosure () -> String) throws(DecodeFailure) -> Int64 {
        let raw = try varint(what())
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A varint that must fit in 32 bits.
    mutating func uint32(_ what: @autoclosure () -> String) throws(DecodeFailure) -> UInt32 {
        let start = position
        let raw = try varint(what())
        guard let value = UInt32(exactly: raw) else {
            throw DecodeFailure(position: start, expected: what(), detail: "\(raw) does not fit in 32 bits")
        }
        return value
    }

    mutating func fixed64(_ what: @autoclosure () -> String) throws(DecodeFailure) -> UInt64 {
        guard remaining >= 8 else { throw DecodeFailure(position: position, expected: what(), detail: "end of frame") }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(base[position + i]) << UInt64(8 * i) }
        position += 8
        return value
    }

    mutating func fixed32(_ what: @autoclosure () -> String) throws(DecodeFailure) -> UInt32 {
        guard remaining >= 4 else { throw DecodeFailure(position: position, expected: what(), detail: "end of frame") }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(base[position + i]) << UInt32(8 * i) }
        position += 4
        return value
    }

    /// A length-prefixed UTF-8 string, bounded by `TraceLimits.maxStringBytes` and the frame.
    mutating func string(_ what: @autoclosure () -> String) throws(DecodeFailure) -> String {
        let start = position
        let length = try varint(what())
        guard length <= UInt64(TraceLimits.maxStringBytes) else {
            throw DecodeFailure(
                position: start, expected: what(), detail: "length \(length) over \(TraceLimits.maxStringBytes)",
                kind: .limitExceeded)
        }
        guard Int(length) <= remaining else {
            throw DecodeFailure(position: start, expected: what(), detail: "length \(length) past the end of frame")
        }
        let bytes = UnsafeBufferPointer(start: base + position, count: Int(length))
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DecodeFailure(position: start, expected: what(), detail: "invalid UTF-8")
        }
        position += Int(length)
        return text
    }
}
