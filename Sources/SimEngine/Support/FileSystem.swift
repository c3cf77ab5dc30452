import SimTrace
import SystemPackage

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

/// True when both paths name one existing file (symbolic links followed, so `./t`, a link to `t` and
/// a hard link of `t` are all `t`).
package func sameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
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
            try checkNameLengths(directory, lastAddsTemporary: false)
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
            try checkNameLengths(file, lastAddsTemporary: true)
            try checkWritable(directory(of: file))
        } catch {
            throw SimEngineError(error.kind, "\(flag) \(file): \(error.message)")
        }
    }

    /// The most bytes a temporary name adds to the name of the file it becomes (`FileOutput`'s
    /// `.tmp-<pid>-<random>`): a name the file system takes can still fail once that is added.
    package static let temporarySuffixBytes = 26

    /// Refuses a path the file system would refuse for its length (`ENAMETOOLONG`), known before any
    /// work: a name longer than the file system's limit (NAME_MAX of the nearest existing directory;
    /// for a file, with its temporary name's suffix), or a whole path longer than PATH_MAX.
    private static func checkNameLengths(_ path: String, lastAddsTemporary: Bool) throws(SimEngineError) {
        var existing = path.isEmpty ? "." : path
        while !isDirectory(existing) {
            let parent = Self.directory(of: existing)
            if parent == existing { break }
            existing = parent
        }
        let found = pathconf(existing, Int32(_PC_NAME_MAX))
        let nameMax = found > 0 ? found : 255
        let components = path.split(separator: "/")
        for (index, component) in components.enumerated() {
            let isFile = lastAddsTemporary && index == components.count - 1
            let limit = isFile ? nameMax - temporarySuffixBytes : nameMax
            guard component.utf8.count > limit else { continue }
            let what = isFile ? "its file name" : "the directory name '\(component.prefix(24))…'"
            let why =
                isFile
                ? " (this file system takes \(nameMax), and the file is written first under a temporary name \(temporarySuffixBytes) bytes longer)"
                : ""
            throw SimEngineError(
                .cannotWrite, "\(what) is \(component.utf8.count) bytes long: too long, at most \(limit)\(why); give a shorter name")
        }
        let pathMax = Int(PATH_MAX)
        let total = path.utf8.count + (lastAddsTemporary ? temporarySuffixBytes : 0)
        if total >= pathMax {
            throw SimEngineError(
                .cannotWrite, "the path is \(path.utf8.count) bytes long: too long, at most \(pathMax - 1 - (lastAddsTemporary ? temporarySuffixBytes : 0)); give a shorter one")
        }
    }

    /// Refuses an output that is one of the command's inputs (usage, 64): `export t --out t`, a
    /// `./t`, a link to `t` or a hard link of it would replace what is being read. Checked first,
    /// before the output's place and before any work. `inputs` pairs each input's path with what it
    /// is (`the input trace`, `--from`).
    package static func refuseInput(
        _ output: String, flag: String, inputs: [(path: String, what: String)]
    ) throws(SimEngineError) {
        for input in inputs where sameFile(output, input.path) {
            let spelled = output == input.path ? "" : " (\(input.path))"
            throw .usage(
                "\(flag) \(output) is \(input.what)\(spelled): writing it would destroy what is read; give another name")
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
        // Listed for removal while it may exist: a signal ending the command meanwhile leaves nothing.
        let pending = PendingFiles.add(name)
        defer { PendingFiles.remove(pending) }
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
    let base = base ?? TemporaryDirectory.path
    var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> UnsafeMutablePointer<CChar>? in
        guard let start = buffer.baseAddress else { return nil }
        return mkdtemp(start)
    }
    guard let made else {
        let code = errno
        throw SimEngineError(
            .cannotWrite, "TMPDIR \(base): cannot create a directory there: \(systemMessage(code))")
    }
    return String(cString: made)
}

/// Removes `path` and everything under it (a scratch directory made with `makeScratchDirectory`);
/// what cannot be removed is left (a scratch directory is never worth failing a command for). A
/// directory that a file was added to meanwhile (a child ending) is gone through again, twice at most.
package func removeScratchDirectory(_ path: String) {
    for _ in 0..<3 {
        removeTree(path)
        var info = stat()
        if lstat(path, &info) != 0 { return }
    }
}

private func removeTree(_ path: String) {
    if let names = SystemIO.directoryNames(path) {
        for name in names { removeTree("\(path)/\(name)") }
        rmdir(path)
    } else {
        unlink(path)
    }
}
