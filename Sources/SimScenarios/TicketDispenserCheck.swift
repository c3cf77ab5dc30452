import SimCapture
import SimCore

/// Linearizable but not atomic: the two checks differ, and this scenario shows where.
///
/// `next()` awaits its audit log *before* it touches state, then takes the next ticket number. Two
/// overlapping calls can take their numbers in the other order than they were invoked: the first
/// caller, suspended at its await, gets 2 while the second gets 1. Some one-at-a-time order explains
/// that (the second call first), so the history is linearizable: the `linearizable` variant passes
/// every schedule. But the first call's result was changed by a call that ran during its await:
/// the `atomic` variant — the same code under the per-call atomicity check — fails with "call t1.1
/// was interleaved at its await by call t2.1". Whether that matters is the author's call: tickets
/// stay unique, but they no longer follow the order the calls were made in.
///
/// Known minimal scenario (atomic variant): `next()` ‖ `next()` → 2 and 1.
public enum TicketDispenserCheck {
    /// The minimal failing scenario of the `atomic` variant.
    public static let minimal = CallScenario(tasks: [[.init(0)], [.init(0)]])

    /// The declaration: `next()` and `peek()`.
    public static let check = ObjectCheck<TicketDispenser>(
        name: "ticket-dispenser-check",
        summary: "linearizable but not atomic: a call awaits before it takes its ticket, so tickets can swap order",
        variants: [
            .init("linearizable", "checked for linearizability: passes, tickets stay unique", property: .linearizable) {
                _ in TicketDispenser()
            },
            .init("atomic", "the same code checked for per-call atomicity: fails at the await", property: .atomic) {
                _ in TicketDispenser()
            },
        ],
        operations: [
            .init("next") { await $0.next() },
            .init("peek") { await $0.peek() },
        ])

    /// The scenario `simrun list` shows.
    public static let scenario = check.scenario()
}

/// The dispenser under test.
public actor TicketDispenser {
    let audit = WriteAheadLog()
    private var issued = 0

    /// The next ticket number (audits the request first).
    public func next() async -> Int {
        await audit.append(issued)
        issued += 1
        return issued
    }

    /// The last ticket issued.
    public func peek() -> Int { issued }
}
