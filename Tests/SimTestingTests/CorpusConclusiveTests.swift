import Foundation
import SimCore
import SimTestSupport
import SimTesting
import Testing

/// `TraceCorpus.replayOnFixed` passes a fix only when the recorded race happened on it: a fix whose
/// run never re-enacted the recorded departure tested nothing and must record an issue, not pass.
@Suite struct CorpusConclusiveTests {
    /// `b.read` before `a.write` is the bug (variant `buggy`). `fixed` keeps both jobs and the race.
    /// `apart` posts the write from a new job on lane c, so the read is always the older of the two
    /// and is never taken ahead of the write: the recorded race cannot happen there.
    static let racing = Scenario(
        name: "corpus-race", summary: "a read that must come after a write",
        variants: [
            .init("buggy", "read before write fails"), .init("fixed", "the same race, no bug"),
            .init("apart", "the write is posted later, by another job"),
        ]
    ) { sim, variant in
        let written = ValueBox(false)
        let readEarly = ValueBox(false)
        if variant == "apart" {
            sim.post(on: "b", "b.read") {}
            sim.post(on: "c", "c.kick") { sim.post(on: "a", "a.write") { written.value = true } }
            return
        }
        sim.post(on: "a", "a.write") { written.value = true }
        sim.post(on: "b", "b.read") { if !written.value && variant == "buggy" { readEarly.value = true } }
        sim.always("read-after-write") { readEarly.value ? "the read ran before the write" : nil }
    }

    /// A corpus holding one failing `buggy` trace (saved by `explore`, as a user would).
    static func corpus() throws -> TraceCorpus {
        let directory = try makeTemporaryDirectory("corpus-race").path
        withKnownIssue {
            _ = explore(racing, variant: "buggy", strategy: "random", seeds: 0..<50, failureDirectory: directory)
        }
        let corpus = TraceCorpus(directory: directory, scenarios: [racing])
        #expect(corpus.traces.count == 1 && !corpus.traces[0].isMissing)
        return corpus
    }

    @Test func aFixOnWhichTheRecordedRaceHappenedPasses() throws {
        let corpus = try Self.corpus()
        #expect(corpus.replayOnFixed(corpus.traces[0]))
    }

    @Test func aFixOnWhichTheRecordedRaceNeverHappenedIsAnIssueNotAPass() throws {
        let corpus = try Self.corpus()
        var passed = true
        withKnownIssue {
            passed = corpus.replayOnFixed(corpus.traces[0], variant: "apart")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("on apart") && text.contains("inconclusive")
        }
        #expect(!passed, "a pass on a schedule whose race never happened tested nothing")
    }
}
