import Testing

@testable import SimEngine

/// The supervisor parses worker lines in place; malformed lines are ignored, never misread.
@Suite struct FailureLineTests {
    @Test func aFailureLineGivesSeedSignatureAndDigest() {
        let line = ArraySlice(Array("fail 12 345 18446744073709551615 7".utf8))
        #expect(FailureLine(parsing: line) == FailureLine(index: 12, seed: 345, signature: .max, digest: 7))
        let printed = FailureLine(index: 1, seed: 2, signature: 3, digest: 4)
        #expect(FailureLine(parsing: ArraySlice(Array(printed.text.utf8))) == printed)
    }

    @Test func malformedLinesAreIgnored() {
        for text in [
            "", "fail", "fail 1 2 3", "fail 1 2 3 4 5", "fail 1 2 x 4", "pass 1 2 3 4",
            "fail 1 2 3 99999999999999999999",
            "fail  1 2 3 4", "fail 1 2 3 4 ",
        ] {
            #expect(FailureLine(parsing: ArraySlice(Array(text.utf8))) == nil)
        }
    }
}
