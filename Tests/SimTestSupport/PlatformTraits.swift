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
}
