#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes frames to a temporary file beside the destination and renames it into place when complete,
/// so a reader never sees a half-written trace under the final name.
final class FileOutput: TraceOutput {
    let path: String
    let temporaryPath: String
    private var descriptor: Int32

    init(path: String) throws(TraceError) {
        self.path = path
        // The pid keeps concurrent fuzz workers apart; the random part keeps two writers of one
        // process apart. Neither reaches the trace's content.
        var candidate = ""
        var fd: Int32 = -1
        for _ in 0..<8 {
            candidate = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else {
            let code = errno
            throw TraceError(
                .unreadable, file: path, offset: 0,
                expected: "a writable directory for the temporary file", detail: Self.message(code))
        }
        temporaryPath = candidate
        descriptor = fd
    }

    deinit { abandon() }

    func append(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure("to write the file", errno)
            }
            remaining -= written
            next += written
        }
    }

    /// Closes the temporary file and renames it to the final path.
    func commit() throws(TraceError) {
        let fd = descriptor
        descriptor = -1
        if close(fd) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw failure("to close the file", code)
        }
        if rename(temporaryPath, path) != 0 {
            let code = errno
            unlink(temporaryPath)
            throw failure("to rename the temporary file into place", code)
        }
    }

    /// Closes and deletes the temporary file; harmless after `commit` or a second call.
    func abandon() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(temporaryPath)
    }

    private func failure(_ what: String, _ code: Int32) -> TraceError {
        TraceError(.unreadable, file: path, offset: 0, expected: what, detail: Self.message(code))
    }

    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
