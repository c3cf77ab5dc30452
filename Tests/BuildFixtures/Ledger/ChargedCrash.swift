// A crash whose message carries a number the schedule decides, in ledger-recorded: shrinking keeps
// the same crash (numbers aside) with another number, so a campaign's saved crash ends in another
// verdict than the one found (issue #45: the entry must carry the shrunk trace's verdict).
import SimCore

/// `charged-crash`/`buggy`: `b/fire` traps when it runs before `a/arm` (a random schedule's choice;
/// fifo arms first), naming a charge it drew (fifo draws 0).
public let chargedCrash = Scenario(
    name: "charged-crash", summary: "firing before arming traps, naming the charge drawn",
    variants: [.init("buggy", "no check before firing")]
) { simulation, _ in
    let armed = Armed()
    simulation.post(on: "a", "arm") { armed.value = true }
    simulation.post(on: "b", "fire") {
        if armed.value { return }
        fireCharged(simulation.choose(8, "charge"))
    }
}

/// The trap, with the drawn charge in its message.
@inline(never) func fireCharged(_ charge: Int) {
    preconditionFailure("fired before armed with charge \(charge)")
}
