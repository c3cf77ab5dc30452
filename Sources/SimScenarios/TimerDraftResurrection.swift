import Foundation
import SimCapture
import SimCore

/// A sent message comes back as a draft: a `@MainActor` composer autosaves with a Foundation `Timer`
/// on the main run loop, 300 ms after the last keystroke, saving the text it had when the timer was
/// scheduled. The user types "Hello" and taps Send 100 ms later; sending takes 100 or 300 ms (a data
/// choice of the run). When the send completes first, the timer fires after it and saves "Hello" as a
/// draft again — the app shows the message sent *and* still in the composer's drafts.
///
/// `buggy` leaves the autosave timer scheduled when Send is tapped; `fixed` invalidates it. The timer
/// fires as a `main`-lane job at its virtual fire date (run-loop timers run under the scheduler);
/// without that capture it would never fire and every run would pass.
public enum TimerDraftResurrection {
    /// The scenario: `buggy`, `fixed`.
    public static let scenario = Scenario.async(
        name: "timer-draft-resurrection",
        summary:
            "a Foundation Timer autosaves a draft after it was sent: the sent message comes back as a draft"
            + " (a RunLoop timer under the scheduler) — a race: fifo passes",
        variants: [
            .init("buggy", "Send leaves the autosave Timer scheduled"),
            .init("fixed", "Send invalidates the autosave Timer"),
        ],
        limits: RunLimits(maxSteps: 2_000)
    ) { simulation, variant in
        let outbox = Outbox(simulation: simulation)
        let composer = await Composer(outbox: outbox, invalidatesOnSend: variant == "fixed")
        simulation.sometimes("the autosave fired before the send completed") { outbox.autosavesBeforeSend > 0 }
        simulation.sometimes("the send completed before the autosave was due") { outbox.sendsBeforeAutosave > 0 }
        await composer.type("Hello")
        try? await Task.sleep(for: .milliseconds(100))
        await composer.send()
        // The user looks at the drafts a second later.
        try? await Task.sleep(for: .seconds(1))
        let (draft, sent) = await (composer.draft, outbox.sent)
        simulation.check(
            "sent-message-not-a-draft", draft == nil || !sent.contains(draft!),
            "the drafts hold \"\(draft ?? "")\", which was sent")
    }
}

/// The server: sending takes 100 or 300 ms.
final class Outbox: @unchecked Sendable {
    let simulation: Simulation
    private(set) var sent: [String] = []
    var autosavesBeforeSend = 0
    var sendsBeforeAutosave = 0

    init(simulation: Simulation) { self.simulation = simulation }

    func send(_ message: String) async {
        let latency = [100, 300][simulation.choose(2, "send.latency")]
        try? await Task.sleep(for: .milliseconds(latency))
        sent.append(message)
    }
}

@MainActor final class Composer {
    let outbox: Outbox
    let invalidatesOnSend: Bool
    private(set) var text = ""
    private(set) var draft: String?
    private var autosave: Timer?
    private var sending = false

    init(outbox: Outbox, invalidatesOnSend: Bool) {
        self.outbox = outbox
        self.invalidatesOnSend = invalidatesOnSend
    }

    func type(_ newText: String) {
        text = newText
        autosave?.invalidate()
        let snapshot = newText
        autosave = Timer.scheduledTimer(withTimeInterval: 0.3, repeats: false) { [weak self] _ in
            MainActor.assumeIsolated { self?.saveDraft(snapshot) }
        }
    }

    private func saveDraft(_ snapshot: String) {
        if sending { outbox.autosavesBeforeSend += 1 }
        draft = snapshot
    }

    func send() async {
        if invalidatesOnSend { autosave?.invalidate() }
        let message = text
        sending = true
        await outbox.send(message)
        sending = false
        if autosave?.isValid == true { outbox.sendsBeforeAutosave += 1 }
        text = ""
        draft = nil
    }
}
