/// Where an exporter writes its output, one line at a time (so memory stays bounded by a line).
public protocol ExportSink: AnyObject {
    /// Writes `text` followed by a newline.
    func line(_ text: String) throws(TraceError)
}

/// Keeps the lines in memory (tests, small traces).
public final class MemoryExportSink: ExportSink {
    /// Every line written, in order.
    public private(set) var lines: [String] = []

    /// An empty sink.
    public init() {}

    /// Keeps `text` as the next line.
    public func line(_ text: String) throws(TraceError) { lines.append(text) }

    /// The lines joined with newlines, as a file would hold them.
    public var text: String { lines.map { $0 + "\n" }.joined() }
}

/// Writes lines to a file through a 64 KiB buffer; the file appears under its name only once
/// `finish` succeeds (a temporary name until then), like a trace.
public final class FileExportSink: ExportSink {
    private let output: FileOutput
    private var buffer: [UInt8] = []
    private static let flushSize = 1 << 16

    /// Opens a temporary file beside `path`.
    public init(path: String) throws(TraceError) {
        output = try FileOutput(path: path)
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    /// Buffers `text` and a newline, writing the buffer out once it reaches 64 KiB.
    public func line(_ text: String) throws(TraceError) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.flushSize { try flush() }
    }

    private func flush() throws(TraceError) {
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        var failure: TraceError?
        pending.withUnsafeBytes { bytes in
            do throws(TraceError) { try output.append(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes what is buffered and renames the file into place.
    public func finish() throws(TraceError) {
        try flush()
        try output.commit()
    }

    /// Deletes the temporary file (after a failed export).
    public func abandon() { output.abandon() }
}
