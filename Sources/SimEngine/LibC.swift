// The platform's C library, imported once for the whole module (issue #42) instead of a block in
// every file that calls it: every file of the module sees it.
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif

// The few calls that differ between the C libraries, said once.

/// `RLIMIT_NOFILE` as `getrlimit` takes it: Glibc imports it as an enum case, the others as a number.
#if canImport(Glibc)
    let openFilesResource = Int32(RLIMIT_NOFILE.rawValue)
#else
    let openFilesResource = RLIMIT_NOFILE
#endif
