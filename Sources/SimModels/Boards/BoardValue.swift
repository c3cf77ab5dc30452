import SimCore

/// A value a board takes as input or sends as output: plain text, or a bundled task result.
public enum BoardValue: Hashable, Sendable, CustomStringConvertible {
    /// No value.
    case none
    /// Plain text.
    case text(String)
    /// A result task board's result.
    case result(BoardResult)

    /// `none`, the text, or the result's description.
    public var description: String {
        switch self {
        case .none: "none"
        case .text(let text): text
        case .result(let result): result.description
        }
    }

    /// The text, when this is `.text`.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}

/// What a `ResultTaskBoard` sends: progress, then exactly one terminal result.
public enum BoardResult: Hashable, Sendable, CustomStringConvertible {
    /// Progress, in percent.
    case progress(Int)
    /// The task succeeded with this value.
    case success(String)
    /// The task failed for this reason.
    case failure(String)
    /// The task was cancelled.
    case cancel

    /// True for `.success`, `.failure` and `.cancel`: the results that end an activation.
    public var isTerminal: Bool {
        if case .progress = self { return false }
        return true
    }

    /// `progress:N`, `success:V`, `failure:R` or `cancel`.
    public var description: String {
        switch self {
        case .progress(let percent): "progress:\(percent)"
        case .success(let value): "success:\(value)"
        case .failure(let reason): "failure:\(reason)"
        case .cancel: "cancel"
        }
    }
}

/// Why a task failed (the model needs no more than a reason).
public struct BoardError: Error, Hashable, Sendable {
    /// What went wrong.
    public var reason: String
    /// An error for `reason`.
    public init(_ reason: String) { self.reason = reason }
}

/// What an executor reports back to its board.
public typealias BoardTaskResult = Result<BoardValue, BoardError>

/// The option passed to `Motherboard.activate`: each board kind accepts the case it understands.
public enum BoardOption {
    /// A plain input (TaskBoard, ResultTaskBoard, FlowBoard).
    case value(BoardValue)
    /// A per-activation parameter with its own handlers (BlockTaskBoard).
    case block(BlockTaskParameter)
    /// A barrier command (BarrierBoard).
    case barrier(BarrierAction)

    var summary: String {
        switch self {
        case .value(let value): value.description
        case .block(let parameter): "block(\(parameter.input))"
        case .barrier(let action): action.summary
        }
    }
}

/// What a board sends to its motherboard (Boardy's `sendToMotherboard(data:)`).
public enum BoardMessage {
    /// The board's output, matched against output flows.
    case output(BoardValue)
    /// The board completed (Boardy's `CompleteAction`); the default flow removes it.
    case complete(isDone: Bool)
    /// A request to activate another board (Boardy's `nextToBoard`).
    case activate(target: String, option: BoardOption)
}
