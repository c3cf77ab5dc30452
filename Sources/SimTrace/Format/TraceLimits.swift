/// The bounds a reader enforces, so that no allocation follows a corrupted length field.
///
/// Writers stay well inside them: frames end near `TraceLimits.frameSoftBytes` of raw records.
public enum TraceLimits {
    /// A frame's decompressed size may not exceed this (bytes).
    public static let maxFrameBytes = 8 << 20
    /// A writer ends its frame once the raw records pass this size (bytes).
    public static let frameSoftBytes = 1 << 20
    /// The longest string (symbol text, header field, verdict message) in bytes.
    public static let maxStringBytes = 1 << 20
    /// The most distinct symbols a trace may define.
    public static let maxSymbols = 1 << 24
    /// The most bytes of symbol text a trace may define in total.
    public static let maxSymbolBytes = 512 << 20
    /// The most header options.
    public static let maxOptions = 4096
    /// The reader's file read size (bytes).
    public static let readChunkBytes = 64 << 10
    /// zstd's window may not exceed 2^this bytes (bounds decoder memory on hostile frames).
    static let maxWindowLog: Int32 = 24
}
