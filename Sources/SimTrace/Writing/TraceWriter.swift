import SimCore

/// Records a run into a `.simtrace` file (or into memory) as it happens.
///
/// Attach it as the simulation's sink; when the run ends, `finish` writes the footer and renames the
/// temporary file into place. Memory stays bounded by one frame (about 1 MiB) plus the symbol table,
/// however long the run.
///
/// ```swift
/// let writer = try TraceWriter(path: "lost-input.simtrace", header: header)
/// let sim = Simulation(seed: 7, strategy: strategy, sink: writer)
/// // … run …
/// try writer.finish(TraceFooter(eventCount: writer.eventCount, …, digest: writer.digest))
/// ```
public final class TraceWriter: EventSink {
    /// The final path, or the in-memory name.
    public let path: String
    private let encoder: TraceEncoder
    private let file: FileOutput?
    private let memory: MemoryOutput?

    /// Starts a trace at a temporary name beside `path`; the header is written at once.
    ///
    /// A frame ends every `eventsPerFrame` events (or near 1 MiB of raw records): a trace cut short
    /// is readable up to its last frame.
    public init(
        path: String, header: TraceHeader, compressionLevel: Int32 = 3, eventsPerFrame: Int = 65_536
    ) throws(TraceError) {
        let output = try FileOutput(path: path)
        do {
            encoder = try TraceEncoder(
                output: output, file: path, header: header, compressionLevel: compressionLevel,
                eventsPerFrame: eventsPerFrame)
        } catch {
            output.abandon()
            throw error
        }
        self.path = path
        file = output
        memory = nil
    }

    /// Records into memory; after `finish`, `bytes` holds the whole trace file.
    public init(
        inMemory name: String = "<memory>", header: TraceHeader, compressionLevel: Int32 = 3,
        eventsPerFrame: Int = 65_536
    ) throws(TraceError) {
        let output = MemoryOutput()
        encoder = try TraceEncoder(
            output: output, file: name, header: header, compressionLevel: compressionLevel,
            eventsPerFrame: eventsPerFrame)
        path = name
        file = nil
        memory = output
    }

    /// The compressed bytes written so far.
    public var bytesWritten: UInt64 { encoder.bytesWritten }
    /// The decompressed bytes framed so far.
    public var rawBytesWritten: UInt64 { encoder.rawBytesWritten }
    /// Events recorded so far.
    public var eventCount: UInt64 { encoder.eventCount }
    /// Decisions recorded so far.
    public var decisionCount: UInt64 { encoder.decisionCount }
    /// The digest of the events recorded so far (equal to the simulation's own).
    public var digest: Digest { encoder.digest }
    /// Where the frames go until `finish` renames the file into place (nil in memory). A recording
    /// process that may die reports it, so its parent can seal what was written (`TraceSealer`).
    public var temporaryPath: String? { file?.temporaryPath }
    /// The trace's bytes so far, when recording in memory (empty for a file).
    public var bytes: [UInt8] { memory?.bytes ?? [] }

    /// Writes a symbol definition (each symbol once, before its first use).
    public func define(_ symbol: Symbol, _ text: String) { encoder.define(symbol, text) }
    /// Appends an event; ends the frame with a checkpoint when it is full.
    public func record(_ event: Event) { encoder.record(event) }
    /// Appends a decision.
    public func record(_ decision: Decision) { encoder.record(decision) }

    /// Ends the current frame now, so everything recorded so far survives a crash.
    public func checkpoint() { encoder.checkpoint() }

    /// Writes the footer and moves the file into place.
    ///
    /// Throws when recording failed earlier (I/O, limits) or when the footer's counts or digest do not
    /// match what was recorded; the temporary file is deleted in both cases.
    public func finish(_ footer: TraceFooter) throws(TraceError) {
        do {
            try encoder.finish(footer)
            try file?.commit()
        } catch {
            file?.abandon()
            throw error
        }
    }

    /// Stops recording and deletes the temporary file (a run nobody wants to keep).
    public func abandon() { file?.abandon() }
}
