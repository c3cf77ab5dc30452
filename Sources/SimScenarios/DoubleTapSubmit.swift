import SimCapture
import SimCore

/// A double submit, in plain Swift concurrency: a `@MainActor` button handler starts
/// `Task { await api.submit(order) }`. The user taps twice, 100 ms apart; the button only disappears
/// once the first submission has come back, which takes 50 or 250 ms (a data choice of the run: the
/// `fifo` order, a test with an immediate fake server, takes the fast one and passes).
///
/// `buggy` guards on "already submitted", which is only true after the response, so a second tap
/// while the first is in flight submits again. `fixed` marks the submission in flight on the main
/// actor before starting the task and ignores taps while it is. Needs the executor-factory route.
public enum DoubleTapSubmit {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario.async(
        name: "double-tap-submit",
        summary:
            "a @MainActor button handler starts a submit Task per tap; two taps submit twice"
            + " — a race: fifo passes",
        variants: [
            .init("buggy", "the handler only checks for a finished submission"),
            .init("fixed", "the handler marks the submission in flight on the main actor first"),
        ],
        limits: RunLimits(maxSteps: 2_000)
    ) { simulation, variant in
        let api = OrderService(simulation: simulation)
        simulation.atEnd("order-submitted-once") {
            api.count == 1 ? nil : "the order was submitted \(api.count) times"
        }
        simulation.sometimes("tap while in flight") { api.tapsWhileInFlight > 0 }
        let button = await SubmitButton(api: api, guardsInFlight: variant == "fixed")
        await button.tap(1)
        try? await Task.sleep(for: .milliseconds(100))
        await button.tap(2)
        await button.waitForSubmission()
    }
}

/// The order backend: a submission is acknowledged after 50 or 250 ms.
final class OrderService: @unchecked Sendable {
    let simulation: Simulation
    var count = 0
    var inFlight = 0
    var tapsWhileInFlight = 0

    init(simulation: Simulation) { self.simulation = simulation }

    func submit(_ tap: Int) async {
        inFlight += 1
        count += 1
        let latency = [50, 250][simulation.choose(2, "submit.latency")]
        simulation.emit("order.submit", "order", ["tap": .int(tap), "count": .int(count), "latency": .int(latency)])
        try? await Task.sleep(for: .milliseconds(latency))
        inFlight -= 1
    }
}

@MainActor final class SubmitButton {
    let api: OrderService
    let guardsInFlight: Bool
    private var submitting = false
    private var submitted = false
    private var submissions: [Task<Void, Never>] = []

    init(api: OrderService, guardsInFlight: Bool) {
        self.api = api
        self.guardsInFlight = guardsInFlight
    }

    func tap(_ number: Int) {
        if api.inFlight > 0 { api.tapsWhileInFlight += 1 }
        api.simulation.emit("button.tap", "submit", ["tap": .int(number)])
        guard !submitted, !(guardsInFlight && submitting) else { return }
        submitting = true
        submissions.append(
            Task {
                await api.submit(number)
                submitting = false
                submitted = true
            })
    }

    func waitForSubmission() async {
        for submission in submissions { await submission.value }
    }
}
