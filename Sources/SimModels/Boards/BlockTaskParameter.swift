/// How a `BlockTaskBoard` activation ended for its own handlers.
public enum TaskCompletionStatus: Hashable, Sendable {
    case done
    case cancelled
}

/// One activation of a `BlockTaskBoard`: its input and its own handlers (Boardy's
/// `BlockTaskParameter`). Builder methods return the parameter so calls chain.
public final class BlockTaskParameter {
    public let input: BoardValue
    public private(set) var successHandler: ((BoardValue) -> Void)?
    public private(set) var processingHandler: ((Bool) -> Void)?
    public private(set) var errorHandler: ((BoardError) -> Void)?
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
