import SimCore

/// The footer record's byte layout after its tag: event count, decision count, steps (varints),
/// end time (zigzag), verdict code (1 byte), oracle and message (strings), digest (8 bytes LE). For a
/// crash, the oracle string is `crashed` followed by the trap frames, each after a newline.
extension TraceFooter {
    func encode(into out: RecordBuffer) {
        out.reserve(64)
        out.byte(RecordTag.footer)
        out.varint(eventCount)
        out.varint(decisionCount)
        out.varint(steps)
        out.signed(endTime)
        out.byte(verdict.code)
        out.string(([verdict.oracle] + (verdict.code == 5 ? trapFrames : [])).joined(separator: "\n"))
        out.string(verdict.message)
        out.reserve(16)
        out.fixed64(digest.value)
    }

    /// Decodes a footer whose tag was just read.
    static func decode(_ cursor: inout ByteCursor) throws(DecodeFailure) -> TraceFooter {
        let events = try cursor.varint("the footer's event count")
        let decisions = try cursor.varint("the footer's decision count")
        let steps = try cursor.varint("the footer's step count")
        let endTime = try cursor.signed("the footer's end time")
        let codeAt = cursor.position
        let code = try cursor.byte("the verdict code")
        let stored = try cursor.string("the verdict's oracle")
        var lines = stored.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let oracle = code == 5 ? lines.removeFirst() : stored
        let message = try cursor.string("the verdict's message")
        let digest = try cursor.fixed64("the footer's digest")
        guard let verdict = Verdict(code: code, oracle: oracle, message: message) else {
            throw DecodeFailure(position: codeAt, expected: "a verdict code 0...5", detail: "code \(code)")
        }
        return TraceFooter(
            eventCount: events, decisionCount: decisions, steps: steps, endTime: endTime, verdict: verdict,
            digest: Digest(value: digest), trapFrames: code == 5 ? lines : [])
    }
}
