import SystemPackage
import SimCore

/// Finishes a trace whose recording process died (a trap): its complete frames are kept, whatever
/// follows them is cut off, and a footer with the given verdict is appended before the file is
/// renamed into place. The result reads as a complete trace of the run up to the crash.
public enum TraceSealer {
    /// What a sealed trace holds.
    public struct Sealed: Sendable {
        /// The footer that was appended.
        public var footer: TraceFooter
        /// The last event recorded before the crash (nil when none was).
        public var lastEvent: Event?
        /// The text of the last event's kind and subject, for messages.
        public var lastEventText: String
    }

    /// Seals the partial trace at `partial` with `verdict` and renames it to `path`.
    ///
    /// The partial must have no footer (a process that finished normally writes its own).
    /// `trapFrames`: where the process trapped (``TraceFooter/trapFrames``), when known.
    public static func seal(partial: String, as path: String, verdict: Verdict, trapFrames: [String] = [])
        throws(TraceError) -> Sealed
    {
        let reader = try TraceReader(path: partial)
        var digest = Digest()
        var steps: UInt64 = 0
        var last: Event?
        let pickText = "sched.pick"
        while let record = try reader.next() {
            guard case .event(let event) = record else { continue }
            digest.mix(event) { reader.contentHash($0) }
            if reader.text(event.kind) == pickText { steps += 1 }
            last = event
        }
        guard reader.footer == nil else {
            throw TraceError(
                .malformedRecord, file: partial, offset: 0, expected: "a trace cut short (no footer)",
                detail: "it is complete")
        }
        // Where the last complete frame ends: anything after it is a frame the process never finished.
        let keep = reader.frames.frameFileOffset
        let footer = TraceFooter(
            eventCount: reader.eventCount, decisionCount: reader.decisionCount, steps: steps,
            endTime: last?.time ?? 0, verdict: verdict, digest: digest, trapFrames: trapFrames)
        let buffer = RecordBuffer(capacity: 256)
        footer.encode(into: buffer)
        let compressor = try FrameCompressor(level: 3, file: partial)
        let frame = try compressor.compress(buffer.bytes, file: partial, offset: keep)
        try append(frame, to: partial, at: keep)
        // Published like every trace (`FileOutput.commit`): synced, renamed, its directory synced.
        do throws(Errno) {
            try SystemIO.publish(partial, as: path)
        } catch {
            throw TraceError(
                .unreadable, file: path, offset: 0, expected: "to rename the sealed trace into place",
                detail: FileOutput.message(error.rawValue))
        }
        let text = last.map { "\(reader.text($0.kind)) \(reader.text($0.subject))" } ?? ""
        return Sealed(footer: footer, lastEvent: last, lastEventText: text)
    }

    private static func append(_ frame: UnsafeRawBufferPointer, to path: String, at offset: UInt64)
        throws(TraceError)
    {
        let fd: Int32
        do {
            fd = try SystemIO.open(path, O_WRONLY)
        } catch {
            throw TraceError(
                .unreadable, file: path, offset: 0, expected: "to open the partial trace for writing",
                detail: FileOutput.message(error.rawValue))
        }
        defer { close(fd) }
        guard ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) >= 0 else {
            let code = errno
            throw TraceError(
                .unreadable, file: path, offset: offset, expected: "to cut the partial trace at its last frame",
                detail: FileOutput.message(code))
        }
        do throws(Errno) {
            try SystemIO.writeAll(fd, frame)
            try SystemIO.sync(fd)
        } catch {
            throw TraceError(
                .unreadable, file: path, offset: offset, expected: "to append the footer",
                detail: FileOutput.message(error.rawValue))
        }
    }
}
