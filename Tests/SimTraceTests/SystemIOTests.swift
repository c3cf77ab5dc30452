import Foundation
import SimTestSupport
import SystemPackage
import Testing

@testable import SimTrace

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one I/O layer (`SystemIO`): an interrupted read is retried there (not returned as an error),
/// a write of nothing is "no space" (not a loop), and a published file is under its final name only.
@Suite(.serialized) struct SystemIOTests {
    /// A signal handler installed without SA_RESTART makes a blocked `read` fail with EINTR: the
    /// reader must go on waiting and return the byte written after the signal.
    @Test func aReadInterruptedByASignalIsRetried() throws {
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = { _ in }
        #else
            action.__sigaction_handler.sa_handler = { _ in }
        #endif
        action.sa_flags = 0  // no SA_RESTART: the kernel returns EINTR to the reader
        var previous = sigaction()
        #expect(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer {
            close(pipeEnds[0])
            close(pipeEnds[1])
        }
        // The test runs on a pool thread, which blocks signals: this thread takes SIGUSR2 for now.
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, SIGUSR2)
        var mask = sigset_t()
        #expect(pthread_sigmask(SIG_UNBLOCK, &only, &mask) == 0)
        defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
        let reader = pthread_self()
        let writeEnd = pipeEnds[1]
        let helper = Thread {
            usleep(150_000)
            pthread_kill(reader, SIGUSR2)  // interrupts the blocked read
            usleep(150_000)
            var byte: UInt8 = 42
            _ = write(writeEnd, &byte, 1)
        }
        helper.start()
        var buffer = [UInt8](repeating: 0, count: 1)
        let count = try buffer.withUnsafeMutableBytes { raw in try SystemIO.read(pipeEnds[0], into: raw) }
        #expect(count == 1 && buffer[0] == 42)
    }

    /// Linux and Darwin's /dev/full: every write fails with ENOSPC.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full on this platform"))
    func aWriteThatWritesNothingIsNoSpace() throws {
        let fd = try SystemIO.open("/dev/full", O_WRONLY)
        defer { close(fd) }
        #expect(throws: Errno.noSpace) { try SystemIO.writeAll(fd, Array("x".utf8)) }
    }

    @Test func aPublishedFileIsUnderItsFinalNameOnly() throws {
        let directory = try makeTemporaryDirectory("system-io")
        defer { try? FileManager.default.removeItem(at: directory) }
        let temporary = directory.appendingPathComponent("r.json.tmp").path
        let final = directory.appendingPathComponent("r.json").path
        let fd = try SystemIO.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        try SystemIO.writeAll(fd, Array("{}\n".utf8))
        try SystemIO.sync(fd)
        close(fd)
        try SystemIO.publish(temporary, as: final)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["r.json"])
        #expect(try String(contentsOfFile: final, encoding: .utf8) == "{}\n")
        #expect(throws: Errno.noSuchFileOrDirectory) { try SystemIO.publish(temporary, as: final) }
    }
}
