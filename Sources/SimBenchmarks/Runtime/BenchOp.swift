/// One operation of a benchmark thread. Every primitive operation is one job on the thread's lane,
/// hence one scheduling point, as in SCTBench's study (synchronisation operations and the shared
/// accesses it treated as visible). Control flow (`loop`, `when`) takes no job of its own: its
/// condition is evaluated at the end of the preceding job, so it belongs to that atomic block; a
/// condition on racy shared state reads it in a `step` first.
public indirect enum BenchOp {
    /// Runs `body` as one job labelled `label` (`"write x"`, `"read flag"`: verb, then the object).
    case step(String, () -> Void)
    /// Takes `mutex`; the thread is blocked while another holds it.
    case lock(BenchMutex)
    /// Releases `mutex`.
    case unlock(BenchMutex)
    /// Releases `mutex` and sleeps on `condition`; wakes (when signalled) by re-taking `mutex`.
    case wait(BenchCondition, BenchMutex)
    /// Wakes the longest-waiting thread on `condition`, if any (a signal with no waiter is lost).
    case signal(BenchCondition)
    /// Wakes every thread waiting on `condition`.
    case broadcast(BenchCondition)
    /// Starts `thread` (it becomes runnable at once).
    case spawn(BenchThread)
    /// Blocks until `thread` has finished.
    case join(BenchThread)
    /// Repeats `body` while `condition` holds (see `repeatWhile`).
    case loop(() -> Bool, [BenchOp])
    /// Runs the first list when the condition holds, else the second (see `when`).
    case branch(() -> Bool, [BenchOp], [BenchOp])
    /// Thread-local computation with no job of its own: part of the preceding atomic block.
    case local(() -> Void)
    /// An operation decided when the thread gets there (`lock(locks[b])` with `b` computed at run time).
    case deferred(() -> BenchOp)
    /// The second half of `wait`: re-takes the mutex once signalled (internal).
    case reacquire(BenchCondition, BenchMutex)
}

/// Builds a thread's operations, one per line: `Op.lock(m)`, `Op.step("read x") { … }` (a leading dot
/// would continue the previous line's expression).
@resultBuilder
public enum BenchOps {
    public static func buildExpression(_ op: BenchOp) -> [BenchOp] { [op] }
    public static func buildBlock(_ parts: [BenchOp]...) -> [BenchOp] { parts.flatMap { $0 } }
    public static func buildArray(_ parts: [[BenchOp]]) -> [BenchOp] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [BenchOp]?) -> [BenchOp] { part ?? [] }
    public static func buildEither(first: [BenchOp]) -> [BenchOp] { first }
    public static func buildEither(second: [BenchOp]) -> [BenchOp] { second }
}

extension BenchOp {
    /// `while condition { body }`, the condition decided when the thread gets there.
    public static func repeatWhile(_ condition: @escaping () -> Bool, @BenchOps _ body: () -> [BenchOp]) -> BenchOp {
        .loop(condition, body())
    }

    /// A list of operations as one (a helper function's body).
    public static func seq(_ ops: [BenchOp]) -> BenchOp { .branch({ true }, ops, []) }

    /// `if condition { then } else { otherwise }`, decided when the thread gets there.
    public static func when(
        _ condition: @escaping () -> Bool, @BenchOps then: () -> [BenchOp],
        @BenchOps otherwise: () -> [BenchOp] = { [] }
    ) -> BenchOp {
        .branch(condition, then(), otherwise())
    }
}

/// The short name the ported benchmarks write their operations with.
typealias Op = BenchOp
