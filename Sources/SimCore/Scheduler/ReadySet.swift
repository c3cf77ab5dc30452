/// One thing that could run now: the head job of a lane, or a timer that is due.
public struct Candidate: Sendable, Hashable {
    /// The lane the job would run on.
    public var lane: Symbol
    /// The job's label.
    public var label: Symbol
    /// Which job of that lane and label this is, in posting order.
    public var ordinal: UInt32
    /// Global posting order (timers: when they were set).
    public var seq: UInt64
    /// True for a due timer rather than a lane's head job.
    public var isTimer: Bool
    @usableFromInline package var laneIndex: Int32
    @usableFromInline package var timerSlot: Int32

    /// A candidate as the scheduler (or a carrier's paused job) lists it.
    package init(
        lane: Symbol, label: Symbol, ordinal: UInt32, seq: UInt64, isTimer: Bool, laneIndex: Int32, timerSlot: Int32
    ) {
        self.lane = lane
        self.label = label
        self.ordinal = ordinal
        self.seq = seq
        self.isTimer = isTimer
        self.laneIndex = laneIndex
        self.timerSlot = timerSlot
    }
}

/// What a strategy sees when it picks: the candidates, which one `fifo` would take, and which one
/// continues the lane that ran last (so that switching away from it counts as a preemption).
///
/// A view of the scheduler's own ready list, valid only during the `pick` call it is passed to
/// (nothing is copied to build it). Read candidates by index (`ready[i]`, `ready.count`); the
/// `candidates` array is a copy, for strategies that want one.
public struct ReadySet {
    @usableFromInline let buffer: UnsafeBufferPointer<Candidate>
    /// The candidate with the smallest posting order.
    public let fifoIndex: Int
    /// The candidate on the lane that ran the previous step, if that lane is still ready.
    public let continuingIndex: Int?
    /// Steps taken so far in this run.
    public let step: Int
    @usableFromInline unowned(unsafe) let symbolTable: SymbolTable

    init(
        buffer: UnsafeBufferPointer<Candidate>, fifoIndex: Int, continuingIndex: Int?, step: Int,
        symbols: SymbolTable
    ) {
        self.buffer = buffer
        self.fifoIndex = fifoIndex
        self.continuingIndex = continuingIndex
        self.step = step
        self.symbolTable = symbols
    }

    /// The run's symbols (to read lane and label names).
    public var symbols: SymbolTable { symbolTable }

    /// The candidates, copied into an array.
    public var candidates: [Candidate] { Array(buffer) }

    /// The number of candidates.
    public var count: Int { buffer.count }

    /// The candidate at `index` (`0..<count`).
    @inlinable
    public subscript(index: Int) -> Candidate { buffer[index] }

    /// `0..<count`.
    public var indices: Range<Int> { 0..<buffer.count }
}
