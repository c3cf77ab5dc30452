import SimTrace
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
        } catch {
            let missing = (error as? Errno) == .noSuchFileOrDirectory
            throw SimEngineError(missing ? .missingInput : .badTrace, "\(path): \(error)")
        }
        defer { try? descriptor.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let read = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try SystemIO.read(descriptor.rawValue, into: raw) }
            }
            let count: Int
            switch read {
            case .success(let found): count = found
            case .failure(let error): throw SimEngineError(.badTrace, "\(path): \(error)")
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else {
                throw SimEngineError(.badTrace, "\(path): larger than \(limit) bytes")
            }
        }
    }

    /// The names in a directory (not `.` and `..`), sorted; nil when it cannot be read.
    package static func names(in directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
