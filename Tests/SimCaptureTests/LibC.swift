// The platform's C library, imported once for the whole module (issue #42) instead of a block in
// every file that calls it: every file of the module sees it.
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif
