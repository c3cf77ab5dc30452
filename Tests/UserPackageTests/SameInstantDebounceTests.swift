import Dispatch
import Foundation
import SimCapture
import SimCore
import SimEngine
import SimTestSupport
import SimTesting
import Testing

/// Same-instant timers are a choice (issue #40): a search field debounced with `DispatchWorkItem`s,
/// whose slow answer to "sw" and fast answer to "swift" are both scheduled with
/// `DispatchQueue.main.asyncAfter` for the same instant. On a device timer leeway and clock jitter
/// let either land last; here the two are exactly due together and their order is a decision, so
/// exploration finds the stale answer (`fifo`, the order they were set, never does).
@Suite(.enabled(if: gcdUseExpected, "GCD runs under the scheduler on Linux only for now"))
struct SameInstantDebounceTests {
    final class Field: @unchecked Sendable {
        var text = ""
        var shown: String?
        var pending: DispatchWorkItem?
    }

    static let scenario = Scenario(
        name: "same-instant-debounce", summary: "a stale answer due at the same instant as the fresh one",
        variants: [.init("buggy", "shows every answer"), .init("fixed", "shows an answer only for the field's text")]
    ) { simulation, variant in
        guard DispatchCapturing.requireActive(simulation) else { return }
        let field = Field()
        func type(_ text: String) {
            field.text = text
            field.pending?.cancel()
            let item = DispatchWorkItem {
                // The backend: "sw" is slow (500 ms), "swift" fast (100 ms).
                let latency = text == "sw" ? 500 : 100
                DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(latency)) {
                    if variant == "fixed" && text != field.text { return }
                    field.shown = "results(\(text))"
                }
            }
            field.pending = item
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(300), execute: item)
        }
        // "sw" searches at 300 ms, its answer due at 800; "swift" at 700 ms, its answer due at 800.
        DispatchQueue.main.async { type("sw") }
        DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(400)) { type("swift") }
        simulation.atEnd("results-match-text") {
            field.shown == "results(\(field.text))"
                ? nil : "the field shows \"\(field.text)\" but the list shows \(field.shown ?? "nothing")"
        }
    }

    @Test func theStaleAnswerIsFoundByExplorationAndTheFixIsClean() throws {
        try #require(DispatchCapturing.isActive)
        let directory = try makeTemporaryDirectory("same-instant")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = explore(Self.scenario, strategy: "fifo", seeds: 0..<50, failureDirectory: directory.path)
        #expect(fifo.failure == nil, "the order they were set shows the fresh answer last")
        var found: Exploration?
        withKnownIssue {
            found = explore(Self.scenario, failureDirectory: directory.path)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("results-match-text")
        }
        let failure = try #require(found?.failure, "the default strategy finds it")
        #expect(failure.seed < 20, "found at seed \(failure.seed)")
        let input = try TraceInput(path: failure.tracePath)
        #expect(input.tape.decisions.filter(\.isDeviation).count == 1, "shrunk to the one order decision")
        let kept = try #require(input.tape.decisions.first { $0.isDeviation })
        #expect(input.tape.text(kept.label) == "timer.order main" && kept.kind == .permute)
        let fixed = explore(
            Self.scenario, variant: "fixed", seeds: 0..<2_000, failureDirectory: directory.path)
        #expect(fixed.failure == nil && fixed.schedules == 2_000)
        #expect(fixed.distinctSchedules > 1, "both orders ran on the fix")
    }
}
