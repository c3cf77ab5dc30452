import SimCore

/// The head of a recorded schedule that runs keep before their strategy takes over: what
/// `fuzz --from` explores around, and what `explain` varies.
public struct SchedulePrefix: Sendable {
    /// The recorded decisions (with their strings).
    public var tape: Tape
    /// How many of them every run follows (at most `tape.count`).
    public var keep: Int

    /// Keeps the first `keep` decisions of `tape` (clamped to its length).
    public init(tape: Tape, keep: Int) {
        self.tape = tape
        self.keep = min(max(0, keep), tape.count)
    }
}
