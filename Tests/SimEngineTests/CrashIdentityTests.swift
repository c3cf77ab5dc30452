import SimCore
import SimTestSupport
import Testing

@testable import SimEngine

/// Crash identity as a rule, over every case it decides, against references written from the docs:
/// - "the same bug" (FailureSignature): the verdict's kind and oracle, and its message with every
///   number blanked;
/// - the crash shrinker keeps a candidate only when its run crashed "at the same place — the same
///   trap message (numbers aside) in the same job" and is smaller: "fewer non-fifo decisions, or as
///   many and fewer events" (CrashShrink);
/// - a saved finding re-checked in a new process "replays identically" only when the events and
///   the end agree: a checking process that died is never a pass (DeterminismCheck).
@Suite struct CrashIdentityTests {
    // MARK: FailureSignature

    /// The reference: oracle, then the message with each maximal run of digits replaced by `#`.
    private static func referenceShape(_ message: String) -> String {
        var out = ""
        var previousWasDigit = false
        for character in message {
            let digit = character.isNumber
            if digit && !previousWasDigit { out += "#" }
            if !digit { out.append(character) }
            previousWasDigit = digit
        }
        return out
    }

    private static let messages = [
        "", "7", "counter is 1 after 2 increments", "counter is 17 after 18 increments", "stale write: read 3",
        "a12b", "12ab", "ab12", "no digits at all", "x 1 2 3", "x 123",
    ]

    private static let verdicts: [Verdict] =
        [.pass]
        + messages.flatMap { message in
            [
                Verdict.fail(oracle: "no-lost-update", message: message), .fail(oracle: "other", message: message),
                .pending(message), .crashed(message), .deadlock(message),
            ]
        } + [.stepLimit(10), .stepLimit(11), .timeLimit(10)]

    @Test func aSignatureIsTheOracleAndTheMessageWithNumbersBlanked() {
        for verdict in Self.verdicts {
            let signature = FailureSignature(verdict)
            #expect(signature.oracle == verdict.oracle, "\(verdict)")
            #expect(signature.shape == Self.referenceShape(verdict.message), "\(verdict)")
            let text = Self.referenceShape(verdict.message)
            #expect(signature.description == (text.isEmpty ? verdict.oracle : "\(verdict.oracle): \(text)"))
        }
    }

    @Test func twoVerdictsAreOneBugExactlyWhenOracleAndShapeAgree() {
        let wrong = RuleTable.disagreements(
            RuleTable.product(Self.verdicts, Self.verdicts), describe: { "\($0.0) vs \($0.1)" },
            decide: { FailureSignature($0.0) == FailureSignature($0.1) },
            reference: { $0.0.oracle == $0.1.oracle && Self.referenceShape($0.0.message) == Self.referenceShape($0.1.message) })
        #expect(wrong.isEmpty, "\(wrong)")
        let matching = RuleTable.disagreements(
            RuleTable.product(Self.verdicts, Self.verdicts), describe: { "\($0.0) matches \($0.1)" },
            decide: { FailureSignature($0.0).matches($0.1) },
            reference: { $0.1 != .pass && $0.0.oracle == $0.1.oracle })
        #expect(matching.isEmpty, "\(matching)")
    }

    // MARK: The same crash (CrashPlace), across build configurations

    private static let jobs: [String?] = [nil, "worker.a/write", "worker.b/write"]
    private static let functionLists: [[String]] = [
        [], ["f"], ["g"], ["f", "main"], ["g", "f"], ["h", "g", "main"],
    ]
    private static let trapMessages: [String?] = [
        nil, "Precondition failed: stale write 1", "Precondition failed: stale write 7", "Fatal error: index out of range",
    ]

    private static var places: [CrashPlace] {
        RuleTable.product(jobs, functionLists, trapMessages).map {
            CrashPlace(job: $0.0, functions: $0.1, message: $0.2)
        }
    }

    @Test func twoCrashesAreTheSameExactlyWhenTheDocumentedRuleSaysSo() {
        // The reference, from CrashPlace's documentation: the same job (or none); where both have a
        // runtime message, the same message numbers aside; where both name functions, the innermost
        // of one among the other's; where neither can be compared, the job alone decides.
        func shape(_ message: String?) -> String? {
            message.map { text in
                var out = ""
                var digit = false
                for character in text {
                    if character.isNumber { if !digit { out += "#" } } else { out.append(character) }
                    digit = character.isNumber
                }
                return out
            }
        }
        let originals = RuleTable.product(Self.jobs, Self.functionLists, Self.trapMessages)
        let wrong = RuleTable.disagreements(
            RuleTable.product(originals, originals),
            describe: { "\($0.0) vs \($0.1)" },
            decide: { pair in
                CrashPlace(job: pair.0.0, functions: pair.0.1, message: pair.0.2)
                    .isSameCrash(as: CrashPlace(job: pair.1.0, functions: pair.1.1, message: pair.1.2))
            },
            reference: { pair in
                let (a, b) = pair
                guard a.0 == b.0 else { return false }
                if let left = shape(a.2), let right = shape(b.2), left != right { return false }
                if let inner = a.1.first, let otherInner = b.1.first {
                    return b.1.contains(inner) || a.1.contains(otherInner)
                }
                return true
            })
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func theSameCrashIsSymmetricAndReflexive() {
        for place in Self.places {
            #expect(place.isSameCrash(as: place), "\(place)")
            for other in Self.places {
                #expect(place.isSameCrash(as: other) == other.isSameCrash(as: place), "\(place) / \(other)")
            }
        }
    }

    // MARK: A saved finding re-checked in a new process

    private static func outcome(_ verdict: Verdict, crashed: Bool) -> IsolatedRecording.Outcome {
        IsolatedRecording.Outcome(
            path: "/nonexistent", verdict: verdict, eventCount: 10, digest: Digest(), crashed: crashed,
            lastEventText: "")
    }

    @Test func aReCheckIsIdenticalOnlyWhenTheEventsAndTheEndAgree() {
        let ends: [Verdict?] = [
            nil, .pass, .fail(oracle: "no-lost-update", message: "counter is 1"),
            .fail(oracle: "no-lost-update", message: "counter is 3"), .fail(oracle: "other", message: "counter is 1"),
            .crashed("stale write 1"), .crashed("stale write 2"), .crashed("index out of range"), .pending("1 left"),
        ]
        let agains: [(Verdict, Bool)] = ends.compactMap { $0 }.map { ($0, $0.code == 5) }
        let cases = RuleTable.product([nil, ["first divergent event: #3: events differ"]], ends, agains)
        let wrong = RuleTable.disagreements(
            cases, describe: { "divergence \($0.0 != nil), recorded \(String(describing: $0.1)), re-run \($0.2)" },
            decide: { divergence, recorded, again in
                DeterminismCheck.Verdict(
                    again: Self.outcome(again.0, crashed: again.1), divergence: divergence, recorded: recorded
                ).difference == nil
            },
            reference: { divergence, recorded, again in
                // Identical: no differing event, a recorded end, and the same end — both died the same
                // way or neither died, and the same verdict kind with the same signature.
                guard divergence == nil, let recorded else { return false }
                let recordedDied = recorded.code == 5
                guard recordedDied == again.1 else { return false }
                return recorded.code == again.0.code && FailureSignature(recorded) == FailureSignature(again.0)
            })
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func aCheckingProcessThatDiedSaysSoInItsDifference() throws {
        let died = DeterminismCheck.Verdict(
            again: Self.outcome(.crashed("killed"), crashed: true), divergence: nil,
            recorded: .fail(oracle: "no-lost-update", message: "counter is 1"))
        let lines = try #require(died.difference)
        #expect(lines.joined().contains("process died"), "\(lines)")
        let divergence = ["first divergent event: #3: events differ"]
        #expect(
            DeterminismCheck.Verdict(
                again: Self.outcome(.pass, crashed: false), divergence: divergence, recorded: .pass
            ).difference == divergence, "the first differing event comes first")
    }
}

/// The inconclusive reason's line names the first unfollowed decision and counts the rest.
@Suite struct InconclusiveReasonTextTests {
    @Test(arguments: 1...4)
    func theFirstDecisionIsNamedAndTheRestCounted(_ count: Int) {
        let decisions = (1...count).map {
            UnfollowedDecision(number: $0 + 2, summary: "b/read#\($0) before a/write#1", reason: "never-ahead", why: "w")
        }
        let text = InconclusiveReason.unfollowed(decisions).text
        #expect(text.hasPrefix("decision 3 (b/read#1 before a/write#1) could not be followed"), "\(text)")
        #expect(text.hasSuffix(count == 1 ? "could not be followed" : " (and \(count - 1) more)"), "\(text)")
        #expect(InconclusiveReason.unfollowed([]).text == "a decision could not be followed")
    }
}
