import SimCore
import SimTrace

/// Records into a trace writer and ends a frame after every record, so that when the process dies
/// mid-run (a trap) the file holds everything up to the last event before it.
///
/// A frame per record costs a zstd frame header each: used only to re-run one schedule that crashed.
package final class CheckpointingSink: EventSink {
    package let writer: TraceWriter

    package init(writer: TraceWriter) { self.writer = writer }

    package func define(_ symbol: Symbol, _ text: String) { writer.define(symbol, text) }

    package func record(_ event: Event) {
        writer.record(event)
        writer.checkpoint()
    }

    package func record(_ decision: Decision) {
        writer.record(decision)
        writer.checkpoint()
    }
}
