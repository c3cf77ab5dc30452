import Foundation
import SimCore
import SimScenarios
import SimTestSupport
import SimTrace
import Testing

@testable import SimEngine

/// The one job protocol between simrun and its child processes (`ChildJob`, `ChildReply`): one
/// generic round trip per job under the schema rule, and the plan descriptor every job carries
/// reaching the child whole, whatever member is added to it.
@Suite struct ChildJobTests {
    /// A descriptor with every member set to something other than its default, its prefix read from
    /// `trace`.
    static func fullDescriptor(prefix trace: String) throws -> RunPlan.Descriptor {
        RunPlan.Descriptor(
            scenario: LostInputNavigation.scenario.name, variant: "fixed",
            strategy: try #require(StrategySpec(parsing: "pct:depth=4")), estimatedSteps: 41, noise: 3,
            carriers: .preemptLocks, prefix: .init(source: trace, keep: 2), goals: ["goal a", "goal b"])
    }

    /// Every job kind, each carrying `plan`, every member of each set.
    static func everyJob(_ plan: RunPlan.Descriptor) -> [ChildJob] {
        [
            .plan(plan),
            .work(
                .init(
                    plan: plan, worker: 2, workers: 3, goals: 5,
                    space: SeedSpace(seeds: 7..<900, shardIndex: 1, shardCount: 4, bounded: false), keepGoing: true,
                    milliseconds: 12_345, resume: 65..<128)),
            .record(
                .init(
                    plan: plan, seed: 99, out: "/tmp/o.simtrace",
                    schedule: .otherBuild(of: "/tmp/t.simtrace", fileOnly: true),
                    options: [.init(key: "foundAtSeed", value: "3")])),
            .record(.init(plan: plan, seed: 1, out: "o", schedule: .inOrderRun(run: 4, seeds: 10..<20), options: [])),
            .record(.init(plan: plan, seed: 1, out: "o", schedule: .identities(of: "t"), options: [])),
            .shrink(.init(plan: plan, trace: "/tmp/a b.simtrace", out: "/tmp/o.simtrace")),
            .inOrderCampaign(
                .init(
                    plan: plan, seeds: 5..<77, milliseconds: 4_000, keepGoing: true, marker: "/tmp/m",
                    findings: "/tmp/d")),
            .digests(.init(plan: plan, seeds: .init(start: 3, stride: 4, count: 5))),
            .replay(
                ReplayRequest(
                    trace: "/tmp/x.simtrace", variant: "fixed", noise: 2, build: "b1", judgeUnknownBuild: true)),
        ]
    }

    /// The recorded trace a prefix names, in `directory`.
    static func prefixTrace(in directory: URL) throws -> String {
        let trace = directory.appendingPathComponent("from.simtrace").path
        let source = RunPlan.probed(
            scenario: LostInputNavigation.scenario, variant: "buggy", strategy: StrategySpec(kind: .random))
        _ = try Recorder.record(plan: source, seed: 3, strategy: source.makeStrategy(), strategyName: "random", to: trace)
        return trace
    }

    @Test func everyJobRoundTripsWithEveryMemberWritten() throws {
        for job in Self.everyJob(try Self.fullDescriptor(prefix: "/tmp/f.simtrace")) {
            let text = try job.encoded()
            #expect(try ChildJob(decoding: text) == job, "\(job.kind)")
            // The schema rule: a member the writer left out is refused by name, never read as absent.
            let withoutNoise = text.replacingOccurrences(of: "\"noise\":3,", with: "")
            guard job.plan != nil else { continue }
            #expect(withoutNoise != text)
            do {
                _ = try ChildJob(decoding: withoutNoise)
                Issue.record("a \(job.kind) job without its plan's noise was read")
            } catch {
                #expect(error.kind == .usage)
                #expect(error.message.contains("no 'noise'"), "\(error.message)")
            }
        }
    }

    @Test func anotherVersionOrNoJSONIsRefused() throws {
        let text = try ChildJob.replay(ReplayRequest(trace: "t")).encoded()
        let future = text.replacingOccurrences(
            of: "\"version\":\(ChildJob.version)", with: "\"version\":\(ChildJob.version + 1)")
        #expect(future != text)
        do {
            _ = try ChildJob(decoding: future)
            Issue.record("another version was read")
        } catch {
            #expect(error.message == "child job version \(ChildJob.version + 1); this simrun reads version \(ChildJob.version)")
        }
        #expect(throws: SimEngineError.self) { try ChildJob(decoding: "work 1") }
        #expect(throws: SimEngineError.self) { try ChildJob(decoding: "") }
    }

    /// A member added to `RunPlan.Descriptor` reaches every child: the fixture must set it (else the
    /// first check fails), and the plan a child rebuilds from it and says it runs (`running`, which
    /// the parent compares with what it sent) must carry it back (else the second check fails).
    @Test func everyMemberOfThePlanReachesEveryChild() throws {
        let directory = try makeTemporaryDirectory("child-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = try Self.fullDescriptor(prefix: try Self.prefixTrace(in: directory))
        let minimal = RunPlan.Descriptor(
            scenario: "", variant: "", strategy: StrategySpec(kind: .fifo), estimatedSteps: 0, noise: 0, carriers: .off)
        let fullMembers = Array(Mirror(reflecting: full).children)
        for (set, unset) in zip(fullMembers, Mirror(reflecting: minimal).children) {
            #expect(
                String(describing: set.value) != String(describing: unset.value),
                "the fixture leaves \(set.label ?? "?") at its default: set it, so every child is shown to receive it")
        }
        guard case .object(let members) = try JSONValueEncoder().encode(full) else {
            Issue.record("a descriptor encodes as an object")
            return
        }
        #expect(members.count == fullMembers.count, "one JSON member per stored property")
        let catalog = ScenarioCatalog([LostInputNavigation.scenario])
        for job in Self.everyJob(full) {
            guard let sent = try ChildJob(decoding: try job.encoded()).plan else { continue }
            let rebuilt = try RunPlan(sent, in: catalog)
            #expect(try rebuilt.descriptor() == full, "\(job.kind)")
            #expect(rebuilt.prefix?.keep == 2 && rebuilt.prefix?.tape.decisions.isEmpty == false)
        }
    }

    @Test func everyReplyRoundTripsAndOtherLinesAreSkipped() throws {
        let summary = ChildReply.InOrderSummary(
            schedules: 40, failures: 3,
            findings: [.init(seed: 7, verdict: .fail(oracle: "o", message: "m"), steps: 12, occurrences: 2, trace: "t")],
            goals: ["g"], goalCounts: [4], seconds: 0.5, exhausted: true,
            exhaustedRounds: [], learning: "learned", interrupted: true,
            explored: .init(
                Explored(
                    runs: 40, distinct: 2, isLowerBound: false, runsWithoutDecisions: 1,
                    uncontrolled: [
                        .init(
                            kind: .runLoop, runs: 3, occurrences: 4,
                            example: Uncontrolled(kind: .runLoop, detail: "Timer", site: "f()"), seed: 5)
                    ], digests: [9, 11])))
        let replies: [ChildReply] = [
            .running(try Self.fullDescriptor(prefix: "/tmp/f")), .running(nil),
            .planned(estimatedSteps: 9, goals: ["a", "b"]), .partial(path: "/tmp/p q"), .notReproduced,
            .failure(kind: .missingInput, message: "gone"), .sample(seed: 1, digest: .max, verdictCode: 2),
            .campaign(summary),
        ]
        let stdout = replies.map(\.line).joined(separator: "\nthe model printing\n")
        #expect(ChildReply.replies(in: stdout) == replies)
    }

    /// An unknown scenario or variant in a job is an error in the child, never another plan.
    @Test func aChildRefusesAPlanItsCatalogDoesNotKnow() throws {
        var plan = try Self.fullDescriptor(prefix: "/nonexistent/f.simtrace")
        plan.prefix = nil
        let catalog = ScenarioCatalog([LostInputNavigation.scenario])
        #expect(throws: Never.self) { try RunPlan(plan, in: catalog) }
        var unknown = plan
        unknown.scenario = "no-such-scenario"
        #expect(throws: SimEngineError.self) { try RunPlan(unknown, in: catalog) }
        unknown = plan
        unknown.variant = "no-such-variant"
        #expect(throws: SimEngineError.self) { try RunPlan(unknown, in: catalog) }
        unknown = plan
        unknown.noise = RunPlan.maxNoise + 1
        #expect(throws: SimEngineError.self) { try RunPlan(unknown, in: catalog) }
    }
}
