import CSimInterpose
import SimTrace
import Synchronization

/// Ctrl-C, SIGTERM and SIGHUP (a closed terminal). Every command of the `simrun` executable honours
/// them within a moment, with exit 130 and nothing half-written nor left behind:
///
/// - A command that can stop and report what ran (`fuzz`) asks for it with `install()`: the first
///   signal sets a flag it polls between runs; a second one ends the process at once.
/// - Every other command (`explain`, `bench`, `shrink`, `replay`, `merge`, …) gets `installImmediate()`
///   from `SimRun.main`: the first signal ends the process.
///
/// Ending the process is done by a thread of its own, woken by the handler (which only writes a
/// byte to a pipe): it stops the children the command started (children.c's table: SIGTERM, then
/// SIGKILL a moment later), removes the temporary files and directories once nothing writes there
/// any more (`PendingFiles`, `TemporaryDirectory`), prints the `--json` document when the command
/// promised one (`armDocument`, marked partial) and the interruption line naming the program as it
/// was run, and exits 130. A signal that comes while that thread works ends the process from the
/// handler itself (what is async-signal-safe of the same: the files, the document, the line).
///
/// The state is process-wide because a signal handler can reach nothing else. Only the command-line
/// driver reads it, between runs: no simulation ever sees it, so it cannot change a schedule.
package enum Interruption {
    /// Signals received so far.
    private static let signals = Atomic<Int>(0)
    /// True once a command said it polls the flag (`install`).
    private static let polled = Atomic<Bool>(false)
    /// True once the handlers and the ending thread are in place.
    private static let installed = Atomic<Bool>(false)
    /// The write end of the pipe that wakes the ending thread (-1 until it runs).
    private static let wake = Atomic<Int32>(-1)
    /// The interruption line (`\n<program>: interrupted; …\n`), as bytes made at install: a
    /// pointer to a block whose first word is the length (never freed: a handler may be reading it).
    private static let line = Atomic<Int>(0)
    /// The `--json` document to print when interrupted: 0 none, 1 taken (printed here, or the
    /// command printed its own), else a block as `line`'s.
    private static let document = Atomic<Int>(0)

    /// True once SIGINT, SIGTERM or SIGHUP arrived.
    package static var isRequested: Bool { signals.load(ordering: .relaxed) > 0 }

    /// True once a signal is ending the process: what the command still prints is dropped (an error
    /// from a child the ending stopped is no result), and it must not exit with a code of its own.
    package static var isEnding: Bool { ending.load(ordering: .acquiring) }
    private static let ending = Atomic<Bool>(false)

    /// Returns at once, unless a signal is ending the process: then waits for that (exit 130).
    package static func waitIfEnding() {
        while isEnding { sleep(1) }
    }

    /// Polled handling (idempotent): the first signal sets `isRequested`, a second ends the process.
    package static func install() {
        polled.store(true, ordering: .relaxed)
        installHandlers()
    }

    /// Immediate handling: the first signal ends the process (exit 130). A later `install()`
    /// switches to polled handling.
    package static func installImmediate() {
        installHandlers()
    }

    /// In a child of simrun (a `ChildEntry` job or `_rerun`, which leave interruption to their parent): a
    /// SIGTERM — the parent ending — removes the files this child was writing before it dies of it.
    package static func installChildCleanup() {
        PendingFiles.prepare()
        let handler: @convention(c) (Int32) -> Void = { number in
            // No new temporary file and no new child from here (its other threads go on until it dies).
            PendingFiles.close()
            simrun_children_close()
            // Its own children (a shrink's recordings) would die with it, killed: ask them first, so
            // that they remove their files too — within the 5 s its parent gives this child.
            _ = simrun_children_end(4_000)
            PendingFiles.removeAll()
            signal(number, SIG_DFL)
            raise(number)
        }
        _ = signal(SIGTERM, handler)
    }

    /// The document printed if a signal ends the command before it printed its own (one line of
    /// JSON, without the newline); nil withdraws it. A command that prints its document calls
    /// `takeDocument()` first.
    package static func armDocument(_ text: String?) {
        let block = text.map { makeBlock($0 + "\n") } ?? 0
        let old = document.exchange(block, ordering: .acquiringAndReleasing)
        if old == 1 { document.store(1, ordering: .releasing) }  // already taken by an interruption
    }

    /// The line an interruption prints on stderr, naming the program as it was run.
    package static func interruptedLine(program: String) -> String {
        "\(program): interrupted; stopped before the end, no output file was left half-written"
    }

    /// Called by a command about to print its own `--json` document: false when the interruption
    /// already printed one (the process is ending; a second document would break the one-document
    /// contract), true otherwise.
    package static func takeDocument() -> Bool {
        document.exchange(0, ordering: .acquiringAndReleasing) != 1
    }

    private static func installHandlers() {
        PendingFiles.prepare()
        let program = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "simrun") } ?? "simrun"
        if line.load(ordering: .acquiring) == 0 {
            line.store(
                makeBlock("\n" + interruptedLine(program: program) + "\n"),
                ordering: .releasing)
        }
        if !installed.exchange(true, ordering: .acquiringAndReleasing) { startEndingThread() }
        // A parent may have started us with these signals blocked (test runners do): a handler alone
        // would never run.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in handled { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in handled { installHandler(number) }
    }

    /// The signals that interrupt a command.
    private static let handled = [SIGINT, SIGTERM, SIGHUP]

    /// The handler: counts the signal; a polling command's first one only sets the flag; the one that
    /// ends the process wakes the ending thread, and any after it (or with no thread) ends it here.
    private static func installHandler(_ number: Int32) {
        let handler: @convention(c) (Int32) -> Void = { _ in
            let count = Interruption.signals.add(1, ordering: .acquiringAndReleasing).newValue
            let polling = Interruption.polled.load(ordering: .relaxed)
            if polling && count == 1 { return }
            let ending = polling ? count == 2 : count == 1
            let fd = Interruption.wake.load(ordering: .acquiring)
            if ending && fd >= 0 {
                var byte: UInt8 = 1
                if write(fd, &byte, 1) == 1 { return }
            }
            Interruption.endNow()
        }
        _ = signal(number, handler)
    }

    /// Ends the process: the async-signal-safe part (callable from a handler).
    private static func endNow() -> Never {
        ending.store(true, ordering: .releasing)
        // Children run in process groups of their own: none may outlive us (children.c).
        _ = simrun_children_kill_all()
        PendingFiles.removeAll()
        let taken = document.exchange(1, ordering: .acquiringAndReleasing)
        if taken > 1 { writeBlock(taken, to: 1) }
        writeBlock(line.load(ordering: .acquiring), to: 2)
        _exit(130)  // 128 + SIGINT, as shells report a Ctrl-C (SimRunKit's ExitStatus.interrupted)
    }

    /// The thread that ends the process at the first ending signal: children first, then files.
    private static func startEndingThread() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let reader = fds[0]
        let started = PlainThread.detach {
            var byte: UInt8 = 0
            while read(reader, &byte, 1) != 1 {
                if errno != EINTR { return }
            }
            ending.store(true, ordering: .releasing)
            // The command's thread may still write to a child this ends: an error, never SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            // No new temporary file from here (the command's thread goes on until the exit); the
            // children are ended before their directories are removed, so none writes there after.
            PendingFiles.close()
            simrun_children_close()
            endChildren()
            TemporaryDirectory.removeAll()
            endNow()
        }
        if started {
            wake.store(fds[1], ordering: .releasing)
        } else {
            close(fds[0])
            close(fds[1])
        }
    }

    /// Ends every child the command started (their process groups): SIGTERM first — a child of
    /// simrun then removes the files it was writing — and SIGKILL for those still there a second later.
    private static func endChildren() {
        guard simrun_children_signal_all(SIGTERM) > 0 else { return }
        // A child that ended stays listed until the thread that started it has waited for it.
        // Up to 5 s: a child in a long write or sync on a loaded machine handles SIGTERM only once
        // the call returns, and killed it would leave its file.
        for _ in 0..<500 where simrun_children_alive() > 0 { usleep(10_000) }
        _ = simrun_children_kill_all()
    }

    /// A block holding `text`'s bytes after a word with their count (never freed).
    private static func makeBlock(_ text: String) -> Int {
        let bytes = Array(text.utf8)
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Int>.size + bytes.count, alignment: MemoryLayout<Int>.alignment)
        raw.storeBytes(of: bytes.count, as: Int.self)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress {
                (raw + MemoryLayout<Int>.size).copyMemory(from: base, byteCount: bytes.count)
            }
        }
        return Int(bitPattern: raw)
    }

    /// Writes a block made by `makeBlock` to `fd` (async-signal-safe: `write` only).
    private static func writeBlock(_ bits: Int, to fd: Int32) {
        guard bits > 1, let raw = UnsafeRawPointer(bitPattern: bits) else { return }
        var count = raw.load(as: Int.self)
        var next = raw + MemoryLayout<Int>.size
        while count > 0 {
            let written = write(fd, next, count)
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                return
            }
            count -= written
            next += written
        }
    }
}
