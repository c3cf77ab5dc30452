import CZstd

/// Compresses one buffer into one self-contained zstd frame (with content checksum), reusing a single
/// compression context and output buffer for the whole trace.
final class FrameCompressor {
    private let context: OpaquePointer
    private var output: UnsafeMutableRawPointer
    private var outputCapacity: Int

    init(level: Int32, file: String) throws(TraceError) {
        guard let context = ZSTD_createCCtx() else {
            throw TraceError(.unreadable, file: file, offset: 0, expected: "a zstd compression context")
        }
        self.context = context
        outputCapacity = ZSTD_compressBound(TraceLimits.frameSoftBytes + 4096)
        output = .allocate(byteCount: outputCapacity, alignment: 16)
        let level = min(max(level, ZSTD_minCLevel()), ZSTD_maxCLevel())
        let results = [
            ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level),
            ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1),
            // Content size lets `zstd -l` and decoders size their buffers; frames are small anyway.
            ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 1),
        ]
        if let bad = results.first(where: { ZSTD_isError($0) != 0 }) {
            ZSTD_freeCCtx(context)
            output.deallocate()
            throw TraceError(
                .unreadable, file: file, offset: 0, expected: "zstd to accept the compression parameters",
                detail: String(cString: ZSTD_getErrorName(bad)))
        }
    }

    deinit {
        ZSTD_freeCCtx(context)
        output.deallocate()
    }

    /// Compresses `input` into a frame and returns it (valid until the next call).
    func compress(_ input: UnsafeRawBufferPointer, file: String, offset: UInt64) throws(TraceError)
        -> UnsafeRawBufferPointer
    {
        let bound = ZSTD_compressBound(input.count)
        if bound > outputCapacity {
            output.deallocate()
            outputCapacity = bound
            output = .allocate(byteCount: bound, alignment: 16)
        }
        let size = ZSTD_compress2(context, output, outputCapacity, input.baseAddress, input.count)
        if ZSTD_isError(size) != 0 {
            throw TraceError(
                .unreadable, file: file, offset: offset, expected: "zstd to compress a frame",
                detail: String(cString: ZSTD_getErrorName(size)))
        }
        return UnsafeRawBufferPointer(start: output, count: size)
    }
}
