/// One thing that could run now: the head job of a lane, or a timer that is due.
public struct Candidate: Sendable, Hashable {
    public var lane: Symbol
    public var label: Symbol
    public var ordinal: UInt32
    /// Global posting order (timers: when they were set).
    public var seq: UInt64
    public var isTimer: Bool
    @usableFromInline var laneIndex: Int32
    @usableFromInline var timerSlot: Int32
}

/// What a strategy sees when it picks: the candidates, which one `fifo` would take, and which one
/// continues the lane that ran last (so that switching away from it counts as a preemption).
public struct ReadySet {
    public let candidates: [Candidate]
    /// The candidate with the smallest posting order.
    public let fifoIndex: Int
    /// The candidate on the lane that ran the previous step, if that lane is still ready.
    public let continuingIndex: Int?
    /// Steps taken so far in this run.
    public let step: Int
    public let symbols: SymbolTable

    public var count: Int { candidates.count }
}
