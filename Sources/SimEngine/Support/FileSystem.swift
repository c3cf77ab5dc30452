import SimTrace
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `errno` `code` means, in words (`No such file or directory`), for one-line messages.
package func systemMessage(_ code: Int32) -> String {
    Errno(rawValue: code).description
}

/// Creates a directory (and its parents) if it does not exist.
package func ensureDirectory(_ path: String) throws(SimEngineError) {
    var current = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        current += component + "/"
        if mkdir(current, 0o755) != 0 && errno != EEXIST {
            let code = errno
            throw SimEngineError(
                .cannotWrite, "cannot create directory \(String(current.dropLast())): \(systemMessage(code))")
        }
    }
    guard isDirectory(path) else {
        throw SimEngineError(.cannotWrite, "cannot use \(path) as a directory: it is a file")
    }
}

/// True when a file exists at `path`.
package func fileExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
}

/// True when `path` is a directory (following symbolic links).
package func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// Where command output goes, checked before any work starts: a command that would run for minutes
/// and then fail to save its result (`--out /proc/x`) fails at once with exit 73 instead.
package enum OutputPath {
    /// Checks that `directory` can hold output files without creating it (nothing is made before
    /// the command has read its input, and a campaign that finds nothing leaves no empty directory
    /// behind): it, or its nearest existing ancestor, must be a directory in which a file can be
    /// created and removed — `access(W_OK)` is no proof when running as root or on a read-only mount.
    package static func prepareDirectory(_ directory: String, flag: String) throws(SimEngineError) {
        do throws(SimEngineError) {
            try checkWritable(directory)
        } catch {
            throw SimEngineError(error.kind, "\(flag) \(directory): \(error.message)")
        }
    }

    /// Checks that a file can be written at `file`: not a directory, and its directory (or the
    /// nearest existing ancestor) writable. Nothing is created; `createParent(of:)` does that when
    /// the command is about to write.
    ///
    /// How the file is written follows `OutputTarget`: a regular file is replaced atomically; a
    /// device, FIFO or descriptor is written to; a link to a file, a directory, a block device or a
    /// name ending in `/` is refused here, before any work.
    package static func prepareFile(_ file: String, flag: String) throws(SimEngineError) {
        switch OutputTarget.of(file) {
        case .refused(let reason):
            throw SimEngineError(.cannotWrite, "\(flag) \(file): \(reason)")
        case .descriptor, .writeInPlace:
            return  // written to as it is: nothing is created beside it
        case .replace:
            break
        }
        if isDirectory(file) {
            throw SimEngineError(.cannotWrite, "\(flag) \(file): is a directory; give a file name")
        }
        do throws(SimEngineError) {
            try checkWritable(directory(of: file))
        } catch {
            throw SimEngineError(error.kind, "\(flag) \(file): \(error.message)")
        }
    }

    /// Creates the directory `file` goes in (and its parents), right before writing it.
    package static func createParent(of file: String) throws(SimEngineError) {
        guard OutputTarget.of(file) == .replace else { return }
        try ensureDirectory(directory(of: file))
    }

    private static func checkWritable(_ directory: String) throws(SimEngineError) {
        var existing = directory.isEmpty ? "." : directory
        while !fileExists(existing) {
            let parent = Self.directory(of: existing)
            if parent == existing { break }
            existing = parent
        }
        guard isDirectory(existing) else {
            throw SimEngineError(.cannotWrite, "\(existing) is a file, not a directory")
        }
        try probe(existing)
    }

    /// The directory part of `path` (`.` for a bare name).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func probe(_ directory: String) throws(SimEngineError) {
        let name = "\(directory)/.simrun-probe-\(getpid())"
        let fd: Int32
        do {
            fd = try SystemIO.open(name, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        } catch {
            throw SimEngineError(.cannotWrite, "cannot write in \(directory): \(error)")
        }
        close(fd)
        unlink(name)
    }
}

/// A fresh directory `$TMPDIR/<prefix>-XXXXXX` (or under /tmp, or under `base` when given), for
/// benchmark traces and for findings that could not be saved where asked.
package func makeScratchDirectory(prefix: String, in base: String? = nil) throws(SimEngineError) -> String {
    let base = base ?? getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> UnsafeMutablePointer<CChar>? in
        guard let start = buffer.baseAddress else { return nil }
        return mkdtemp(start)
    }
    guard let made else {
        let code = errno
        throw SimEngineError(.cannotWrite, "cannot create a directory under \(base): \(systemMessage(code))")
    }
    return String(cString: made)
}

/// Removes `path` and everything under it (a scratch directory made with `makeScratchDirectory`);
/// what cannot be removed is left (a scratch directory is never worth failing a command for).
package func removeScratchDirectory(_ path: String) {
    if let names = SystemIO.directoryNames(path) {
        for name in names { removeScratchDirectory("\(path)/\(name)") }
        rmdir(path)
    } else {
        unlink(path)
    }
}
