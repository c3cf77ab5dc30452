// A crash to tell apart from others across build configurations (issue #43), in ledger-recorded.
// A debug build traps with the runtime's message; an optimized build dies of a signal without one.
// A test stands in for the optimized build without building one: with SIMRUN_TEST_TRAP=signal the
// same function dies of a signal without a message, and with SIMRUN_TEST_TRAP=elsewhere another
// function of the same job does (another crash).
import SimCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `crash-site`/`buggy`: `b/fire` traps when it runs before `a/arm` (a random schedule's choice; fifo
/// arms first).
public let crashSite = Scenario(
    name: "crash-site", summary: "firing before arming traps", variants: [.init("buggy", "no check before firing")]
) { simulation, _ in
    let armed = Armed()
    simulation.post(on: "a", "arm") { armed.value = true }
    simulation.post(on: "b", "fire") {
        if armed.value { return }
        if trapMode == "elsewhere" { trapElsewhere() }
        fireBeforeArmed()
    }
}

/// How the test asks the process to trap (read once).
private let trapMode = getenv("SIMRUN_TEST_TRAP").map { String(cString: $0) } ?? ""

/// The trap: the runtime's message in a debug build, or (standing in for an optimized build) a
/// fault in this same function without one, as an optimized build's trap is: the process dies of a
/// signal with the program counter in this function's code.
@inline(never) func fireBeforeArmed() {
    if trapMode == "signal" { UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1 }
    preconditionFailure("fired before armed")
}

/// Another function of the same job that dies without a message: another crash.
@inline(never) func trapElsewhere() { UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1 }

final class Armed: @unchecked Sendable {
    var value = false
}
