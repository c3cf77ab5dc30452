import SimTrace

/// Saves a finding's trace where the user asked, and — when that fails after the campaign or run
/// has found something — in a fresh temporary directory instead, saying where: a failure to write
/// never loses a finding nor hides "bug found" (exit 1) behind "cannot write" (exit 73).
///
/// Campaigns may share an output directory (two shards, two runs one after the other): a trace is
/// never saved over another finding's. The wanted name is used when free or when it holds the same
/// finding (a re-run); otherwise the first free `<name>-N.simtrace`, claimed atomically.
package struct FindingStore {
    /// Told where a trace went instead of the place asked for (one line).
    let warn: (String) -> Void

    /// A store that says on `warn` where a trace was saved instead.
    package init(warn: @escaping (String) -> Void) { self.warn = warn }

    /// What makes two saved traces the same finding: the run that produced it.
    package struct Identity: Equatable {
        package var scenario: String
        package var variant: String
        package var strategy: String
        package var seed: UInt64

        package init(scenario: String, variant: String, strategy: String, seed: UInt64) {
            self.scenario = scenario
            self.variant = variant
            self.strategy = strategy
            self.seed = seed
        }
    }

    /// Records with `record` to `path` (or the name `claim` gives when another finding holds it, or
    /// when `path` is one of the command's `inputs`); on a write failure, in a fresh
    /// `$TMPDIR/simrun-findings-XXXXXX` under the same file name, shortened when it is long (the
    /// wanted name may be what the file system refused). Returns the result and where the trace is;
    /// throws only when neither place can hold it (the caller still reports the finding).
    package func save<Saved>(
        to path: String, identity: Identity? = nil, avoiding inputs: [String] = [],
        _ record: (String) throws(SimEngineError) -> Saved
    ) throws(SimEngineError) -> (result: Saved, path: String) {
        var claim: Claim?
        defer { claim?.release() }
        do throws(SimEngineError) {
            try ensureDirectory(OutputPath.directory(of: path))
            claim = identity.map { Self.claim(path, for: $0, avoiding: inputs) }
            let target = claim?.path ?? path
            if claim == nil, inputs.contains(where: { sameFile($0, target) }) {
                throw SimEngineError(.cannotWrite, "\(target) is an input of this command")
            }
            return (try record(target), target)
        } catch where error.kind == .cannotWrite {
            let directory: String
            do throws(SimEngineError) {
                directory = try makeScratchDirectory(prefix: "simrun-findings")
            } catch let fallbackError {
                throw SimEngineError(.cannotWrite, "\(error.message); nor elsewhere: \(fallbackError.message)")
            }
            let fallback = directory + "/" + Self.fallbackName(for: path)
            let result: Saved
            do throws(SimEngineError) {
                result = try record(fallback)
            } catch let fallbackError {
                removeScratchDirectory(directory)
                throw SimEngineError(.cannotWrite, "\(error.message); nor in \(directory): \(fallbackError.message)")
            }
            warn("warning: \(error.message); the trace was saved to \(fallback) instead")
            return (result, fallback)
        }
    }

    /// The longest fallback file name, in bytes: far below any file system's limit, with room for
    /// the temporary name's suffix.
    static let fallbackNameBytes = 100

    /// The file name of `path`, or — longer than `fallbackNameBytes` — its first 80 bytes (whole
    /// characters) and `.simtrace`.
    static func fallbackName(for path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? "finding.simtrace"
        guard name.utf8.count > fallbackNameBytes else { return name }
        let stem = name.hasSuffix(".simtrace") ? name.dropLast(".simtrace".count) : name[...]
        var short = ""
        for character in stem {
            guard short.utf8.count + character.utf8.count <= 80 else { break }
            short.append(character)
        }
        return (short.isEmpty ? "finding" : short) + ".simtrace"
    }

    /// A name claimed for one finding until `release`: `path`, guarded by a hidden `.<name>.claim`
    /// file beside it (created exclusively, holding the pid) so that two campaigns writing at once
    /// never pick the same name, while the final name only ever holds a complete trace.
    package struct Claim {
        package var path: String
        var lock: String?

        /// Removes the claim file (the trace, written or not, stays as it is).
        package func release() {
            if let lock { unlink(lock) }
        }
    }

    /// A name for a finding of `identity` near `wanted`: `wanted` when it is free or holds the same
    /// finding (a re-run of the campaign) and is none of `inputs`, else `<name>-2.simtrace`, -3, …
    /// The caller releases it once the trace is written.
    package static func claim(_ wanted: String, for identity: Identity, avoiding inputs: [String] = []) -> Claim {
        let stem = wanted.hasSuffix(".simtrace") ? String(wanted.dropLast(".simtrace".count)) : wanted
        let directory = OutputPath.directory(of: wanted)
        for number in 1...1000 {
            let candidate = number == 1 ? wanted : "\(stem)-\(number).simtrace"
            let name = candidate.split(separator: "/").last.map(String.init) ?? candidate
            let lock = "\(directory)/.\(name).claim"
            guard take(lock) else {
                if errno == EEXIST { continue }
                return Claim(path: wanted, lock: nil)  // the write reports what is wrong
            }
            var info = stat()
            // An input of the command (`fuzz --from` a trace saved here) is never written over.
            let isInput = inputs.contains { sameFile($0, candidate) }
            if !isInput && (lstat(candidate, &info) != 0 || holds(candidate, identity)) {
                return Claim(path: candidate, lock: lock)
            }
            unlink(lock)
        }
        return Claim(path: wanted, lock: nil)
    }

    /// Creates the claim file `lock`; a claim left by a process that no longer runs (killed) is taken over.
    private static func take(_ lock: String) -> Bool {
        for _ in 0..<2 {
            do {
                let fd = try SystemIO.open(lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
                try? SystemIO.writeAll(fd, Array("\(getpid())\n".utf8))
                close(fd)
                return true
            } catch {
                errno = error.rawValue
            }
            guard errno == EEXIST, let owner = try? AtomicFile.read(lock, limit: 64),
                let line = String(decoding: owner, as: UTF8.self).split(separator: "\n").first,
                let pid = Int32(line), pid > 0,
                kill(pid, 0) != 0 && errno == ESRCH
            else {
                errno = EEXIST
                return false
            }
            unlink(lock)
        }
        errno = EEXIST
        return false
    }

    /// True when the trace at `path` is a finding of `identity`.
    package static func holds(_ path: String, _ identity: Identity) -> Bool {
        guard let header = try? TraceReader(path: path).header else { return false }
        return Identity(
            scenario: header.scenario, variant: header.variant, strategy: header.strategy, seed: header.seed)
            == identity
    }
}
