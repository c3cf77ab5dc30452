import SimCore
import SimModels
import SimTestSupport
import Testing

/// A gate board that completes (successfully) when told to.
private final class GateBoard: ActivatableBoard {
    let identifier = "login"
    weak var delegate: Motherboard?
    let sim: Simulation
    var activations = 0
    init(_ sim: Simulation) { self.sim = sim }
    func activate(withOption option: BoardOption) { activations += 1 }
    func finish() { complete(true, in: sim) }
}

/// A board that counts its activations.
private final class TargetBoard: ActivatableBoard {
    let identifier = "checkout"
    weak var delegate: Motherboard?
    var opened = 0
    func activate(withOption option: BoardOption) { opened += 1 }
}

/// congncif/boardy `Boardy/Core/BoardType/ActivatableBarrierBoard.swift` (before and after commit
/// 7ccc9991) and `Boardy/Core/BoardType/MotherboardType.swift` (`restoreBarrierCompletionFlows`),
/// the behaviour `Example/Tests/ActivatableBarrierBoardTests.swift` pins in
/// `testBarrierRecoversAfterResetFlows`.
@Suite struct ActivationBarrierBoardTests {
    private struct Outcome {
        var opened = 0
        var pending = 0
        var flowsAfter: [String] = []
        var gateActivations = 0
    }

    private func run(fixed: Bool, resetWhileWaiting: Bool) -> Outcome {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let motherboard = Motherboard("shop", sim: sim, restoresBarrierFlows: fixed)
        let gate = GateBoard(sim)
        let target = TargetBoard()
        motherboard.installBoard(gate)
        motherboard.installBoard(target)
        let barrier = ActivationBarrierBoard(
            gate: "login", owner: motherboard, sim: sim, registration: fixed ? .live : .latched)
        sim.post(on: "main", "tap") {
            barrier.request("checkout")
            barrier.request("checkout")  // joins the cycle: one gate activation for both
        }
        sim.post(on: "main", "refresh") { if resetWhileWaiting { motherboard.resetFlows() } }
        sim.post(on: "main", "login") { gate.finish() }
        #expect(sim.run().verdict == .pass)
        return Outcome(
            opened: target.opened, pending: barrier.pendingCount, flowsAfter: motherboard.flowNames,
            gateActivations: gate.activations)
    }

    @Test func theGateOpensEveryPendingActivationInOrder() {
        for fixed in [false, true] {
            let outcome = run(fixed: fixed, resetWhileWaiting: false)
            #expect(outcome.opened == 2)
            #expect(outcome.gateActivations == 1)
            #expect(outcome.pending == 0)
        }
    }

    @Test func resetFlowsWhileWaitingStrandsALatchedBarrierAndNotARestoredOne() {
        let before = run(fixed: false, resetWhileWaiting: true)
        #expect(before.opened == 0, "the gate completed with nobody listening")
        #expect(before.pending == 2)
        let after = run(fixed: true, resetWhileWaiting: true)
        #expect(after.opened == 2)
        #expect(after.pending == 0)
    }

    /// ad68c058: the barrier takes its completion flow back off its owner when it completes; before,
    /// every gate cycle left one behind.
    @Test func aCompletedBarrierLeavesItsFlowOnlyBeforeTheFix() {
        let before = run(fixed: false, resetWhileWaiting: false)
        #expect(before.flowsAfter.contains("boardy.barrier.completion.login___PRIVATE_BARRIER___"))
        let after = run(fixed: true, resetWhileWaiting: false)
        #expect(after.flowsAfter == ["default.activation", "default.completion"])
    }
}
