import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Results go to stdout, progress and errors to stderr; progress is live only on a terminal.
public final class Console: Sendable {
    private let lock = Mutex<Bool>(false)  // true while a live progress line is on screen
    private let captured: CaptureBuffer?

    /// A console on the process's stdout and stderr.
    public init() { captured = nil }

    /// A console that keeps what it would print (stdout lines, then `err:`-prefixed stderr lines
    /// interleaved in order), for tests of the command tree in-process.
    public init(capturing: Bool) { captured = capturing ? CaptureBuffer() : nil }

    /// Everything printed so far, when capturing.
    public var capturedLines: [String] { captured?.lines.withLock { $0 } ?? [] }

    /// What went to stdout, when capturing.
    public var capturedOutput: String {
        capturedLines.filter { !$0.hasPrefix("err: ") }.joined(separator: "\n")
    }

    private func write(_ fd: Int32, _ text: String) {
        if let captured {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            captured.lines.withLock { $0 += lines.map { fd == 2 ? "err: " + $0 : $0 } }
            return
        }
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    public func out(_ line: String) {
        lock.withLock { live in
            if live {
                write(2, "\n")
                live = false
            }
            write(1, line + "\n")
        }
    }

    public func err(_ line: String) {
        lock.withLock { live in
            if live {
                write(2, "\n")
                live = false
            }
            write(2, line + "\n")
        }
    }

    /// True when stderr is a terminal (progress lines rewrite themselves).
    public var isInteractive: Bool { captured == nil && isatty(2) == 1 }

    /// A progress line: rewritten in place on a terminal, printed plainly otherwise.
    public func progress(_ line: String) {
        lock.withLock { live in
            if isInteractive {
                write(2, "\r\u{1B}[2K" + line)
                live = true
            } else {
                write(2, line + "\n")
            }
        }
    }

    /// Ends a live progress line.
    public func endProgress() {
        lock.withLock { live in
            if live {
                write(2, "\n")
                live = false
            }
        }
    }
}

/// Lines kept by a capturing console.
final class CaptureBuffer: Sendable {
    package let lines = Mutex<[String]>([])
}

/// `write(2)`, named apart from `Console.write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
