import SimCore
import SimEngine

/// The `--json` result of a command: one object on stdout, schema `simrun.result/1` (the article
/// "Exit codes and the JSON schema"). Within a version, members may be added, never renamed or removed.
struct ResultDocument {
    static let schema = "simrun.result/1"

    /// The subcommand (`run`, `fuzz`, `replay`, `shrink`, `explain`).
    var command: String
    /// The command's conclusion: `pass`, `fail`, `diverged`, `identical`, `inconclusive`,
    /// `interrupted`, `shrunk`, `explained`, `not-reproduced`, or `error`.
    var verdict: String
    /// The process's exit status.
    var exitCode: Int32
    /// The command's own members, after the four above.
    var members: [JSONValue.Member] = []

    /// The document on one line.
    var text: String {
        JSONValue.object(
            [
                .init("schema", .string(Self.schema)), .init("command", .string(command)),
                .init("verdict", .string(verdict)), .init("exitCode", .int(Int64(exitCode))),
            ] + members
        ).text
    }

    /// `scenario`, `variant`, `strategy`, and `seed` when one run is concerned.
    static func run(scenario: String, variant: String, strategy: String, seed: UInt64?) -> [JSONValue.Member] {
        [
            .init("scenario", .string(scenario)), .init("variant", .string(variant)),
            .init("strategy", .string(strategy)),
        ] + (seed.map { [.init("seed", .unsigned($0))] } ?? [])
    }

    /// A run's outcome: `verdict` (`pass`, `fail`, `step-limit`, …), `oracle`, `message`.
    static func outcome(_ verdict: Verdict) -> JSONValue {
        .object([
            "verdict": .string(verdict.jsonName), "oracle": .string(verdict.oracle),
            "message": .string(verdict.message),
        ])
    }

    /// `findings` of one run: empty when it passed, else its failure with the trace it is in.
    static func findings(_ verdict: Verdict, seed: UInt64, trace: String?) -> JSONValue {
        guard verdict.isFailure else { return .array([]) }
        return .array([
            .object([
                "signature": .string(FailureSignature(verdict).description), "oracle": .string(verdict.oracle),
                "message": .string(verdict.message), "seed": .unsigned(seed), "trace": .optional(trace),
            ])
        ])
    }

    /// The `sometimes` goals of one run: each with whether it was reached.
    static func sometimes(_ result: RunResult) -> JSONValue {
        .array(
            result.goals.map { goal in
                .object(["goal": .string(goal), "reached": .bool(result.reachedGoals.contains(goal))])
            })
    }
}

extension Verdict {
    /// The verdict's name in JSON (as in the JSONL export's footer).
    var jsonName: String {
        switch self {
        case .pass: "pass"
        case .fail: "fail"
        case .stepLimit: "step-limit"
        case .timeLimit: "time-limit"
        case .pending: "pending"
        case .deadlock: "deadlock"
        case .crashed: "crashed"
        }
    }
}
