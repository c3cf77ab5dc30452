import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every temporary file and directory the tests make lives under one root per test process,
/// `$TMPDIR/simrun-tests-<pid>`, which is removed when the process exits: a test run leaves nothing
/// behind, even when a test fails halfway or forgets to clean up after itself.
public enum TemporaryFiles {
    /// The root for this process, created on first use (thread-safe: a lazily initialised static).
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("simrun-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { TemporaryFiles.removeRoot() }
        return url
    }()

    /// Removes the root and everything in it (called at exit).
    static func removeRoot() {
        try? FileManager.default.removeItem(at: root)
    }

    /// A fresh, empty directory under the root.
    public static func directory(_ name: String) throws -> URL {
        let url = root.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path for a file named `name` in a fresh directory under the root (the file is not created).
    public static func path(_ name: String) -> String {
        let url = root.appendingPathComponent(UUID().uuidString)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.appendingPathComponent(name).path
    }
}

/// A fresh temporary directory for one test (under `TemporaryFiles.root`, removed at exit).
public func makeTemporaryDirectory(_ name: String = "simrun-test") throws -> URL {
    try TemporaryFiles.directory(name)
}
