import CZstd
import SimCore

/// How a trace file ends, learned from its last frame alone (nothing before it is decoded).
///
/// A run that crashed is sealed by `TraceSealer` with its footer in a frame of its own, so a caller
/// that must not re-run a crashing schedule in process can tell before reading the whole trace.
public enum TraceEnding: Sendable, Equatable {
    /// The file ends with a complete, checksummed frame holding only this footer.
    case footer(TraceFooter)
    /// The file ends with a complete, checksummed frame of records (a writer's last frame: records,
    /// then its footer if it finished).
    case records
    /// The end could not be read this way (cut short, damaged, or a last frame too large to look
    /// for): read the trace from the start to learn more.
    case unknown

    /// Reads the last frame of the trace at `path`. Reads at most about 2 MiB from the end.
    ///
    /// ```swift
    /// if case .footer(let footer) = TraceEnding.read(path: path), case .crashed = footer.verdict { … }
    /// ```
    public static func read(path: String) -> TraceEnding {
        guard let fd = try? SystemIO.open(path, O_RDONLY) else { return .unknown }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return .unknown }
        let size = Int(info.st_size)
        // A writer's frame holds about `frameSoftBytes` of records; compressed it is smaller still.
        let window = min(size, ZSTD_compressBound(TraceLimits.frameSoftBytes) * 2)
        var tail = [UInt8](repeating: 0, count: window)
        var filled = 0
        while filled < window {
            let count = tail.withUnsafeMutableBytes { raw -> Int in
                let rest = UnsafeMutableRawBufferPointer(rebasing: raw[filled...])
                return (try? SystemIO.read(fd, into: rest, at: Int64(size - window + filled))) ?? -1
            }
            guard count > 0 else { return .unknown }
            filled += count
        }
        return tail.withUnsafeBytes { raw in ending(of: raw) }
    }

    /// Looks backwards for the frame that ends exactly at the end of `bytes`.
    static func ending(of bytes: UnsafeRawBufferPointer) -> TraceEnding {
        guard let base = bytes.baseAddress, bytes.count >= 4 else { return .unknown }
        let magic = FrameDecoder.zstdMagic
        var start = bytes.count - 4
        while start >= 0 {
            defer { start -= 1 }
            guard bytes[start] == magic[0], bytes[start + 1] == magic[1], bytes[start + 2] == magic[2],
                bytes[start + 3] == magic[3]
            else { continue }
            let length = bytes.count - start
            let frameSize = ZSTD_findFrameCompressedSize(base + start, length)
            guard ZSTD_isError(frameSize) == 0, frameSize == length else { continue }
            let content = ZSTD_getFrameContentSize(base + start, length)
            guard content != ZSTD_CONTENTSIZE_ERROR, content != ZSTD_CONTENTSIZE_UNKNOWN,
                content > 0, content <= UInt64(TraceLimits.maxFrameBytes)
            else { return .unknown }
            let frame = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(content))
            defer { frame.deallocate() }
            // One-shot decompression checks the frame's checksum.
            let produced = ZSTD_decompress(frame, Int(content), base + start, length)
            guard ZSTD_isError(produced) == 0, produced == Int(content) else { return .unknown }
            guard frame[0] == RecordTag.footer else { return .records }
            var cursor = ByteCursor(frame, count: Int(content), position: 1)
            guard let footer = try? TraceFooter.decode(&cursor), cursor.isAtEnd else { return .unknown }
            return .footer(footer)
        }
        return .unknown
    }
}
