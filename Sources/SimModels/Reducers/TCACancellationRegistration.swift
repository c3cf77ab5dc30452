extension TCA {
    /// When a `.cancellable` effect becomes reachable by `.cancel(id:)`.
    public enum CancellationRegistration: String, Sendable {
        /// TCA as shipped: `withTaskCancellation(id:)` runs inside the effect's task, so the effect is
        /// registered only once that task starts. A `.cancel` processed before then misses it
        /// (pointfreeco/swift-composable-architecture issues #1848, #3563, #3663; all open).
        case whenStarted
        /// What those issues expect: the effect is cancellable as soon as the reducer returns it; a
        /// `.cancel` that arrives before its task reaches the cancellable part stops that part from
        /// running (`effect.skip`). Not shipped upstream: a model of the requested behaviour.
        case whenReturned
    }
}
