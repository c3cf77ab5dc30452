import Foundation
import SimCore
import Testing

@testable import SimEngine

/// The `--json` documents' building blocks: any campaign report encodes as the fuzz document does,
/// and values are spelled stably. (The documents each command prints: SimRunKitTests'
/// `JSONResultTests`.)
@Suite struct CampaignJSONTests {
    /// Any report of a campaign encodes the same way (a shard's result file will be one).
    struct ShardReport: CampaignReport {
        var schedules = 40
        var failures = 3
        var seconds = 0.5
        var exhausted = false
        var coverage: [(goal: String, runs: Int)] = [("navigated", 40)]
        var distinctFailures = [
            CampaignFinding(verdict: .fail(oracle: "kept", message: "lost 2 of 3"), seed: 7, occurrences: 3)
        ]
    }

    @Test func anyCampaignReportEncodesAsTheFuzzDocumentDoes() throws {
        let crash = CampaignFinding(verdict: .crashed("trap"), seed: 9, occurrences: 1)
        let members = CampaignJSON.members(of: ShardReport(), also: [crash], exhaustive: true) { finding in
            [.init("trace", .string("t-\(finding.seed).simtrace"))]
        }
        let text = JSONValue.object(members).text
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["schedules"] as? NSNumber == 40 && object["rate"] as? NSNumber == 80)
        #expect(object["distinct"] as? NSNumber == 2 && object["exhausted"] as? Bool == false)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["signature"] as? String } == ["kept: lost # of #", "crashed: trap"])
        #expect(findings.map { $0["trace"] as? String } == ["t-7.simtrace", "t-9.simtrace"])
        #expect((object["sometimes"] as? [[String: Any]])?.first?["runs"] as? NSNumber == 40)
    }

    @Test func jsonValuesAreSpelledStably() {
        let value = JSONValue.object([
            "text": .string("a \"quoted\"\nline"), "n": .int(-3), "u": .unsigned(UInt64.max),
            "x": .number(2.50, decimals: 3), "tiny": .number(0.0004, decimals: 3), "none": .null,
            "list": .array([.bool(true), .number(.nan, decimals: 2)]),
        ])
        #expect(
            value.text
                == #"{"text":"a \"quoted\"\nline","n":-3,"u":18446744073709551615,"x":2.5,"tiny":0,"none":null,"list":[true,0]}"#
        )
    }
}
