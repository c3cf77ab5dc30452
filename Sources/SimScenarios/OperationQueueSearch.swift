import Foundation
import SimCapture
import SimCore

/// A search screen reuses one `OperationQueue` for its requests: each keystroke cancels what is
/// queued (`cancelAllOperations()`) and adds a request operation, which hands its answer back to the
/// main queue after the request's latency (50 or 300 ms, a data choice of the run). Cancelling does
/// nothing to an operation that already ran: the answer to "sw" is on its way when "swift" is typed.
///
/// `buggy` shows whatever answer arrives; `fixed` drops an answer whose query is no longer the one
/// in the field. The queue's operations, the hop back and the timers all run under the scheduler
/// (the GCD capture), so the default `fuzz` finds it without `--preempt`.
public enum OperationQueueSearch {
    /// The scenario: `buggy`, `fixed`.
    public static let scenario = Scenario.async(
        name: "operation-queue-search",
        summary:
            "one reused OperationQueue serves every keystroke: cancelAllOperations misses a request that already"
            + " ran, and its late answer replaces the newer one",
        variants: [
            .init("buggy", "shows whatever answer arrives last"),
            .init("fixed", "drops an answer whose query is no longer the one in the field"),
        ],
        limits: RunLimits(maxSteps: 2_000)
    ) { simulation, variant in
        let screen = await RequestQueueScreen(simulation: simulation, checksQuery: variant == "fixed")
        await screen.type("sw")
        try? await Task.sleep(for: .milliseconds(30))
        await screen.type("swift")
        try? await Task.sleep(for: .seconds(1))
        let (query, results, stale) = await (screen.query, screen.results, screen.staleArrivals)
        simulation.sometimes("an older answer arrived after the newer one") { stale > 0 }
        simulation.check(
            "results-match-query", results == nil || results == "results(\(query))",
            "the field shows \"\(query)\" but the list shows \(results ?? "nothing")")
    }
}

@MainActor final class RequestQueueScreen {
    let simulation: Simulation
    let checksQuery: Bool
    let queue = OperationQueue()
    private(set) var query = ""
    private(set) var results: String?
    private(set) var staleArrivals = 0

    init(simulation: Simulation, checksQuery: Bool) {
        self.simulation = simulation
        self.checksQuery = checksQuery
        queue.maxConcurrentOperationCount = 1
    }

    func type(_ text: String) {
        query = text
        queue.cancelAllOperations()
        let latency = [0.05, 0.3][simulation.choose(2, "request.latency")]
        queue.addOperation { [self] in
            let answer = "results(\(text))"
            DispatchQueue.main.asyncAfter(deadline: .now() + latency) {
                MainActor.assumeIsolated { self.arrive(answer, for: text) }
            }
        }
    }

    private func arrive(_ answer: String, for text: String) {
        if text != query && results == "results(\(query))" { staleArrivals += 1 }
        if checksQuery && text != query { return }
        results = answer
    }
}
