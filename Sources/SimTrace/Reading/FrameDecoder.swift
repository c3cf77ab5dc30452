import SystemPackage
import CZstd

/// Decodes a zstd stream one whole frame at a time, from a file read in 64 KiB chunks or from memory.
///
/// A frame is handed out only once zstd reports it complete, which includes its checksum, so the
/// caller never sees bytes of a frame that was cut short or corrupted.
final class FrameDecoder {
    /// What `nextFrame` found.
    enum Outcome {
        /// A complete, verified frame is in `frame`.
        case frame
        /// The stream ended cleanly between frames.
        case end
        /// The stream ended inside a frame (`fileOffset` is where that frame began).
        case truncated
    }

    static let zstdMagic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

    let name: String
    private let context: OpaquePointer
    @exclusivity(unchecked) private var descriptor: Int32
    @exclusivity(unchecked) private var input: [UInt8]
    @exclusivity(unchecked) private var inputCount: Int
    @exclusivity(unchecked) private var inputPosition = 0
    /// The file offset of `input[0]`.
    @exclusivity(unchecked) private var inputFileOffset: UInt64 = 0
    @exclusivity(unchecked) private(set) var frame: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var frameCapacity: Int
    /// Bytes of the last complete frame in `frame`.
    @exclusivity(unchecked) private(set) var frameCount = 0
    /// Where the last frame began in the file.
    @exclusivity(unchecked) private(set) var frameFileOffset: UInt64 = 0

    /// The file offset of the next byte zstd will consume.
    var fileOffset: UInt64 { inputFileOffset + UInt64(inputPosition) }

    init(path: String) throws(TraceError) {
        let fd: Int32
        do {
            fd = try SystemIO.open(path, O_RDONLY)
        } catch {
            let code = error.rawValue
            throw TraceError(
                code == ENOENT ? .missingFile : .unreadable, file: path, offset: 0, expected: "a readable trace file",
                detail: FileOutput.message(code))
        }
        name = path
        descriptor = fd
        input = [UInt8](repeating: 0, count: TraceLimits.readChunkBytes)
        inputCount = 0
        (context, frame, frameCapacity) = try Self.makeState(name: path, closing: fd)
    }

    init(bytes: [UInt8], name: String) throws(TraceError) {
        self.name = name
        descriptor = -1
        input = bytes
        inputCount = bytes.count
        (context, frame, frameCapacity) = try Self.makeState(name: name, closing: -1)
    }

    private static func makeState(name: String, closing fd: Int32) throws(TraceError) -> (
        OpaquePointer, UnsafeMutablePointer<UInt8>, Int
    ) {
        guard let context = ZSTD_createDCtx() else {
            if fd >= 0 { close(fd) }
            throw TraceError(.unreadable, file: name, offset: 0, expected: "a zstd decompression context")
        }
        // A hostile frame header could ask for a huge window; our writer's frames never need one.
        ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, TraceLimits.maxWindowLog)
        let capacity = 128 << 10
        return (context, .allocate(capacity: capacity), capacity)
    }

    deinit {
        ZSTD_freeDCtx(context)
        frame.deallocate()
        if descriptor >= 0 { close(descriptor) }
    }

    /// Checks that the stream starts like zstd (a data or skippable frame), before decoding anything.
    func checkMagic() throws(TraceError) {
        if inputCount == 0 { try refill() }
        let available = min(inputCount, 4)
        let head = Array(input[0..<available])
        let isData = head.elementsEqual(Self.zstdMagic.prefix(available))
        // Skippable frames: 0x184D2A50...5F little-endian.
        let isSkippable =
            available == 4 && head[0] & 0xF0 == 0x50 && head[1] == 0x2A && head[2] == 0x4D && head[3] == 0x18
        if isData || isSkippable { return }
        let shown = head.map { String($0, radix: 16) }.joined(separator: " ")
        throw TraceError(
            .notZstd, file: name, offset: 0, expected: "a zstd stream (magic 28 b5 2f fd)",
            detail: "found bytes \(shown)")
    }

    /// Decodes the next non-empty frame into `frame`.
    func nextFrame() throws(TraceError) -> Outcome {
        while true {
            let outcome = try decodeOneFrame()
            if outcome != .frame || frameCount > 0 { return outcome }
        }
    }

    private func decodeOneFrame() throws(TraceError) -> Outcome {
        frameCount = 0
        frameFileOffset = fileOffset
        if try decodeWholeFrame() { return .frame }
        var started = false
        var outputFull = false
        while true {
            if inputPosition == inputCount && !outputFull {
                try refill()
                if inputCount == 0 { return started ? .truncated : .end }
            }
            if frameCount == frameCapacity { try growFrame() }
            let before = (inputPosition, frameCount)
            var inBuffer = ZSTD_inBuffer(src: nil, size: inputCount, pos: inputPosition)
            var outBuffer = ZSTD_outBuffer(dst: frame, size: frameCapacity, pos: frameCount)
            let result = input.withUnsafeBytes { raw in
                inBuffer.src = raw.baseAddress
                return ZSTD_decompressStream(context, &outBuffer, &inBuffer)
            }
            inputPosition = inBuffer.pos
            frameCount = outBuffer.pos
            started = true
            if ZSTD_isError(result) != 0 {
                let code = ZSTD_getErrorCode(result)
                let detail = String(cString: ZSTD_getErrorName(result))
                if code == ZSTD_error_frameParameter_windowTooLarge {
                    throw TraceError(
                        .limitExceeded, file: name, offset: frameFileOffset,
                        expected: "a zstd frame with a window of at most 2^\(TraceLimits.maxWindowLog) bytes",
                        detail: detail)
                }
                throw TraceError(
                    .corruptFrame, file: name, offset: frameFileOffset,
                    expected: "a valid zstd frame with a matching checksum", detail: detail)
            }
            if result == 0 { return .frame }
            if frameCount > TraceLimits.maxFrameBytes {
                throw TraceError(
                    .limitExceeded, file: name, offset: frameFileOffset,
                    expected: "a frame of at most \(TraceLimits.maxFrameBytes) decompressed bytes",
                    detail: "frame is larger")
            }
            outputFull = frameCount == frameCapacity
            // zstd always makes progress when it has input and room; guard against a hang anyway.
            if before == (inputPosition, frameCount) && !outputFull && inputPosition < inputCount {
                throw TraceError(
                    .corruptFrame, file: name, offset: fileOffset, expected: "a zstd frame that decodes",
                    detail: "decoder made no progress")
            }
        }
    }

    /// The most compressed bytes held to decode a frame in one call; a larger frame is streamed.
    private static let wholeFrameInputLimit = 1 << 20

    /// Decodes the next frame in one `ZSTD_decompressDCtx` call when that is sure to give what the
    /// streaming path gives: a data frame whose header states a content size within the frame limit
    /// and a window within the window limit, all of whose compressed bytes are (or, read on, come to
    /// be) in the input buffer. zstd then writes into `frame` directly, without the streaming
    /// window's copy (a seventh of a decode's zstd instructions). True when it did; false, with
    /// nothing consumed, for anything else (a skippable, cut, corrupt or oversized frame, the end of
    /// the input), which the streaming path then reads and reports as before.
    private func decodeWholeFrame() throws(TraceError) -> Bool {
        var header = ZSTD_frameHeader()
        while true {
            let available = inputCount - inputPosition
            if available == 0 {
                guard try readMore() else { return false }
                continue
            }
            let status = input.withUnsafeBytes { raw in
                ZSTD_getFrameHeader(&header, raw.baseAddress! + inputPosition, available)
            }
            if status == 0 { break }
            // More bytes are needed to read the header (or it is not a frame header at all).
            guard ZSTD_isError(status) == 0, try readMore() else { return false }
        }
        guard header.frameType == ZSTD_frame, header.frameContentSize <= UInt64(TraceLimits.maxFrameBytes),
            header.windowSize <= UInt64(1) << UInt64(TraceLimits.maxWindowLog)
        else { return false }
        var compressedSize = 0
        while true {
            let available = inputCount - inputPosition
            compressedSize = input.withUnsafeBytes { raw in
                ZSTD_findFrameCompressedSize(raw.baseAddress! + inputPosition, available)
            }
            if ZSTD_isError(compressedSize) == 0 { break }
            guard try readMore() else { return false }
        }
        let contentSize = Int(header.frameContentSize)
        while frameCapacity < contentSize { try growFrame() }
        let result = input.withUnsafeBytes { raw in
            ZSTD_decompressDCtx(context, frame, frameCapacity, raw.baseAddress! + inputPosition, compressedSize)
        }
        guard ZSTD_isError(result) == 0, result == contentSize else {
            ZSTD_DCtx_reset(context, ZSTD_reset_session_only)
            return false
        }
        inputPosition += compressedSize
        frameCount = contentSize
        return true
    }

    /// Reads more of the file after the unconsumed input (moved to the front of the buffer, which
    /// doubles when full, up to `wholeFrameInputLimit`). False at the end of the file, for bytes in
    /// memory, or at the limit.
    private func readMore() throws(TraceError) -> Bool {
        guard descriptor >= 0 else { return false }
        if inputPosition > 0 {
            let kept = inputCount - inputPosition
            input.withUnsafeMutableBytes { raw in
                raw.baseAddress!.copyMemory(from: raw.baseAddress! + inputPosition, byteCount: kept)
            }
            inputFileOffset += UInt64(inputPosition)
            inputPosition = 0
            inputCount = kept
        }
        if inputCount == input.count {
            guard input.count < Self.wholeFrameInputLimit else { return false }
            input.append(contentsOf: repeatElement(0, count: input.count))
        }
        while true {
            // SystemIO's untyped read: EINTR retried there, -1 with errno for anything else.
            let count = input.withUnsafeMutableBytes { raw in
                SystemIO.read(descriptor, UnsafeMutableRawBufferPointer(rebasing: raw[inputCount...]))
            }
            if count > 0 {
                inputCount += count
                return true
            }
            if count == 0 { return false }
            let code = errno
            if code == EINTR { continue }
            throw TraceError(
                .unreadable, file: name, offset: inputFileOffset + UInt64(inputCount), expected: "to read the trace file",
                detail: FileOutput.message(code))
        }
    }

    /// Doubles the frame buffer, up to one byte past the frame limit (so "exactly at the limit" fits).
    private func growFrame() throws(TraceError) {
        let limit = TraceLimits.maxFrameBytes + 1
        guard frameCapacity < limit else {
            throw TraceError(
                .limitExceeded, file: name, offset: frameFileOffset,
                expected: "a frame of at most \(TraceLimits.maxFrameBytes) decompressed bytes",
                detail: "frame is larger")
        }
        let capacity = min(frameCapacity * 2, limit)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: frame, count: frameCount)
        frame.deallocate()
        frame = grown
        frameCapacity = capacity
    }

    /// Reads the next chunk; leaves `inputCount == 0` at the end of the input.
    private func refill() throws(TraceError) {
        inputFileOffset += UInt64(inputCount)
        inputPosition = 0
        inputCount = 0
        guard descriptor >= 0 else { return }
        let count = input.withUnsafeMutableBytes { raw in SystemIO.read(descriptor, raw) }
        guard count >= 0 else {
            throw TraceError(
                .unreadable, file: name, offset: inputFileOffset, expected: "to read the trace file",
                detail: FileOutput.message(errno))
        }
        inputCount = count
    }
}
