import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Creates a directory (and its parents) if it does not exist.
package func ensureDirectory(_ path: String) throws(CommandFailure) {
    var current = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
        current += component + "/"
        if mkdir(current, 0o755) != 0 && errno != EEXIST {
            throw CommandFailure(
                ExitStatus.cannotWrite, "cannot create directory \(current): \(Errno(rawValue: errno))")
        }
    }
}

/// True when a file exists at `path`.
package func fileExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
}
