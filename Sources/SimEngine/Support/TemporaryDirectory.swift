import SimTrace
import Synchronization

/// `$TMPDIR` (or `/tmp`), where simrun keeps the traces it writes only to read back (probes,
/// determinism checks, crash candidates) and its scratch directories (benchmarks, in-order
/// campaigns, spooled inputs).
///
/// Nothing is left there: a process's temporary traces live in one directory of its own,
/// `simrun-session-XXXXXX`, removed when the process exits and — with every scratch directory
/// made by `makeDirectory` — by `Interruption` when a signal ends the command, after the children
/// that write into it are gone.
package enum TemporaryDirectory {
    /// `$TMPDIR`, or `/tmp` when it is not set.
    package static var path: String {
        let value = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        guard !value.isEmpty else { return "/tmp" }
        return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    /// Fails, naming `TMPDIR`, when it is not a directory a file can be made in (the command needs it
    /// before it runs anything).
    package static func check() throws(SimEngineError) {
        let base = path
        guard isDirectory(base) else {
            throw SimEngineError(
                .cannotWrite,
                "TMPDIR \(base): \(fileExists(base) ? "not a directory" : "no such directory") (simrun writes its temporary traces there; set TMPDIR to a writable directory)"
            )
        }
        do throws(SimEngineError) {
            try OutputPath.prepareDirectory(base, flag: "TMPDIR")
        } catch {
            throw SimEngineError(
                .cannotWrite, "\(error.message) (simrun writes its temporary traces there; set TMPDIR to a writable directory)")
        }
    }

    /// A fresh path for a temporary trace (`simrun-<purpose>-N.simtrace` in this process's session
    /// directory); `remove` it when done. Fails, naming `TMPDIR`, when none can be made.
    package static func tracePath(_ purpose: String) throws(SimEngineError) -> String {
        let directory = try session()
        let number = counter.add(1, ordering: .relaxed).newValue
        return "\(directory)/simrun-\(purpose)-\(number).simtrace"
    }

    /// Removes a temporary trace made by `tracePath` (and anything left beside it under its name).
    package static func remove(_ trace: String) {
        unlink(trace)
    }

    /// A fresh scratch directory `$TMPDIR/<prefix>-XXXXXX` (or in `base` when given), removed if a
    /// signal ends the command; `removeDirectory` it when done.
    package static func makeDirectory(prefix: String, in base: String? = nil) throws(SimEngineError) -> String {
        if base == nil { try check() }
        let made = try makeScratchDirectory(prefix: prefix, in: base)
        scratch.withLock { $0.append(made) }
        return made
    }

    /// Removes a scratch directory made by `makeDirectory`, and everything in it.
    package static func removeDirectory(_ directory: String) {
        // Removed, then forgotten: a signal's ending meanwhile still finds it listed (forgotten
        // first, an ending between the two steps left it behind, this thread stopped by the exit).
        removeScratchDirectory(directory)
        scratch.withLock { $0.removeAll { $0 == directory } }
    }

    /// Removes every scratch directory and the session directory (`Interruption`, once the
    /// command's children are gone; and at exit).
    package static func removeAll() {
        let directories = scratch.withLock { all in
            defer { all.removeAll() }
            return all
        }
        for directory in directories { removeScratchDirectory(directory) }
        if let made = sessionDirectory.withLock({ $0 }) { removeScratchDirectory(made) }
    }

    private static let counter = Atomic<Int>(0)
    private static let scratch = Mutex<[String]>([])
    private static let sessionDirectory = Mutex<String?>(nil)

    /// This process's session directory, made on first use (and removed at exit).
    private static func session() throws(SimEngineError) -> String {
        try sessionDirectory.withLock { (made: inout String?) throws(SimEngineError) -> String in
            if let made { return made }
            try check()
            let directory = try makeScratchDirectory(prefix: "simrun-session")
            made = directory
            atexit { TemporaryDirectory.removeSession() }
            return directory
        }
    }

    private static func removeSession() {
        if let made = sessionDirectory.withLock({ $0 }) { removeScratchDirectory(made) }
    }
}
