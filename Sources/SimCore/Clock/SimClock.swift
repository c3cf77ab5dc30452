/// An instant on the virtual clock: nanoseconds since the start of the run.
public struct SimInstant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// Virtual nanoseconds since the start of the run.
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the start of the run.
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// The instant `duration` later (clamped to the representable range).
    public func advanced(by duration: Duration) -> SimInstant {
        SimInstant(nanoseconds: nanoseconds &+ duration.nanosecondsClamped)
    }

    /// The virtual time from this instant to `other`.
    public func duration(to other: SimInstant) -> Duration {
        .nanoseconds(other.nanoseconds &- nanoseconds)
    }

    /// Earlier instants order first.
    public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// `t=` and the duration since the start, e.g. `t=0.3 seconds`.
    public var description: String { "t=\(Duration.nanoseconds(nanoseconds))" }
}

/// The simulation's clock, a Swift `Clock`: code written against `any Clock<Duration>` runs on it.
/// Sleeping sets a timer on the virtual clock; time only moves when nothing else is ready.
///
/// Use it only from code running inside its simulation (see `Simulation`'s threading rule).
public struct SimClock: Clock, Sendable {
    /// Instants are virtual: nanoseconds since the start of the run.
    public typealias Instant = SimInstant
    /// Durations are Swift's own.
    public typealias Duration = Swift.Duration

    let simulation: Simulation

    init(simulation: Simulation) { self.simulation = simulation }

    /// The simulation's current virtual time.
    public var now: SimInstant { SimInstant(nanoseconds: simulation.now) }
    /// One nanosecond: virtual time has no coarser grain.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends the calling task until the virtual clock reaches `deadline` (a timer on its lane).
    public func sleep(until deadline: SimInstant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let sleeper = Sleeper(simulation: simulation)
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                sleeper.begin(continuation, deadline: deadline.nanoseconds)
            }
        } onCancel: {
            sleeper.cancel()
        }
    }
}

/// The state of one `sleep`: its continuation and timer. Touched only on the simulation's thread.
private final class Sleeper: @unchecked Sendable {
    let simulation: Simulation
    var continuation: UnsafeContinuation<Void, any Error>?
    var timer: TimerHandle?
    var cancelled = false

    init(simulation: Simulation) { self.simulation = simulation }

    func begin(_ continuation: UnsafeContinuation<Void, any Error>, deadline: Int64) {
        if cancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        self.continuation = continuation
        timer = simulation.schedule(at: deadline, "clock.sleep") { [self] in
            simulation.emit("clock.wake", "sleep")
            self.continuation?.resume()
            self.continuation = nil
        }
    }

    func cancel() {
        cancelled = true
        guard let continuation else { return }
        self.continuation = nil
        if let timer { simulation.cancel(timer) }
        continuation.resume(throwing: CancellationError())
    }
}

extension Simulation {
    /// The virtual clock of this run.
    public var clock: SimClock { SimClock(simulation: self) }
}
