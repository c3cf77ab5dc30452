// libFuzzer entry point over the trace reader: any bytes must give records or a TraceError,
// never a trap, a hang or an allocation sized by a length field. Built by tools/fuzz-trace-reader.sh.
//
// Two input shapes, chosen by the first byte:
// - even: the bytes are a trace file as is (exercises the zstd layer: magic, frames, checksums);
// - odd: the rest is frames' *decompressed* content, each as a 2-byte little-endian length and the
//   bytes, compressed here into one zstd frame each. Mutations then reach the record decoder instead
//   of dying at a frame checksum.
// With SIMTRACE_FUZZ_EMIT_RAW=<dir>, each input that is a trace file is also written to <dir> in the
// odd shape (how the script seeds that shape from real traces).
import CZstd
import Glibc
import SimCore
import SimTrace

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    if let first = input.first, first & 1 == 1 {
        read(trace: compressFrames(input.dropFirst()))
    } else {
        read(trace: input)
        if let directory = getenv("SIMTRACE_FUZZ_EMIT_RAW"), let raw = rawFrames(input) {
            emit(raw, to: String(cString: directory))
        }
    }
    return 0
}

func read(trace bytes: [UInt8]) {
    // The streaming reader, as `show`, `replay` and `shrink` use it; text lookups as `show` does.
    if let reader = try? TraceReader(bytes: bytes, name: "fuzz") {
        var records = 0
        while records < 10_000_000, let record = try? reader.next() {
            records += 1
            if case .event(let event) = record {
                _ = reader.text(event.kind)
                _ = reader.contentHash(event.subject)
                for field in event.fields { _ = reader.text(field.key) }
            }
        }
        _ = reader.isTruncated
    }
    // The whole-file loader, which also checks the digests.
    _ = try? TraceFile.load(bytes: bytes, name: "fuzz")
}

/// Odd shape → trace bytes: each length-prefixed chunk becomes one zstd frame.
func compressFrames(_ raw: ArraySlice<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    var position = raw.startIndex
    while position < raw.endIndex {
        var length = Int(raw[position])
        if position + 1 < raw.endIndex { length |= Int(raw[position + 1]) << 8 }
        position = min(position + 2, raw.endIndex)
        let end = min(position + length, raw.endIndex)
        let chunk = Array(raw[position..<end])
        position = end
        var frame = [UInt8](repeating: 0, count: ZSTD_compressBound(chunk.count))
        let written = ZSTD_compress(&frame, frame.count, chunk, chunk.count, 1)
        if ZSTD_isError(written) != 0 { return out }
        out += frame[0..<written]
    }
    return out
}

/// Trace bytes → odd shape (nil when the bytes are not whole zstd frames).
func rawFrames(_ bytes: [UInt8]) -> [UInt8]? {
    var out: [UInt8] = [1]
    var position = 0
    while position < bytes.count {
        let frameSize = bytes[position...].withUnsafeBytes { ZSTD_findFrameCompressedSize($0.baseAddress, $0.count) }
        if ZSTD_isError(frameSize) != 0 { return nil }
        var content = [UInt8](repeating: 0, count: 65_535)
        let count = bytes[position..<(position + frameSize)].withUnsafeBytes {
            ZSTD_decompress(&content, content.count, $0.baseAddress, $0.count)
        }
        if ZSTD_isError(count) != 0 { return nil }
        out += [UInt8(count & 0xFF), UInt8(count >> 8)] + content[0..<count]
        position += frameSize
    }
    return out
}

func emit(_ bytes: [UInt8], to directory: String) {
    var hash = Digest()
    for byte in bytes { hash.mix(UInt64(byte)) }
    guard let file = fopen("\(directory)/raw-\(hash)", "wb") else { return }
    _ = fwrite(bytes, 1, bytes.count, file)
    fclose(file)
}
