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
            .init("no-read", "the read is gone (the race with it), and nothing else fails"),
            .init("no-read-broken", "the read is gone, but two other jobs race and fail when the newer runs first"),
        ]
    ) { sim, variant in
        let written = ValueBox(false)
        let readEarly = ValueBox(false)
        if variant.hasPrefix("no-read") {
            sim.post(on: "a", "a.write") { written.value = true }
            guard variant == "no-read-broken" else { return }
            let first = ValueBox(false)
            let late = ValueBox(false)
            sim.post(on: "d", "d.first") { first.value = true }
            sim.post(on: "e", "e.second") { if !first.value { late.value = true } }
            sim.always("first-before-second") { late.value ? "e.second ran before d.first" : nil }
            return
        }
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

    @Test func aFixThatRemovesTheRaceIsCheckedByAPctCampaignInstead() throws {
        // The read never runs on `no-read`: the recorded race is gone, the replay cannot test the
        // fix, and a pct campaign on the variant stands in for it — passing when nothing fails ...
        let corpus = try Self.corpus()
        #expect(corpus.replayOnFixed(corpus.traces[0], variant: "no-read"))
        // ... and failing when the variant fails elsewhere, which the replay alone would not show.
        var passed = true
        withKnownIssue {
            passed = corpus.replayOnFixed(corpus.traces[0], variant: "no-read-broken")
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("removes the recorded race, but fails elsewhere")
        }
        #expect(!passed)
    }
}
