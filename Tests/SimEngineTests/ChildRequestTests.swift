import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// The values an in-order campaign's child and a determinism check's child are told, and what the
/// in-order child answers: every stored property crosses the process boundary (a member added on
/// one side and forgotten on the other fails here, as for `WorkerRequest`).
@Suite struct ChildRequestTests {
    static let fullInOrder = InOrderRequest(
        scenario: "lost-input-navigation", variant: "fixed", strategy: "surw", seeds: 5..<77, milliseconds: 4_000,
        keepGoing: true, noise: 2, from: "/tmp/f.simtrace", keep: 3, estimatedSteps: 19, carriers: .preemptLocks,
        marker: "/tmp/m", findings: "/tmp/d")
    static let minimalInOrder = InOrderRequest(
        scenario: "", variant: "", strategy: "", seeds: 0..<0, milliseconds: nil, keepGoing: false, noise: 0,
        from: nil, keep: 0, estimatedSteps: nil, carriers: .off, marker: "", findings: "")

    static let fullDigests = DigestsRequest(
        scenario: "counter-race", variant: "buggy", strategy: "pct:depth=2",
        seeds: .init(start: 3, stride: 4, count: 5), noise: 1, carriers: .carriers, estimatedSteps: 30)
    static let minimalDigests = DigestsRequest(
        scenario: "", variant: "", strategy: "", seeds: .init(start: 0, stride: 1, count: 0), noise: 0,
        carriers: .off, estimatedSteps: nil)

    /// Fails when `full` leaves a stored property at `minimal`'s value (so the round trip would not
    /// test it), or when the encoding has other than one member per stored property and a version.
    static func checkEveryMember<T>(_ full: T, _ minimal: T, text: String) throws {
        let fullChildren = Array(Mirror(reflecting: full).children)
        let minimalChildren = Array(Mirror(reflecting: minimal).children)
        #expect(fullChildren.count == minimalChildren.count)
        for (set, unset) in zip(fullChildren, minimalChildren) {
            #expect(
                String(describing: set.value) != String(describing: unset.value),
                "the fixture leaves \(set.label ?? "?") at its minimal value: set it, so the round trip tests it")
        }
        guard case .object(let list) = try JSONValue(parsing: text) else {
            throw WorkerRequestTests.Expectation.notAnObject
        }
        #expect(list.count == fullChildren.count + 1)
    }

    @Test func anInOrderRequestCarriesEveryMember() throws {
        try Self.checkEveryMember(Self.fullInOrder, Self.minimalInOrder, text: Self.fullInOrder.text)
        #expect(try InOrderRequest(decoding: Self.fullInOrder.text) == Self.fullInOrder)
        #expect(try InOrderRequest(decoding: Self.minimalInOrder.text) == Self.minimalInOrder)
        let withoutMarker = Self.fullInOrder.text.replacingOccurrences(of: ",\"marker\":\"/tmp/m\"", with: "")
        #expect(withoutMarker != Self.fullInOrder.text)
        do {
            _ = try InOrderRequest(decoding: withoutMarker)
            Issue.record("a request without its marker was read")
        } catch {
            #expect(error.message == "in-order campaign request: no 'marker'")
        }
    }

    @Test func aDigestsRequestCarriesEveryMemberAndItsRecordsDecode() throws {
        try Self.checkEveryMember(Self.fullDigests, Self.minimalDigests, text: Self.fullDigests.text)
        #expect(try DigestsRequest(decoding: Self.fullDigests.text) == Self.fullDigests)
        #expect(try DigestsRequest(decoding: Self.minimalDigests.text) == Self.minimalDigests)
        let record = DigestsRequest.record(seed: 12, digest: 0xdead_beef_0123_4567, verdictCode: 3)
        let decoded = try #require(DigestsRequest.sample(in: Substring(record)))
        #expect(decoded.0 == 12)
        #expect(decoded.1 == DeterminismCampaign.Sample(digest: 0xdead_beef_0123_4567, verdictCode: 3))
        // Anything else on the child's stdout is not a sample.
        #expect(DigestsRequest.sample(in: "digest 12 deadbeef 3") == nil)
        #expect(DigestsRequest.sample(in: "{\"partial\":\"x\"}") == nil)
    }

    @Test func aShrinkRequestCarriesEveryMemberAndAnUnreadableTraceIsAFailureRecord() throws {
        let full = ShrinkRequest(trace: "/tmp/a b.simtrace", out: "/tmp/o.simtrace")
        try Self.checkEveryMember(full, ShrinkRequest(trace: "", out: ""), text: full.text)
        #expect(try ShrinkRequest(decoding: full.text) == full)
        #expect(throws: SimEngineError.self) { try ShrinkRequest(decoding: "{\"version\":1,\"trace\":\"x\"}") }
        // The child never throws: what went wrong comes back as a typed record with its kind.
        let missing = ShrinkRequest(trace: "/nonexistent/simrun-x.simtrace", out: "/nonexistent/o.simtrace")
        guard case .failure(let kind, _) = missing.run(in: ScenarioCatalog([])) else {
            Issue.record("a missing trace was shrunk")
            return
        }
        #expect(kind == .missingInput)
    }

    /// An unknown strategy is a usage error in every child, never a silent `fifo`.
    @Test func anUnknownStrategyIsRefusedByEveryChild() throws {
        let catalog = ScenarioCatalog([CounterRace.scenario])
        var digests = Self.fullDigests
        digests.strategy = "zigzag"
        #expect(throws: SimEngineError.self) { try digests.run(in: catalog) { _ in } }
        var inOrder = Self.fullInOrder
        (inOrder.scenario, inOrder.variant, inOrder.from, inOrder.strategy) = ("counter-race", "buggy", nil, "zigzag")
        do {
            _ = try inOrder.plan(in: catalog)
            Issue.record("an unknown strategy was planned")
        } catch {
            #expect(error.kind == .usage)
            #expect(error.message.hasPrefix("in-order campaign request: unknown strategy 'zigzag'"))
        }
    }

    /// The in-order child's answer: every member of the report crosses, each finding's tape as the
    /// trace the child wrote. Run here as the child runs it (`run(in:emit:)`), on a campaign that
    /// finds something.
    @Test func anInOrderCampaignsOutcomeCrossesWhole() throws {
        let directory = try makeTemporaryDirectory("in-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        var request = Self.fullInOrder
        (request.scenario, request.variant, request.from, request.keep) = ("counter-race", "buggy", nil, 0)
        (request.milliseconds, request.carriers, request.noise, request.seeds) = (nil, .off, 0, 0..<40)
        request.marker = directory.appendingPathComponent("marker").path
        request.findings = directory.path
        let catalog = ScenarioCatalog([CounterRace.scenario])
        var lines: [String] = []
        try request.run(in: catalog) { lines.append($0) }
        #expect(lines.count == 1)
        let decoded = try InOrderOutcome(childOutput: "noise from the model\n" + lines.joined(separator: "\n"))
        // The same campaign run here gives the same report.
        var configuration = Fuzzer.Configuration(seeds: 0..<40, keepGoing: true)
        configuration.runMarker = nil
        let plan = try request.plan(in: catalog)
        let here = Fuzzer(plan: plan, configuration: configuration).runCampaign(progress: { _, _, _, _ in })
        let report = decoded.outcome.report
        #expect(!report.findings.isEmpty, "counter-race/buggy fails within 40 surw runs")
        #expect(report.schedules == here.report.schedules && report.failures == here.report.failures)
        #expect(report.goals == here.report.goals && report.goalCounts == here.report.goalCounts)
        #expect(report.learning == here.report.learning && report.exhausted == here.report.exhausted)
        #expect(report.findings.map(\.seed) == here.report.findings.map(\.seed))
        #expect(report.findings.map(\.verdict) == here.report.findings.map(\.verdict))
        #expect(report.findings.map(\.tape) == here.report.findings.map(\.tape))
        #expect(report.findings.map(\.occurrences) == here.report.findings.map(\.occurrences))
        #expect(report.findings.map(\.steps) == here.report.findings.map(\.steps))
        // Every stored member of the report is encoded (one JSON member each, plus version and
        // `interrupted`, with `schedulesPerSecond` computed): a member added to Fuzzer.Report fails here.
        let stored = Mirror(reflecting: report).children.count
        guard case .object(let members) = try JSONValue(parsing: lines[0]) else {
            throw WorkerRequestTests.Expectation.notAnObject
        }
        #expect(members.count == stored + 2)
        #expect(throws: SimEngineError.self) { try InOrderOutcome(childOutput: "no record at all") }
    }
}
