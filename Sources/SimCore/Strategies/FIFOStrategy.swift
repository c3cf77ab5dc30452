/// Runs jobs in the order they were posted and takes every default: the order a test store with a
/// test clock would give. The baseline every other strategy departs from.
public final class FIFOStrategy: Strategy {
    public init() {}
    public var description: String { "fifo" }
    public func start(seed: UInt64, symbols: SymbolTable) {}
    public func pick(_ ready: ReadySet) -> Int { ready.fifoIndex }
    public func choose(_ count: Int, kind: DecisionKind, site: Symbol) -> Int { 0 }
}
