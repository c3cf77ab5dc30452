import SimEngine
import SimTrace

/// A command whose trace argument must be a file it can read more than once (`replay` reads the
/// last frame, then the whole file, and a crashed run is replayed in a child process; `explain`
/// reads it again for the timeline). A pipe, FIFO or `/dev/stdin` is read whole into a temporary
/// file first, removed when the command ends: `cat t.simtrace | simrun replay /dev/stdin` works as
/// `show` does.
protocol ReadsTraceTwice: CatalogCommand {
    var trace: String { get set }
}

extension ReplayCommand: ReadsTraceTwice {}
extension ExplainCommand: ReadsTraceTwice {}

/// The temporary copy of a trace that is not a regular file.
struct SpooledTrace {
    /// The path to read: the argument itself when it is a regular file.
    let path: String
    private let temporary: Bool

    /// Copies `argument` into `$TMPDIR` unless it is a regular file (or missing: the command says so).
    init(_ argument: String) throws(CommandFailure) {
        var info = stat()
        guard stat(argument, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR
        else {
            (path, temporary) = (argument, false)
            return
        }
        let bytes = try AtomicFile.read(argument, limit: 1 << 32)
        let copy = try TemporaryDirectory.makeDirectory(prefix: "simrun-input") + "/input.simtrace"
        do throws(TraceError) {
            try OutputTarget.write(bytes, to: copy)
        } catch {
            TemporaryDirectory.removeDirectory(OutputPath.directory(of: copy))
            throw CommandFailure(ExitStatus.cannotWrite, "cannot copy \(argument) to a temporary file: \(error.detail)")
        }
        (path, temporary) = (copy, true)
    }

    /// Removes the copy.
    func remove() {
        guard temporary else { return }
        TemporaryDirectory.removeDirectory(OutputPath.directory(of: path))
    }
}
