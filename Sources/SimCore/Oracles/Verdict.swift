/// How a run ended.
public enum Verdict: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Every oracle held and all work finished.
    case pass
    /// An oracle failed (or a model reported a failure).
    case fail(oracle: String, message: String)
    /// No progress: the step limit was reached before quiescence.
    case stepLimit(Int)
    /// No progress: virtual time passed the limit (nanoseconds).
    case timeLimit(Int64)
    /// The run went quiet with work still pending (suspended tasks, running effects, …).
    case pending(String)
    /// The model trapped (a failed precondition); recorded up to the trap.
    case crashed(String)
    /// Every lane with work left is blocked (parked on a lock, a condition, a join): nothing can run.
    case deadlock(String)

    /// True for every verdict but `pass`.
    public var isFailure: Bool { self != .pass }

    /// A stable small number for the trace footer.
    public var code: UInt8 {
        switch self {
        case .pass: 0
        case .fail: 1
        case .stepLimit: 2
        case .timeLimit: 3
        case .pending: 4
        case .crashed: 5
        case .deadlock: 6
        }
    }

    /// The oracle or limit that decided the verdict: with the message, a failure's signature.
    public var oracle: String {
        switch self {
        case .pass: ""
        case .fail(let oracle, _): oracle
        case .stepLimit: "step-limit"
        case .timeLimit: "time-limit"
        case .pending: "pending-work"
        case .crashed: "crashed"
        case .deadlock: "deadlock"
        }
    }

    /// What went wrong, as the oracle or limit put it (empty for `pass`).
    public var message: String {
        switch self {
        case .pass: ""
        case .fail(_, let message): message
        case .stepLimit(let n): "no progress: step limit of \(n) steps reached"
        case .timeLimit(let t): "no progress: virtual time limit of \(t) ns reached"
        case .pending(let m): m
        case .crashed(let m): m
        case .deadlock(let m): m
        }
    }

    /// Rebuilds a verdict from its stored form.
    public init?(code: UInt8, oracle: String, message: String) {
        switch code {
        case 0: self = .pass
        case 1: self = .fail(oracle: oracle, message: message)
        case 2: self = .stepLimit(Verdict.leadingNumber(in: message))
        case 3: self = .timeLimit(Int64(Verdict.leadingNumber(in: message)))
        case 4: self = .pending(message)
        case 5: self = .crashed(message)
        case 6: self = .deadlock(message)
        default: return nil
        }
    }

    private static func leadingNumber(in text: String) -> Int {
        let digits = text.drop { !$0.isNumber }.prefix { $0.isNumber }
        return Int(digits) ?? 0
    }

    /// `pass`, or `oracle: message`: the verdict line commands print.
    public var description: String {
        self == .pass ? "pass" : "\(oracle): \(message)"
    }
}
