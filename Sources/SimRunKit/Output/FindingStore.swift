import SimEngine
import SimTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Saves a finding's trace where the user asked, and — when that fails after the campaign or run
/// has found something — in a fresh temporary directory instead, saying where: a failure to write
/// never loses a finding nor hides "bug found" (exit 1) behind "cannot write" (exit 73).
///
/// Campaigns may share an output directory (two shards, two runs one after the other): a trace is
/// never saved over another finding's. The wanted name is used when free or when it holds the same
/// finding (a re-run); otherwise the first free `<name>-N.simtrace`, claimed atomically.
struct FindingStore {
    let console: Console

    /// What makes two saved traces the same finding: the run that produced it.
    struct Identity: Equatable {
        var scenario: String
        var variant: String
        var strategy: String
        var seed: UInt64
    }

    /// Records with `record` to `path` (or the name `claim` gives when another finding holds it); on a
    /// write failure, to the same file name in `$TMPDIR/simrun-findings-XXXXXX`. Returns the result
    /// and where the trace is.
    func save<Saved>(
        to path: String, identity: Identity? = nil, _ record: (String) throws(CommandFailure) -> Saved
    ) throws(CommandFailure) -> (result: Saved, path: String) {
        var claimed: String?
        do throws(CommandFailure) {
            try ensureDirectory(OutputPath.directory(of: path))
            let target = identity.map { Self.claim(path, for: $0) } ?? path
            claimed = target
            return (try record(target), target)
        } catch where error.code == ExitStatus.cannotWrite {
            if let claimed { Self.release(claimed) }
            let name = path.split(separator: "/").last.map(String.init) ?? "finding.simtrace"
            let fallback = try makeScratchDirectory(prefix: "simrun-findings") + "/" + name
            let result = try record(fallback)
            console.err("warning: \(error.message); the trace was saved to \(fallback) instead")
            return (result, fallback)
        } catch {
            if let claimed { Self.release(claimed) }
            throw error
        }
    }

    /// A name for a finding of `identity` near `wanted`: `wanted` when it is free (then created empty,
    /// so that no other campaign takes it) or holds the same finding, else `<name>-2.simtrace`, -3, …
    static func claim(_ wanted: String, for identity: Identity) -> String {
        let stem = wanted.hasSuffix(".simtrace") ? String(wanted.dropLast(".simtrace".count)) : wanted
        for number in 1...1000 {
            let candidate = number == 1 ? wanted : "\(stem)-\(number).simtrace"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if fd >= 0 {
                close(fd)
                return candidate
            }
            guard errno == EEXIST else { return wanted }  // the write reports what is wrong
            if holds(candidate, identity) { return candidate }
        }
        return wanted
    }

    /// True when the trace at `path` is a finding of `identity`.
    static func holds(_ path: String, _ identity: Identity) -> Bool {
        guard let header = try? TraceReader(path: path).header else { return false }
        return Identity(
            scenario: header.scenario, variant: header.variant, strategy: header.strategy, seed: header.seed)
            == identity
    }

    /// Removes a claimed name that was never written (still empty).
    static func release(_ path: String) {
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0 { unlink(path) }
    }
}
