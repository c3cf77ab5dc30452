/// Bounds that turn a run that never settles into a verdict instead of a hang.
public struct RunLimits: Sendable, Hashable {
    /// Jobs executed before the run ends with "no progress".
    public var maxSteps: Int
    /// Virtual nanoseconds before the run ends with "no progress".
    public var maxVirtualNanoseconds: Int64

    /// Bounds of `maxSteps` jobs and `maxVirtualNanoseconds` of virtual time (one hour by default).
    public init(maxSteps: Int = 100_000, maxVirtualNanoseconds: Int64 = 3_600_000_000_000) {
        self.maxSteps = maxSteps
        self.maxVirtualNanoseconds = maxVirtualNanoseconds
    }

    /// 100,000 steps and one virtual hour: what scenarios get unless they say otherwise.
    public static let standard = RunLimits()
}
