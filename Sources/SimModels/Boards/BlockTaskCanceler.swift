/// What an executor of a `BlockTaskBoard` hands back so its work in flight can be stopped (Boardy's
/// `BlockTaskCanceler`).
///
/// Upstream's `.none` is a canceler whose handler does nothing; here it has no handler at all, so
/// the board records nothing for it and scenarios whose executors return none keep their traces.
public struct BlockTaskCanceler {
    let handler: (() -> Void)?

    /// A canceler that runs `handler` when the board cancels the task.
    public init(_ handler: @escaping () -> Void) { self.handler = handler }

    private init() { handler = nil }

    /// A canceler that does nothing (the executor cannot stop its work).
    public static var none: BlockTaskCanceler { BlockTaskCanceler() }
}
