/// Where a test applies: a test of something only Linux has (the interposition layer, a crash's
/// signal) says so with `@Test(.enabled(if: TestPlatform.isLinux, "…"))`, so that elsewhere it is
/// reported skipped with its reason, never passed with its body compiled away.
public enum TestPlatform {
    /// True on Linux.
    public static let isLinux: Bool = {
        #if os(Linux)
            true
        #else
            false
        #endif
    }()

    /// True where the task census reads the Swift runtime's task layout (asynchronous frames, what a
    /// suspended task waits on): Linux on x86_64 and arm64, the layouts it was written against.
    public static let readsTaskLayout: Bool = {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            true
        #else
            false
        #endif
    }()
}
