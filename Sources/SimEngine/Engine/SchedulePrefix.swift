import SimCore

/// The head of a recorded schedule that runs keep before their strategy takes over: what
/// `fuzz --from` explores around, and what `explain` varies.
public struct SchedulePrefix: Sendable {
    /// The recorded decisions (with their strings).
    public var tape: Tape
    /// How many of them every run follows (at most `tape.count`).
    public var keep: Int
    /// The trace file the tape came from, so worker processes can load the same prefix.
    public var source: String?

    /// Keeps the first `keep` decisions of `tape` (clamped to its length).
    public init(tape: Tape, keep: Int, source: String? = nil) {
        self.tape = tape
        self.keep = min(max(0, keep), tape.count)
        self.source = source
    }
}
