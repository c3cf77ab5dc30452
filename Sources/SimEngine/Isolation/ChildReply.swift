import SimCore

/// What a child process tells its parent about its ``ChildJob``: typed records, one JSON object a
/// line on its stdout (other lines, the user's code printing, are skipped), never text to search.
package enum ChildReply: Sendable, Equatable, Codable {
    /// The first record: the plan the child rebuilt from its job (nil: the job carries none). The
    /// parent checks it is the plan it sent, so a child never runs another plan silently.
    case running(RunPlan.Descriptor?)
    /// The plan's fifo run: its steps and the coverage goals it declared.
    case planned(estimatedSteps: Int, goals: [String])
    /// The file a recording writes through a checkpointing sink: sealed by the parent if it dies.
    case partial(path: String)
    /// A shrink's result.
    case shrunk(ShrinkReport)
    /// The failure did not reproduce: nothing to shrink.
    case notReproduced
    /// The job stopped with this failure.
    case failure(kind: SimEngineError.Kind, message: String)
    /// A replay's report, decided in the child as ``TraceReplay/decide(_:catalog:)`` decides it.
    case replayed(ReplayReport)
    /// One seed's run of a determinism check.
    case sample(seed: UInt64, digest: UInt64, verdictCode: UInt8)
    /// What an in-order campaign ran and found.
    case campaign(InOrderSummary)

    /// An in-order campaign's report, each finding's tape as the trace the child wrote.
    package struct InOrderSummary: Sendable, Equatable, Codable {
        /// One distinct failure.
        package struct Finding: Sendable, Equatable, Codable {
            package var seed: UInt64
            package var verdict: Verdict
            package var steps: Int
            package var occurrences: Int
            /// The trace of its run, written by the child.
            package var trace: String
        }

        package var schedules: Int
        package var failures: Int
        package var findings: [Finding]
        package var goals: [String]
        package var goalCounts: [Int]
        package var seconds: Double
        package var exhausted: Bool
        package var exhaustedRounds: [DFSStrategy.Round]
        package var learning: String?
        package var interrupted: Bool
        package var explored: ExploredCounts
    }

    /// A campaign's ``Explored`` figures, digests included (the parent merges them with nothing,
    /// but a shard's result or `merge` may).
    package struct ExploredCounts: Sendable, Equatable, Codable {
        package struct Kind: Sendable, Equatable, Codable {
            package var kind: String
            package var runs: Int
            package var occurrences: Int
            package var seed: UInt64
            package var detail: String
            package var site: String
        }

        package var runs: Int
        package var distinct: Int
        package var atLeast: Bool
        package var withoutDecisions: Int
        package var uncontrolled: [Kind]
        /// Sorted; empty once past ``Explored/maxCounted``.
        package var digests: [UInt64]

        package init(_ explored: Explored) {
            runs = explored.runs
            distinct = explored.distinct
            atLeast = explored.isLowerBound
            withoutDecisions = explored.runsWithoutDecisions
            uncontrolled = explored.uncontrolled.map {
                Kind(
                    kind: $0.kind.rawValue, runs: $0.runs, occurrences: $0.occurrences, seed: $0.seed,
                    detail: $0.example.detail, site: $0.example.site)
            }
            digests = explored.digests.sorted()
        }

        package var explored: Explored {
            Explored(
                runs: runs, distinct: distinct, isLowerBound: atLeast || digests.count != distinct,
                runsWithoutDecisions: withoutDecisions,
                uncontrolled: uncontrolled.map {
                    let kind = UncontrolledKind(rawValue: $0.kind)
                    return Explored.Uncontrolled(
                        kind: kind, runs: $0.runs, occurrences: $0.occurrences,
                        example: SimCore.Uncontrolled(kind: kind, detail: $0.detail, site: $0.site), seed: $0.seed)
                },
                digests: digests.count == distinct ? Set(digests) : [])
        }
    }

    /// The record on one line.
    package var line: String {
        // Every member of these types encodes (strings, numbers, enums): nothing can fail here.
        (try? JSONValueEncoder().encode(self).text) ?? ""
    }

    /// The record `line` holds; nil for any other line.
    package init?(line: Substring) {
        guard line.first == "{",
            let reply = try? JSONValueDecoder(what: "child reply").decode(ChildReply.self, fromText: String(line))
        else { return nil }
        self = reply
    }

    /// Every record in a child's stdout, in order.
    package static func replies(in stdout: String) -> [ChildReply] {
        stdout.split(separator: "\n").compactMap { ChildReply(line: $0) }
    }
}
