import SimCapture
import SimCore
import Testing

/// Checks an object's calls for linearizability from a test, in one call: explores `seeds` schedules
/// of the scenarios `check` generates (each seed names a scenario of concurrent calls and a schedule)
/// on `variant`; on the first failure, shrinks it — fewer tasks, fewer calls, simpler arguments, then
/// the schedule — saves the trace, attaches it and records one `Issue` with the table of calls and
/// results and the `replay` command.
///
/// ```swift
/// @Test func counterIsLinearizable() {
///     checkLinearizability(of: ObjectCheck<Counter>(
///         name: "counter", summary: "increments are not lost",
///         variants: [.init("current", "the code as it is") { _ in Counter() }],
///         operations: [.init("increment") { await $0.increment() }, .init("value") { await $0.value }]))
/// }
/// ```
///
/// Whatever property the variant declares, this checks linearizability (see `checkAtomicity`).
/// The other parameters are `explore`'s.
@discardableResult
public func checkLinearizability<Object>(
    of check: ObjectCheck<Object>, variant: String? = nil, strategy: String = "pct", seeds: Range<UInt64> = 0..<1_000,
    seconds: Double? = nil, failureDirectory: String = "simrun-failures", programName: String = "simrun",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Exploration {
    explore(
        check.checking(.linearizable).scenario(), variant: variant, strategy: strategy, seeds: seeds, seconds: seconds,
        failureDirectory: failureDirectory, programName: programName, sourceLocation: sourceLocation)
}

/// Checks that no call's result is changed by another call running at one of its `await`s (each call
/// returns what it returns run without interruption, in invocation order): stronger than
/// linearizability, and what reentrancy bugs break first. A failure names the call and the one that
/// interleaved it: "call t1.1 next() was interleaved at its await by call t2.1 next()".
/// Parameters as `checkLinearizability`.
@discardableResult
public func checkAtomicity<Object>(
    of check: ObjectCheck<Object>, variant: String? = nil, strategy: String = "pct", seeds: Range<UInt64> = 0..<1_000,
    seconds: Double? = nil, failureDirectory: String = "simrun-failures", programName: String = "simrun",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Exploration {
    explore(
        check.checking(.atomic).scenario(), variant: variant, strategy: strategy, seeds: seeds, seconds: seconds,
        failureDirectory: failureDirectory, programName: programName, sourceLocation: sourceLocation)
}
