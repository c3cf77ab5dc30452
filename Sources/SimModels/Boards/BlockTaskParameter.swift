/// How a `BlockTaskBoard` activation ended for its own handlers.
public enum TaskCompletionStatus: Hashable, Sendable {
    /// The task's result reached the activation.
    case done
    /// The activation was cancelled or rejected.
    case cancelled
}

/// One activation of a `BlockTaskBoard`: its input and its own handlers (Boardy's
/// `BlockTaskParameter`). Builder methods return the parameter so calls chain.
public final class BlockTaskParameter {
    /// The task's input.
    public let input: BoardValue
    /// Called with the output of a successful task.
    public private(set) var successHandler: ((BoardValue) -> Void)?
    /// Called with true when the task starts and false when it ends.
    public private(set) var processingHandler: ((Bool) -> Void)?
    /// Called with the error of a failed task.
    public private(set) var errorHandler: ((BoardError) -> Void)?
    /// Called last, with how the activation ended.
    public private(set) var completionHandler: ((TaskCompletionStatus) -> Void)?

    /// A parameter carrying `input` and no handlers yet.
    public init(_ input: BoardValue = .none) { self.input = input }

    /// Called with the output when the task succeeds, before the output is sent.
    @discardableResult
    public func onSuccess(_ handler: @escaping (BoardValue) -> Void) -> Self {
        successHandler = handler
        return self
    }

    /// Called with true when the activation is accepted and false when it ends (Boardy's processing).
    @discardableResult
    public func onProgress(_ handler: @escaping (Bool) -> Void) -> Self {
        processingHandler = handler
        return self
    }

    /// Called with the error when the task fails.
    @discardableResult
    public func onError(_ handler: @escaping (BoardError) -> Void) -> Self {
        errorHandler = handler
        return self
    }

    /// Called last: `.done` after a result, `.cancelled` when dropped or superseded.
    @discardableResult
    public func onCompletion(_ handler: @escaping (TaskCompletionStatus) -> Void) -> Self {
        completionHandler = handler
        return self
    }
}
