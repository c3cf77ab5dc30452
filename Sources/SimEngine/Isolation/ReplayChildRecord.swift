import SimCore

/// What a replay child (`simrun _replay`) sends its parent: one typed record on one line of stdout,
/// the ``ReplayReport`` it decided or the input failure that stopped it. Encoded as JSON with
/// every field of the report, so the parent's verdict is the child's, field for field.
package enum ReplayChildRecord: Equatable {
    case report(ReplayReport)
    case failure(kind: SimEngineError.Kind, message: String)

    /// The record on one line.
    package var text: String {
        switch self {
        case .report(let report): JSONValue.object(["report": Self.encode(report)]).text
        case .failure(let kind, let message):
            JSONValue.object(["failure": .object(["kind": .string(kind.rawValue), "message": .string(message)])]).text
        }
    }

    /// The record a line holds; nil for anything else.
    package init?(decoding line: String) {
        guard let value = try? JSONValue(parsing: line) else { return nil }
        if let failure = value["failure"] {
            guard let kind = failure["kind"]?.stringValue.flatMap(SimEngineError.Kind.init(rawValue:)),
                let message = failure["message"]?.stringValue
            else {
                return nil
            }
            self = .failure(kind: kind, message: message)
            return
        }
        guard let encoded = value["report"], let report = Self.decode(encoded) else { return nil }
        self = .report(report)
    }

    // MARK: Encoding

    static func encode(_ verdict: Verdict) -> JSONValue {
        .object([
            "code": .unsigned(UInt64(verdict.code)), "oracle": .string(verdict.oracle),
            "message": .string(verdict.message),
        ])
    }

    static func decodeVerdict(_ value: JSONValue?) -> Verdict? {
        guard let value, let code = value["code"]?.unsignedValue, code < 256,
            let oracle = value["oracle"]?.stringValue, let message = value["message"]?.stringValue
        else { return nil }
        return Verdict(code: UInt8(code), oracle: oracle, message: message)
    }

    static func encode(_ decisions: [UnfollowedDecision]) -> JSONValue {
        .array(
            decisions.map {
                .object([
                    "number": .int(Int64($0.number)), "summary": .string($0.summary), "reason": .string($0.reason),
                    "why": .string($0.why), "cancelled": .bool($0.cancelled),
                ])
            })
    }

    static func decodeDecisions(_ value: JSONValue?) -> [UnfollowedDecision]? {
        guard let items = value?.arrayValue else { return nil }
        var decisions: [UnfollowedDecision] = []
        for item in items {
            guard let number = item["number"]?.intValue, let summary = item["summary"]?.stringValue,
                let reason = item["reason"]?.stringValue, let why = item["why"]?.stringValue,
                let cancelled = item["cancelled"]?.boolValue
            else { return nil }
            decisions.append(
                UnfollowedDecision(number: number, summary: summary, reason: reason, why: why, cancelled: cancelled))
        }
        return decisions
    }

    static func encode(_ evidence: RaceRemoved?) -> JSONValue {
        guard let evidence else { return .null }
        return .object([
            "unfollowed": encode(evidence.unfollowed), "strategy": .string(evidence.strategy),
            "from": .unsigned(evidence.seeds.lowerBound), "to": .unsigned(evidence.seeds.upperBound),
            "failures": .int(Int64(evidence.failures)),
            "firstFailingSeed": evidence.firstFailingSeed.map { .unsigned($0) } ?? .null,
        ])
    }

    static func decodeEvidence(_ value: JSONValue?) -> RaceRemoved?? {
        guard let value else { return nil }
        if value == .null { return .some(nil) }
        guard let unfollowed = decodeDecisions(value["unfollowed"]), let strategy = value["strategy"]?.stringValue,
            let from = value["from"]?.unsignedValue, let to = value["to"]?.unsignedValue, from <= to,
            let failures = value["failures"]?.intValue
        else { return nil }
        return .some(
            RaceRemoved(
                unfollowed: unfollowed, strategy: strategy, seeds: from..<to, failures: failures,
                firstFailingSeed: value["firstFailingSeed"]?.unsignedValue))
    }

    static func encode(_ verdict: ReplayVerdict) -> JSONValue {
        switch verdict {
        case .identical: return .object(["kind": .string("identical")])
        case .diverged(let at, let lines):
            return .object([
                "kind": .string("diverged"), "at": .unsigned(at), "lines": .array(lines.map { .string($0) }),
            ])
        case .pass(let evidence): return .object(["kind": .string("pass"), "raceRemoved": encode(evidence)])
        case .fail(let outcome, let evidence):
            return .object(["kind": .string("fail"), "outcome": encode(outcome), "raceRemoved": encode(evidence)])
        case .crashed(let message, let at):
            return .object(["kind": .string("crashed"), "message": .string(message), "at": .unsigned(at)])
        case .inconclusive(let reason):
            let encoded: JSONValue =
                switch reason {
                case .truncated(let compared): .object(["truncated": .unsigned(compared)])
                case .unfollowed(let decisions): .object(["unfollowed": encode(decisions)])
                case .scheduleProblem(let problem): .object(["scheduleProblem": .string(problem)])
                }
            return .object(["kind": .string("inconclusive"), "reason": encoded])
        case .damaged(let message, let compared):
            return .object(["kind": .string("damaged"), "message": .string(message), "compared": .unsigned(compared)])
        }
    }

    static func decodeReplayVerdict(_ value: JSONValue?) -> ReplayVerdict? {
        guard let value, let kind = value["kind"]?.stringValue else { return nil }
        switch kind {
        case "identical": return .identical
        case "diverged":
            guard let at = value["at"]?.unsignedValue, let lines = value["lines"]?.arrayValue else { return nil }
            return .diverged(atEvent: at, lines: lines.compactMap(\.stringValue))
        case "pass":
            guard let evidence = decodeEvidence(value["raceRemoved"]) else { return nil }
            return .pass(raceRemoved: evidence)
        case "fail":
            guard let outcome = decodeVerdict(value["outcome"]), let evidence = decodeEvidence(value["raceRemoved"])
            else { return nil }
            return .fail(outcome, raceRemoved: evidence)
        case "crashed":
            guard let message = value["message"]?.stringValue, let at = value["at"]?.unsignedValue else { return nil }
            return .crashed(message: message, atEvent: at)
        case "inconclusive":
            guard let reason = value["reason"] else { return nil }
            if let compared = reason["truncated"]?.unsignedValue {
                return .inconclusive(.truncated(eventsCompared: compared))
            }
            if let decisions = decodeDecisions(reason["unfollowed"]) { return .inconclusive(.unfollowed(decisions)) }
            if let problem = reason["scheduleProblem"]?.stringValue { return .inconclusive(.scheduleProblem(problem)) }
            return nil
        case "damaged":
            guard let message = value["message"]?.stringValue, let compared = value["compared"]?.unsignedValue else {
                return nil
            }
            return .damaged(message: message, eventsCompared: compared)
        default: return nil
        }
    }

    static func encode(_ report: ReplayReport) -> JSONValue {
        let tally = report.tally
        return .object([
            "verdict": encode(report.verdict), "trace": .string(report.trace), "scenario": .string(report.scenario),
            "recordedVariant": .string(report.recordedVariant), "variant": .string(report.variant),
            "strategy": .string(report.strategy), "seed": .unsigned(report.seed),
            "recordedNoise": .int(Int64(report.recordedNoise)), "noise": .int(Int64(report.noise)),
            "outcome": encode(report.outcome), "recorded": report.recorded.map(encode) ?? .null,
            "eventCount": .unsigned(report.eventCount), "eventsCompared": .unsigned(report.eventsCompared),
            "digest": .unsigned(report.digest.value),
            "tally": .array(
                [tally.decisions, tally.followed, tally.deviations, tally.followedDeviations].map { .int(Int64($0)) }
                    + [tally.unknownJobs.map { .int(Int64($0)) } ?? .null]),
            "notes": .array(report.notes.map { .string($0) }),
            "recordingIsTruncated": .bool(report.recordingIsTruncated), "lastEventText": .string(report.lastEventText),
            "recordedBuild": .string(report.recordedBuild), "build": .string(report.build),
            "judgedAsOtherBuild": .bool(report.judgedAsOtherBuild),
        ])
    }

    static func decode(_ value: JSONValue) -> ReplayReport? {
        guard let verdict = decodeReplayVerdict(value["verdict"]), let trace = value["trace"]?.stringValue,
            let scenario = value["scenario"]?.stringValue, let recordedVariant = value["recordedVariant"]?.stringValue,
            let variant = value["variant"]?.stringValue, let strategy = value["strategy"]?.stringValue,
            let seed = value["seed"]?.unsignedValue, let recordedNoise = value["recordedNoise"]?.intValue,
            let noise = value["noise"]?.intValue, let outcome = decodeVerdict(value["outcome"]),
            let eventCount = value["eventCount"]?.unsignedValue,
            let eventsCompared = value["eventsCompared"]?.unsignedValue, let digest = value["digest"]?.unsignedValue,
            let tally = value["tally"]?.arrayValue, tally.count == 5, let notes = value["notes"]?.arrayValue,
            let truncated = value["recordingIsTruncated"]?.boolValue,
            let lastEventText = value["lastEventText"]?.stringValue,
            let recordedBuild = value["recordedBuild"]?.stringValue, let build = value["build"]?.stringValue,
            let judgedAsOtherBuild = value["judgedAsOtherBuild"]?.boolValue
        else { return nil }
        let counts = tally.prefix(4).compactMap(\.intValue)
        guard counts.count == 4 else { return nil }
        var report = ReplayReport(verdict: verdict, trace: trace)
        report.scenario = scenario
        report.recordedVariant = recordedVariant
        report.variant = variant
        report.strategy = strategy
        report.seed = seed
        report.recordedNoise = recordedNoise
        report.noise = noise
        report.outcome = outcome
        report.recorded = value["recorded"] == .null ? nil : decodeVerdict(value["recorded"])
        report.eventCount = eventCount
        report.eventsCompared = eventsCompared
        report.digest = Digest(value: digest)
        report.recordedBuild = recordedBuild
        report.build = build
        report.judgedAsOtherBuild = judgedAsOtherBuild
        report.tally = ScheduleTally(
            decisions: counts[0], followed: counts[1], deviations: counts[2], followedDeviations: counts[3],
            unknownJobs: tally[4].intValue)
        report.notes = notes.compactMap(\.stringValue)
        report.recordingIsTruncated = truncated
        report.lastEventText = lastEventText
        return report
    }
}
