/// Inputs tools/fuzz-trace-reader.sh found that once misbehaved, kept as damaged-trace test cases.
enum FuzzerFindings {
    static let all: [(String, [UInt8])] = []
}
