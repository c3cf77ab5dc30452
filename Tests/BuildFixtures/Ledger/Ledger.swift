// A user's code at four commits, for the "replay on another build" tests (issue #30) and the
// bisection test (issue #43): each executable beside this library (ledger-recorded, ledger-fixed,
// ledger-moved, ledger-asserting) is one build of the same scenarios `ledger` and `search`
// (StaleSearch.swift), variant `default`, as `git checkout <commit> && swift build` would give.
import SimCore

/// Which commit of the user's code an executable was built from.
public enum LedgerCode: Sendable {
    /// The bug: `payout` reads the balance in one job and writes it back in a later one, so a
    /// `deposit` landing between them is lost. Fifo runs the deposit first and passes.
    case buggy
    /// The fix: the same jobs (same lanes, labels, order), but the write adds the payout to the
    /// balance it finds then: no update can be lost.
    case fixed
    /// A refactoring that moved both sides of the race into jobs of other names (`teller/credit`,
    /// `payout/load`), the bug kept: the recorded schedule names jobs this build never runs, so
    /// its race cannot be taken here (the new jobs run oldest first, as fifo would).
    case moved
    /// The bug kept, and an assertion added that traps when the balance goes negative: the lost
    /// deposit now ends the process (a crash on the recorded schedule, a pass on fifo).
    case asserting
}

/// The scenario as built from `code`.
public func ledgerScenario(_ code: LedgerCode) -> Scenario {
    Scenario(
        name: "ledger",
        summary: "a deposit landing between a payout's read and write is lost",
        variants: [.init("default", "the code of this build")],
        limits: RunLimits(maxSteps: 100)
    ) { simulation, _ in
        let ledger = Balance()
        let teller = simulation.lane("teller")
        let payout = simulation.lane("payout")
        simulation.post(teller, simulation.symbol(code == .moved ? "credit" : "deposit")) {
            ledger.value += 10
            simulation.emit("ledger.deposit", "teller", ["balance": .int(ledger.value)])
        }
        simulation.post(payout, simulation.symbol(code == .moved ? "load" : "read")) {
            let seen = ledger.value
            simulation.emit("ledger.read", "payout", ["balance": .int(seen)])
            simulation.post(payout, simulation.symbol("write")) {
                ledger.value = code == .fixed ? ledger.value - 5 : seen - 5
                if code == .asserting { precondition(ledger.value >= 0, "negative balance \(ledger.value)") }
                simulation.emit("ledger.write", "payout", ["balance": .int(ledger.value)])
            }
        }
        simulation.atEnd("no lost deposit") {
            ledger.value == 5 ? nil : "the balance is \(ledger.value) after a deposit of 10 and a payout of 5"
        }
    }
}

/// The account (one simulation, one thread).
final class Balance {
    var value = 0
}
