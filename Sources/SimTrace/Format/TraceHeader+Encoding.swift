/// The header's byte layout: magic, format version (4 bytes LE), then the fields in declaration
/// order (strings length-prefixed, seed 8 bytes LE, options as a count and key/value pairs), and
/// from format 2 on the build string last.
extension TraceHeader {
    func encode(into out: RecordBuffer) {
        out.reserve(64)
        for b in Self.magic { out.byte(b) }
        out.fixed32(formatVersion)
        out.string(toolVersion)
        out.string(scenario)
        out.string(variant)
        out.reserve(16)
        out.fixed64(seed)
        out.string(strategy)
        out.reserve(16)
        out.varint(UInt64(options.count))
        for option in options {
            out.string(option.key)
            out.string(option.value)
        }
        if formatVersion >= 2 { out.string(build) }
    }

    /// Decodes a header frame; the magic and version were checked by the caller.
    static func decode(_ cursor: inout ByteCursor, version: UInt32) throws(DecodeFailure) -> TraceHeader {
        let tool = try cursor.string("the tool version")
        let scenario = try cursor.string("the scenario name")
        let variant = try cursor.string("the variant name")
        let seed = try cursor.fixed64("the seed")
        let strategy = try cursor.string("the strategy")
        let countAt = cursor.position
        let count = try cursor.varint("the option count")
        guard count <= UInt64(TraceLimits.maxOptions) else {
            throw DecodeFailure(
                position: countAt, expected: "at most \(TraceLimits.maxOptions) options", detail: "\(count)",
                kind: .limitExceeded)
        }
        var options: [TraceOption] = []
        for _ in 0..<Int(count) {
            let key = try cursor.string("an option key")
            let value = try cursor.string("an option value")
            options.append(TraceOption(key, value))
        }
        let build = version >= 2 ? try cursor.string("the build") : ""
        guard cursor.isAtEnd else {
            throw DecodeFailure(
                position: cursor.position, expected: "the end of the header frame",
                detail: "\(cursor.remaining) extra bytes")
        }
        return TraceHeader(
            formatVersion: version, toolVersion: tool, scenario: scenario, variant: variant, seed: seed,
            strategy: strategy, options: options, build: build)
    }
}
