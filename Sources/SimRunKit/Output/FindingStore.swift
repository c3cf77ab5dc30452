import SimEngine

/// Saves a finding's trace where the user asked, and — when that fails after the campaign or run
/// has found something — in a fresh temporary directory instead, saying where: a failure to write
/// never loses a finding nor hides "bug found" (exit 1) behind "cannot write" (exit 73).
struct FindingStore {
    let console: Console

    /// Records with `record` to `path`; on a write failure, to the same file name in
    /// `$TMPDIR/simrun-findings-XXXXXX`. Returns the result and where the trace is.
    func save<Saved>(
        to path: String, _ record: (String) throws(CommandFailure) -> Saved
    ) throws(CommandFailure) -> (result: Saved, path: String) {
        do throws(CommandFailure) {
            try ensureDirectory(OutputPath.directory(of: path))
            return (try record(path), path)
        } catch  where error.code == ExitStatus.cannotWrite {
            let name = path.split(separator: "/").last.map(String.init) ?? "finding.simtrace"
            let fallback = try makeScratchDirectory(prefix: "simrun-findings") + "/" + name
            let result = try record(fallback)
            console.err("warning: \(error.message); the trace was saved to \(fallback) instead")
            return (result, fallback)
        }
    }
}
