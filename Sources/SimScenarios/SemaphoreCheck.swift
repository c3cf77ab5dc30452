import SimCapture
import SimCore

/// An async semaphore (a rate limiter's permit pool) of two permits whose `tryAcquire` checks for a
/// permit, awaits its audit log, then takes it: three callers during one await all get a permit.
///
/// `buggy`: check, await the audit, take. `fixed`: take, then await the audit. `release()` returns a
/// permit (never more than two).
///
/// Known minimal scenario: three `tryAcquire()` calls → true, true, true (one at a time, the third
/// gets false); two calls are not enough, two permits cover them. The shrinker, which removes calls
/// before tasks, reaches them as `tryAcquire()` ‖ `tryAcquire(); tryAcquire()`; three tasks of one
/// call each (`minimal`) are the same three calls.
public enum SemaphoreCheck {
    /// The minimal failing scenario shrinking reaches.
    public static let minimal = CallScenario(tasks: [[.init(0)], [.init(0)], [.init(0)]])

    /// The declaration: `tryAcquire()` and `release()`.
    public static let check = ObjectCheck<AuditedSemaphore>(
        name: "semaphore-check",
        summary: "a semaphore of two permits checks, awaits its audit, takes: three callers all get one",
        variants: [
            .init("buggy", "check for a permit, await the audit, take it") { _ in AuditedSemaphore(takesFirst: false) },
            .init("fixed", "take the permit, then await the audit") { _ in AuditedSemaphore(takesFirst: true) },
        ],
        operations: [
            .init("tryAcquire") { await $0.tryAcquire() },
            .init("release") { await $0.release() },
        ])

    /// The scenario `simrun list` shows.
    public static let scenario = check.scenario()
}

/// The semaphore under test: two permits.
public actor AuditedSemaphore {
    let audit = WriteAheadLog()
    let takesFirst: Bool
    let permits = 2
    private var available = 2

    init(takesFirst: Bool) { self.takesFirst = takesFirst }

    /// Takes a permit when one is free; false (without waiting) when none is.
    public func tryAcquire() async -> Bool {
        guard available > 0 else { return false }
        if takesFirst {
            available -= 1
            await audit.append(available)
            return true
        }
        await audit.append(available - 1)
        available -= 1
        return true
    }

    /// Gives a permit back (at most `permits` are ever free).
    public func release() { available = min(permits, available + 1) }
}
