/// An instant on the virtual clock: nanoseconds since the start of the run.
public struct SimInstant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public func advanced(by duration: Duration) -> SimInstant {
        SimInstant(nanoseconds: nanoseconds &+ duration.nanosecondsClamped)
    }

    public func duration(to other: SimInstant) -> Duration {
        .nanoseconds(other.nanoseconds &- nanoseconds)
    }

    public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var description: String { "t=\(Duration.nanoseconds(nanoseconds))" }
}

/// The simulation's clock, a Swift `Clock`: code written against `any Clock<Duration>` runs on it.
/// Sleeping sets a timer on the virtual clock; time only moves when nothing else is ready.
///
/// Use it only from code running inside its simulation (see `Simulation`'s threading rule).
public struct SimClock: Clock, Sendable {
    public typealias Instant = SimInstant
    public typealias Duration = Swift.Duration

    let simulation: Simulation

    init(simulation: Simulation) { self.simulation = simulation }

    public var now: SimInstant { SimInstant(nanoseconds: simulation.now) }
    public var minimumResolution: Duration { .nanoseconds(1) }

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
