import CZstd
import SimEngine

/// Plain zstd calls for the baselines: compressing a buffer as one stream, and decompressing a file
/// without decoding it (what `zstd -dc` does).
enum RawZstd {
    /// The size of `bytes` compressed as one frame at `level`.
    static func compressedSize(_ bytes: [UInt8], level: Int32) -> Int {
        let bound = ZSTD_compressBound(bytes.count)
        var output = [UInt8](repeating: 0, count: bound)
        let size = output.withUnsafeMutableBytes { out in
            bytes.withUnsafeBytes { input in
                ZSTD_compress(out.baseAddress, bound, input.baseAddress, input.count, level)
            }
        }
        return ZSTD_isError(size) != 0 ? 0 : size
    }

    /// Decompresses a whole zstd stream (all its frames) held in memory; nil when it is not valid.
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        guard let context = ZSTD_createDCtx() else { return nil }
        defer { ZSTD_freeDCtx(context) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 128 << 10)
        var ok = true
        bytes.withUnsafeBytes { input in
            var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
            while inBuffer.pos < inBuffer.size {
                let produced = chunk.withUnsafeMutableBytes { out -> Int in
                    var outBuffer = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
                    let code = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                    if ZSTD_isError(code) != 0 { return -1 }
                    return outBuffer.pos
                }
                if produced < 0 {
                    ok = false
                    return
                }
                result.append(contentsOf: chunk[0..<produced])
            }
        }
        return ok ? result : nil
    }

    /// Decompresses the file at `path` into a reused buffer and returns the decompressed size
    /// (nil on a read or zstd error): the raw-decompression baseline for decoding.
    static func decompressedSize(ofFile path: String) -> UInt64? {
        guard let context = ZSTD_createDCtx() else { return nil }
        defer { ZSTD_freeDCtx(context) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var input = [UInt8](repeating: 0, count: 128 << 10)
        var output = [UInt8](repeating: 0, count: 128 << 10)
        var total: UInt64 = 0
        while true {
            let count = input.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { return total }
            var failed = false
            input.withUnsafeBytes { raw in
                var inBuffer = ZSTD_inBuffer(src: raw.baseAddress, size: count, pos: 0)
                while inBuffer.pos < inBuffer.size && !failed {
                    output.withUnsafeMutableBytes { out in
                        var outBuffer = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
                        let code = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                        if ZSTD_isError(code) != 0 { failed = true }
                        total += UInt64(outBuffer.pos)
                    }
                }
            }
            if failed { return nil }
        }
    }
}

