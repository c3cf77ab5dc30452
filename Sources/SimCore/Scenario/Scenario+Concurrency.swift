extension Scenario {
    /// What a scenario needs from the concurrency runtime.
    public enum Concurrency: String, Sendable {
        /// Jobs posted by the scenario itself, and `sim.spawn` tasks: runs anywhere.
        case kernel
        /// Plain async code that both capture routes hold (tests included): see the capture matrix in
        /// SimCapture's article "Your own async code" — tasks, task groups, continuations, and actors, sleeps and `Task.yield()` reached
        /// from the body and its task-group children.
        case eitherRoute
        /// Anything else — `@MainActor` code, calls into actors that suspend inside `Task {}` — needs the
        /// executor-factory route: an executable built on `SimRun.main`, or a test process where
        /// simrun's load-time constructor installed it first (`ExecutorFactoryGate`).
        case executorFactory
    }
}
