#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The C functions, under names that `AtomicFile.write` and `.read` do not shadow.
#if canImport(Glibc)
    private let systemWrite = Glibc.write
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
    private let systemRead = Darwin.read
#endif

/// Whole small files (result documents, copied traces) written under a temporary name and renamed
/// when complete, so a reader — `simrun merge`, a shared volume's other pods — never sees half a
/// file under its final name; read back with a size bound.
package enum AtomicFile {
    /// Writes `bytes` to `path` through a temporary name beside it (the same file system, so the
    /// rename is atomic).
    package static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        let temporary = "\(path).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure("cannot create", temporary) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("cannot write", temporary)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        // On a shared volume the rename must not land before the data does.
        guard fsync(descriptor) == 0 || errno == EINVAL, close(descriptor) == 0 else {
            let error = failure("cannot write", temporary)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot rename to \(path):", temporary)
            unlink(temporary)
            throw error
        }
    }

    /// Copies the file at `source` to `destination`, atomically (at most `limit` bytes).
    package static func copy(from source: String, to destination: String, limit: Int = 1 << 30)
        throws(CommandFailure)
    {
        try write(try read(source, limit: limit), to: destination)
    }

    /// The whole file at `path`: exit 66 when it does not exist, 65 when it is larger than `limit`
    /// bytes or cannot be read.
    package static func read(_ path: String, limit: Int) throws(CommandFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CommandFailure(
                errno == ENOENT ? ExitStatus.missingInput : ExitStatus.badTrace,
                "\(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw CommandFailure(ExitStatus.badTrace, "\(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else {
                throw CommandFailure(ExitStatus.badTrace, "\(path): larger than \(limit) bytes")
            }
        }
    }

    /// True when `path` is a directory.
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
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

    private static func failure(_ what: String, _ path: String) -> CommandFailure {
        CommandFailure(ExitStatus.cannotWrite, "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}
