/// What an output path names, and so how simrun writes it.
///
/// A regular file (or a name not yet taken) is *replaced*: written under a temporary name beside it,
/// synced, and renamed into place, so a reader never sees half a file. Anything else is never
/// replaced: a character device, FIFO or socket (`/dev/null`, a terminal, `mkfifo`) is opened and
/// *written to*; `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and `/proc/self/fd/N` (or a link
/// that leads to one) write to that open descriptor, as a shell's `>` does. A symbolic link to a
/// file, a dangling link, a block device, a directory and a name ending in `/` are refused: simrun
/// never follows a name into replacing a file the user did not name.
public enum OutputTarget: Equatable, Sendable {
    /// Missing or a regular file: written atomically (temporary name, fsync, rename, fsync of the directory).
    case replace
    /// An existing device, FIFO or socket: opened for writing and written in place.
    case writeInPlace
    /// One of this process's open descriptors (`-` and `/dev/stdout` are 1).
    case descriptor(Int32)
    /// Not written; the reason, to follow `<path>: `.
    case refused(String)

    /// How `path` would be written (nothing is created or opened).
    public static func of(_ path: String) -> OutputTarget {
        if path.isEmpty { return .refused("is empty; give a file name") }
        if path == "-" { return .descriptor(1) }
        if path.hasSuffix("/") {
            return .refused("ends with '/'; give a file name, not a directory")
        }
        if let fd = descriptorNumber(path) { return .descriptor(fd) }
        var info = stat()
        guard lstat(path, &info) == 0 else { return .replace }  // not there yet (or its directory is checked later)
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .replace
        case S_IFDIR: return .refused("is a directory; give a file name")
        case S_IFLNK: return link(path)
        case S_IFBLK: return .refused("is a block device; simrun does not write over disks")
        default: return .writeInPlace  // character device, FIFO, socket
        }
    }

    /// A symbolic link: written through only when it leads to a descriptor, device, FIFO or socket.
    private static func link(_ path: String) -> OutputTarget {
        var current = path
        for _ in 0..<40 {
            guard let target = readLink(current) else { break }
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
            if let fd = descriptorNumber(current) { return .descriptor(fd) }
            var info = stat()
            guard lstat(current, &info) == 0 else {
                return .refused("is a symbolic link to \(target), which does not exist; name the file itself")
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK: continue
            case S_IFREG:
                return .refused(
                    "is a symbolic link to the file \(target); outputs are replaced, not written through links — name that file itself"
                )
            case S_IFDIR: return .refused("is a symbolic link to a directory; give a file name")
            case S_IFBLK: return .refused("leads to a block device; simrun does not write over disks")
            default: return .writeInPlace
            }
        }
        return .refused("is a symbolic link that cannot be followed")
    }

    /// `N` when `path` spells one of this process's descriptors.
    static func descriptorNumber(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/", "/proc/thread-self/fd/"]
        where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The directory part of `path` (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}

extension OutputTarget {
    /// Writes `bytes` to `path` as `of(path)` says: a regular file replaced atomically and synced, a
    /// device, FIFO or descriptor written to. Nothing is left under a temporary name on failure.
    public static func write(_ bytes: [UInt8], to path: String) throws(TraceError) {
        let output = try FileOutput(path: path)
        do throws(TraceError) {
            var failure: TraceError?
            bytes.withUnsafeBytes { raw in
                do throws(TraceError) { try output.append(raw) } catch { failure = error }
            }
            if let failure { throw failure }
            try output.commit()
        } catch {
            output.abandon()
            throw error
        }
    }
}
