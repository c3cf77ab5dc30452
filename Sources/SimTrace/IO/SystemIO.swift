import SystemPackage

/// The one place simrun's own files, pipes and children meet the system calls: every read, write,
/// open, sync and rename of traces, results, requests and child output goes through here, and an
/// interrupted call (EINTR: a signal arrived, Ctrl-C or a child ending) is retried here and nowhere
/// else.
///
/// Reads, writes and opens are swift-system's `FileDescriptor` calls (`retryOnInterrupt`), which
/// also give the typed `Errno` with its message; swift-system 1.8 has no `fsync`, `rename` or
/// `waitpid`, so those are retried by `retrying` below. A short write is continued, and a write of
/// nothing is an error (no space), never a loop.
package enum SystemIO {
    /// Calls `call` again while it fails with EINTR; its result otherwise (with `errno` set on failure).
    @inline(__always)
    package static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// The errno of the last failed call, typed.
    package static var lastError: Errno { Errno(rawValue: errno) }

    /// Writes all of `bytes` to `fd`.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        let descriptor = FileDescriptor(rawValue: fd)
        var offset = 0
        while offset < bytes.count {
            let written: Int
            do {
                written = try descriptor.write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            } catch {
                throw Self.typed(error)
            }
            // A zero-byte write on a regular file means no space; never spin on it.
            if written == 0 { throw Errno.noSpace }
            offset += written
        }
    }

    /// Writes all of `bytes` to `fd`.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Errno) {
        var failure: Errno?
        bytes.withUnsafeBytes { raw in
            do throws(Errno) { try writeAll(fd, raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes all of `bytes` at `offset`, leaving the file's offset alone (one `pwrite` when the
    /// system takes it whole, as it does for a few words).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(Errno) {
        let descriptor = FileDescriptor(rawValue: fd)
        var done = 0
        while done < bytes.count {
            let written: Int
            do {
                written = try descriptor.write(
                    toAbsoluteOffset: offset + Int64(done), UnsafeRawBufferPointer(rebasing: bytes[done...]))
            } catch {
                throw Self.typed(error)
            }
            if written == 0 { throw Errno.noSpace }
            done += written
        }
    }

    /// Reads what is there, up to `buffer.count` bytes; 0 at end of file.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        do {
            return try FileDescriptor(rawValue: fd).read(into: buffer)
        } catch {
            throw Self.typed(error)
        }
    }

    /// Reads what is there, up to `buffer.count` bytes; 0 at end of file, -1 with `errno` set on an
    /// error. The untyped form, for the trace reader's refill (no error value built per chunk).
    @inline(__always)
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        retrying { system_read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes at `offset`, leaving the file's offset alone; 0 at end of file.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64)
        throws(Errno) -> Int
    {
        do {
            return try FileDescriptor(rawValue: fd).read(fromAbsoluteOffset: offset, into: buffer)
        } catch {
            throw Self.typed(error)
        }
    }

    /// Opens `path` with the C `flags` (O_CLOEXEC is always added) and `mode` for a created file.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(Errno) -> Int32 {
        let fd = retrying { system_open(path, flags | O_CLOEXEC, mode) }
        guard fd >= 0 else { throw lastError }
        return fd
    }

    /// Flushes `fd` to the disk. Devices, pipes and terminals cannot be synced (EINVAL, ENOTSUP,
    /// EROFS): nothing is lost by it, and it is not an error.
    package static func sync(_ fd: Int32) throws(Errno) {
        guard retrying({ fsync(fd) }) == 0 else {
            let error = lastError
            if [Errno.invalidArgument, .notSupported, .readOnlyFileSystem].contains(error) { return }
            throw error
        }
    }

    /// Renames `temporary` to `path` and syncs the directory, so that the name survives a crash of
    /// the machine too: the one step that publishes a file written under a temporary name. The
    /// directory sync is best effort (some file systems refuse it).
    package static func publish(_ temporary: String, as path: String) throws(Errno) {
        guard retrying({ rename(temporary, path) }) == 0 else { throw lastError }
        let directory = retrying { system_open(OutputTarget.directory(of: path), O_RDONLY | O_CLOEXEC, 0) }
        guard directory >= 0 else { return }
        _ = retrying { fsync(directory) }
        close(directory)
    }

    /// The raw wait status of child `pid` once it has ended: waiting for it (`waiting`), or nil while
    /// it still runs. A child that cannot be waited for (already collected) reads as status 0.
    package static func childStatus(_ pid: pid_t, waiting: Bool) -> Int32? {
        var status: Int32 = 0
        let found = retrying { waitpid(pid, &status, waiting ? 0 : WNOHANG) }
        if found == 0 { return nil }
        return found < 0 ? 0 : status
    }

    /// Everything `fd` holds, read to its end (a child's stdin, a whole small file); `fileTooLarge`
    /// past `limit` bytes.
    package static func readAll(_ fd: Int32, limit: Int) throws(Errno) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try chunk.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try read(fd, into: raw) }
            }.get()
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw Errno.fileTooLarge }
        }
    }

    /// The names in `directory` (not `.` and `..`), sorted (never the file system's order); nil when
    /// it cannot be read. The one directory lister.
    package static func directoryNames(_ directory: String) -> [String]? {
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

    /// The whole file at `path` (at most `limit` bytes; `fileTooLarge` past it): the one whole-file
    /// reader.
    package static func readFile(_ path: String, limit: Int) throws(Errno) -> [UInt8] {
        let fd = try open(path, O_RDONLY)
        defer { close(fd) }
        return try readAll(fd, limit: limit)
    }

    private static func typed(_ error: any Error) -> Errno {
        (error as? Errno) ?? Errno(rawValue: EIO)
    }
}

/// `read(2)` under a name that does not clash with `SystemIO.read`.
private func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

/// `open(2)` under a name that does not clash with `SystemIO.open`.
private func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
