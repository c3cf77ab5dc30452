import SimCapture
import SimCore

/// The issue #23 case: an ordinary `@MainActor` frame loop that sleeps 16 ms per frame, beside a view
/// model under test. The view model debounces each keystroke for 333 ms in a `Task {}`, then searches;
/// a response takes 7, 16 or 333 ms (a data choice). Every frame measures its length on
/// `ContinuousClock` and stamps it on `DispatchTime`, as animation code does.
///
/// `buggy` never cancels the previous search task, so an older response can land last. `fixed`
/// cancels it and checks `Task.isCancelled` after the await. Whatever the variant, every frame must
/// last exactly 16 ms of the run's clock (`frame-pace`): a sleep whose virtual length depended on the
/// machine's load would fail it, and would make failure counts differ from one repeat to the next.
public enum FrameLoopSearch {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario.async(
        name: "frame-loop-search",
        summary: "a debounced @MainActor search beside a 16 ms @MainActor frame loop; a stale response wins",
        variants: [
            .init("buggy", "a Task per keystroke, the previous one never cancelled"),
            .init("fixed", "cancel the previous Task; check Task.isCancelled after the await"),
        ],
        limits: RunLimits(maxSteps: 5_000)
    ) { simulation, variant in
        let screen = SearchScreen()
        let frames = FrameLoop()
        simulation.atEnd("results-match-latest-query") {
            guard let shown = screen.resultsQuery else { return "no results were ever shown" }
            return shown == screen.query
                ? nil : "the field shows \"\(screen.query)\" but the list shows results for \"\(shown)\""
        }
        simulation.atEnd("frame-pace") { frames.problem }
        let loop = Task { @MainActor in await frames.run() }
        let model = await FrameSearchModel(
            simulation: simulation, screen: screen, cancelsPrevious: variant == "fixed")
        for (pause, query) in [(0, "s"), (16, "sw"), (333, "swi"), (7, "swif")] {
            if pause > 0 { try? await Task.sleep(for: .milliseconds(pause)) }
            await model.type(query)
        }
        await model.waitForSearches()
        await frames.stop()
        await loop.value
    }
}

/// A `@MainActor` render loop: one frame every 16 ms until stopped.
@MainActor final class FrameLoop: @unchecked Sendable {
    private var running = true
    private(set) var count = 0
    /// The first frame whose length was not 16 ms, if any (read after the run).
    nonisolated(unsafe) var problem: String?

    func run() async {
        var last = ContinuousClock.now
        while running {
            try? await Task.sleep(for: .milliseconds(16))
            let now = ContinuousClock.now
            count += 1
            if now - last != .milliseconds(16) && problem == nil {
                problem = "frame \(count) lasted \(now - last), not 16 ms"
            }
            last = now
        }
    }

    func stop() { running = false }
}

@MainActor final class FrameSearchModel {
    let simulation: Simulation
    let screen: SearchScreen
    let cancelsPrevious: Bool
    private var task: Task<Void, Never>?
    private var tasks: [Task<Void, Never>] = []

    init(simulation: Simulation, screen: SearchScreen, cancelsPrevious: Bool) {
        self.simulation = simulation
        self.screen = screen
        self.cancelsPrevious = cancelsPrevious
    }

    func type(_ query: String) {
        screen.query = query
        if cancelsPrevious { task?.cancel() }
        let simulation = simulation
        // The response time is drawn per keystroke (both variants ask it, so a buggy schedule replays
        // on fixed decision for decision).
        let latency = [7, 16, 333][simulation.choose(3, "search.latency")]
        let started = Task {
            do { try await Task.sleep(for: .milliseconds(333)) } catch { return }
            simulation.emit("search.request", query, ["latency": .int(latency)])
            try? await Task.sleep(for: .milliseconds(latency))
            if cancelsPrevious && Task.isCancelled { return }
            if query != screen.query { screen.staleArrivals += 1 }
            screen.resultsQuery = query
            simulation.emit("search.show", query)
        }
        task = started
        tasks.append(started)
    }

    func waitForSearches() async {
        for task in tasks { await task.value }
    }
}
