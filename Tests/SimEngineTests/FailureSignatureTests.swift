import SimCore
import SimEngine
import Testing

/// What makes two failures "the same bug": the shrinker keeps a candidate only when it fails the
/// way the original did, and a campaign counts distinct failures by signature.
@Suite struct FailureSignatureTests {
    @Test func aFailureOfAnotherOracleIsNotTheSameFailure() {
        let target = FailureSignature(.fail(oracle: "no-lost-update", message: "counter is 1 after 2 increments"))
        #expect(target.matches(.fail(oracle: "no-lost-update", message: "counter is 2 after 3 increments")))
        #expect(!target.matches(.fail(oracle: "read-after-write", message: "counter is 1 after 2 increments")))
        #expect(!target.matches(.pending("work still pending at the end: effects: 1 effect still running")))
        #expect(!target.matches(.pass))
    }

    @Test func numbersAreBlankedSoOneBugIsOneSignature() {
        let one = FailureSignature(.fail(oracle: "no-lost-update", message: "counter is 1 after 2 increments"))
        let other = FailureSignature(.fail(oracle: "no-lost-update", message: "counter is 17 after 18 increments"))
        #expect(one == other && one.id == other.id)
        #expect(one.description == "no-lost-update: counter is # after # increments")
        #expect(FailureSignature(.stepLimit(50)) != FailureSignature(.timeLimit(50)))
        #expect(
            FailureSignature(.pending("1 effect still running")).description == "pending-work: # effect still running")
    }
}
