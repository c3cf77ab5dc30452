/// Runs jobs in the order they were posted and takes every default: the order a test store with a
/// test clock would give. The baseline every other strategy departs from.
public final class FIFOStrategy: Strategy {
    /// The default schedule: no choices.
    public init() {}
    /// `fifo`.
    public var description: String { "fifo" }
    /// Nothing to reset: the schedule does not depend on the seed.
    public func start(seed: UInt64, symbols: SymbolTable) {}
    /// The job that was made ready first.
    public func pick(_ ready: ReadySet) -> Int { ready.fifoIndex }
    /// Always the first value, 0.
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int { 0 }
}
