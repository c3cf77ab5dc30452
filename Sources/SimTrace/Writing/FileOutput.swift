import SystemPackage

/// Writes an output file the way `OutputTarget` says: a regular file through a temporary name
/// beside it, synced and renamed into place when complete (a reader never sees half a file under the
/// final name); a device, FIFO, socket or open descriptor written to directly, never replaced.
final class FileOutput: TraceOutput {
    let path: String
    /// The temporary name being written (nil when writing in place).
    let temporaryPath: String?
    private var descriptor: Int32
    /// True when `descriptor` is the caller's own (`-`, `/dev/stdout`): it is never closed.
    private let borrowed: Bool
    /// The temporary file's slot in `PendingFiles` (removed by a signal handler ending the process).
    private var pending: Int?

    init(path: String) throws(TraceError) {
        self.path = path
        switch OutputTarget.of(path) {
        case .refused(let reason):
            throw TraceError(.unreadable, file: path, offset: 0, expected: "a file to write", detail: reason)
        case .descriptor(let fd):
            guard fcntl(fd, F_GETFD) >= 0 else {
                throw TraceError(
                    .unreadable, file: path, offset: 0, expected: "an open descriptor \(fd)",
                    detail: Self.message(errno))
            }
            temporaryPath = nil
            descriptor = fd
            borrowed = true
        case .writeInPlace:
            // Opened as it is, never created nor truncated (a FIFO's open waits for its reader).
            let fd: Int32
            do {
                fd = try SystemIO.open(path, O_WRONLY | O_NOCTTY)
            } catch {
                throw TraceError(
                    .unreadable, file: path, offset: 0, expected: "to open it for writing",
                    detail: Self.message(error.rawValue))
            }
            temporaryPath = nil
            descriptor = fd
            borrowed = false
        case .replace:
            // A signal is ending the process: a file begun now could no longer be removed.
            guard !PendingFiles.isClosed else {
                throw TraceError(
                    .unreadable, file: path, offset: 0, expected: "a file to write",
                    detail: "the process is ending at a signal")
            }
            // The pid keeps concurrent fuzz workers apart; the random part keeps two writers of one
            // process apart. Neither reaches the trace's content. O_EXCL never follows a planted link.
            var candidate = ""
            var fd: Int32 = -1
            var code: Int32 = EEXIST
            var listed: Int?
            for _ in 0..<8 {
                candidate = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
                // Listed before it exists: a signal between creating and listing it would leave it.
                // (The name is this process's and random: listed, it is never another's file.)
                listed = PendingFiles.add(candidate)
                do {
                    fd = try SystemIO.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
                    break
                } catch {
                    PendingFiles.remove(listed)
                    listed = nil
                    code = error.rawValue
                    if error != .fileExists { break }
                }
            }
            guard fd >= 0 else {
                throw TraceError(
                    .unreadable, file: path, offset: 0,
                    expected: "a writable directory for the temporary file", detail: Self.message(code))
            }
            temporaryPath = candidate
            descriptor = fd
            borrowed = false
            pending = listed
        }
    }

    deinit { abandon() }

    /// True when the output is written in place (device, FIFO, descriptor): a failure part-way
    /// cannot be taken back.
    var isInPlace: Bool { temporaryPath == nil }

    func append(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        guard bytes.count > 0 else { return }
        guard descriptor >= 0 else { throw failure("an open file", EBADF) }
        do {
            try SystemIO.writeAll(descriptor, bytes)
        } catch {
            throw failure("to write the file", error.rawValue)
        }
    }

    /// Syncs and closes the file; a temporary file is then renamed to the final path and its
    /// directory synced, so the name survives a crash of the machine too.
    func commit() throws(TraceError) {
        let fd = descriptor
        descriptor = -1
        guard fd >= 0 else { throw failure("an open file", EBADF) }
        // Devices, pipes and terminals cannot be synced: `SystemIO.sync` does not count that.
        var syncError: Int32?
        do throws(Errno) { try SystemIO.sync(fd) } catch { syncError = error.rawValue }
        if borrowed {
            if let syncError { throw failure("to flush the output", syncError) }
            return
        }
        if close(fd) != 0 || syncError != nil {
            let code = syncError ?? errno
            if let temporaryPath { unlink(temporaryPath) }
            PendingFiles.remove(pending)
            throw failure("to write the file out", code)
        }
        guard let temporaryPath else { return }
        defer { PendingFiles.remove(pending) }
        do throws(Errno) {
            try SystemIO.publish(temporaryPath, as: path)
        } catch {
            unlink(temporaryPath)
            throw failure("to rename the temporary file into place", error.rawValue)
        }
    }

    /// Closes and deletes the temporary file; harmless after `commit` or a second call. Written in
    /// place, what was written stays (it cannot be taken back); a borrowed descriptor stays open.
    func abandon() {
        guard descriptor >= 0 else { return }
        if !borrowed { close(descriptor) }
        descriptor = -1
        if let temporaryPath { unlink(temporaryPath) }
        PendingFiles.remove(pending)
    }

    private func failure(_ what: String, _ code: Int32) -> TraceError {
        TraceError(.unreadable, file: path, offset: 0, expected: what, detail: Self.message(code))
    }

    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
