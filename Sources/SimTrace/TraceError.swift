/// Why a trace could not be written or read: which file, where, and what was expected there.
///
/// Every unreadable input becomes one of these, never a trap. `description` is a single line meant
/// for a terminal, e.g. `t.simtrace: at byte 812: expected a complete zstd frame (file ends mid-frame)`.
public struct TraceError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The broad class of failure; the CLI maps `missingFile` to exit 66 and every other kind to 65.
    public enum Kind: String, Sendable, CaseIterable {
        /// The file does not exist.
        case missingFile
        /// An I/O error while opening, reading, writing or renaming.
        case unreadable
        /// The bytes are not a zstd stream at all.
        case notZstd
        /// A zstd frame failed to decode or its checksum did not match.
        case corruptFrame
        /// Valid zstd, but the content does not start with the trace magic.
        case notATrace
        /// A trace written by a newer (or unknown) format version.
        case unsupportedVersion
        /// A record (or the header's fields) could not be decoded or contradicts what came before.
        case malformedRecord
        /// The file ends before the header is complete.
        case truncatedHeader
        /// A size or count is beyond the reader's bounds (possible corruption, or a hostile file).
        case limitExceeded
    }

    /// What went wrong, broadly (drives the exit code).
    public var kind: Kind
    /// The file (or in-memory name) concerned.
    public var file: String
    /// Byte offset: in the file, or in the decompressed stream when `inDecompressedStream` is true.
    public var offset: UInt64
    /// Whether `offset` counts decompressed bytes rather than file bytes.
    public var inDecompressedStream: Bool
    /// What the reader expected to find at `offset`.
    public var expected: String
    /// What it found instead, or the underlying error; may be empty.
    public var detail: String

    /// An error at `offset` of `file`.
    public init(
        _ kind: Kind, file: String, offset: UInt64, inDecompressedStream: Bool = false, expected: String,
        detail: String = ""
    ) {
        self.kind = kind
        self.file = file
        self.offset = offset
        self.inDecompressedStream = inDecompressedStream
        self.expected = expected
        self.detail = detail
    }

    /// One line: `<file>: at byte <n>: expected <what> (<detail>)`.
    public var description: String {
        let place = inDecompressedStream ? "at decompressed byte \(offset)" : "at byte \(offset)"
        let tail = detail.isEmpty ? "" : " (\(Self.oneLine(detail)))"
        return "\(file): \(place): expected \(Self.oneLine(expected))\(tail)"
    }

    /// Keeps the description on one line whatever the detail text holds.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
