/// Where a trace encoder's compressed frames go: a file or memory.
protocol TraceOutput: AnyObject {
    func append(_ bytes: UnsafeRawBufferPointer) throws(TraceError)
}

/// Collects the compressed frames in memory (tests, benchmarks, shrinking).
final class MemoryOutput: TraceOutput {
    var bytes: [UInt8] = []

    func append(_ chunk: UnsafeRawBufferPointer) throws(TraceError) {
        bytes.append(contentsOf: chunk)
    }
}
