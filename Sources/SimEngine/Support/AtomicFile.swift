import SimTrace
import SystemPackage

/// Whole small files (result documents, copied traces) written under a temporary name and renamed
/// when complete, so a reader — `simrun merge`, a shared volume's other pods — never sees half a
/// file under its final name; read back with a size bound.
package enum AtomicFile {
    /// Writes `bytes` to `path`: a regular file through a temporary name beside it (the same file
    /// system, so the rename is atomic), synced before and after the rename; a device, FIFO or
    /// descriptor (`-`, `/dev/stdout`) written to, never replaced (see `OutputTarget`).
    package static func write(_ bytes: [UInt8], to path: String) throws(SimEngineError) {
        do throws(TraceError) {
            try OutputTarget.write(bytes, to: path)
        } catch {
            throw SimEngineError.cannotWrite(path, error)
        }
    }

    /// Copies the file at `source` to `destination`, atomically (at most `limit` bytes).
    package static func copy(from source: String, to destination: String, limit: Int = 1 << 30)
        throws(SimEngineError)
    {
        try write(try read(source, limit: limit), to: destination)
    }

    /// The whole file at `path`: exit 66 when it does not exist, 65 when it is larger than `limit`
    /// bytes or cannot be read.
    package static func read(_ path: String, limit: Int) throws(SimEngineError) -> [UInt8] {
        do {
            return try SystemIO.readFile(path, limit: limit)
        } catch .fileTooLarge {
            throw SimEngineError(.badTrace, "\(path): larger than \(limit) bytes")
        } catch {
            throw SimEngineError(error == .noSuchFileOrDirectory ? .missingInput : .badTrace, "\(path): \(error)")
        }
    }

    /// The names in a directory (not `.` and `..`), sorted; nil when it cannot be read.
    package static func names(in directory: String) -> [String]? { SystemIO.directoryNames(directory) }
}
