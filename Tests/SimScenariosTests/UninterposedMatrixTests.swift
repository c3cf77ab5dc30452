import Foundation
import SimCapture
import SimCore
import SimScenarios
import SimTestSupport
import Testing

/// The capture matrix with the interposition layer switched off (issue #40, item 11):
/// `SIMRUN_INTERPOSE=off` gives `simrun` the shape of a platform without the layer (macOS today).
/// Each construct is captured by the routes that do not interpose (the executors) or reported — a
/// run that fails or says what it did not control (exit 1 or 2) — never passed.
@Suite struct UninterposedMatrixTests {
    static let off = [Interposition.environmentVariable: "off"]

    @Test func thisTestProcessKeepsTheLayer() {
        #expect(!Interposition.isSwitchedOff, "the switch is read from the environment, and this process has none")
        #expect(Interposition.environmentVariable == "SIMRUN_INTERPOSE")
    }

    @Test(arguments: CaptureProbe.constructs.map(\.variant))
    func theUninterposedColumnIsWhatTheMatrixSays(_ variant: String) throws {
        let expected = try #require(CaptureProbe.constructs.first { $0.variant == variant }).uninterposed
        let run = try SimrunProcess.run(
            ["run", "capture-probe", "--variant", variant, "--seed", "0"], environment: Self.off)
        if expected {
            #expect(run.status == 0, "\(variant): \(run.stdout)\(run.stderr)")
        } else {
            // Reported by simrun (`stays-in-simulation`), or, where the matrix says simrun cannot see
            // the construct without the layer, failed by the probe's own check (`captured`).
            #expect(run.status == 1, "\(variant) must be reported, not passed: \(run.stdout)")
            if CaptureProbe.unseenWithoutInterposition.contains(variant) {
                #expect(
                    run.stdout.contains("stays-in-simulation: ") || run.stdout.contains("captured: "),
                    "\(variant): \(run.stdout)")
            } else {
                #expect(run.stdout.contains("stays-in-simulation: "), "simrun reports \(variant): \(run.stdout)")
            }
        }
    }

    /// The probe's "ran inside the run" check: the run's thread (or a carrier of it) answers true
    /// inside a job; once the run is over the same thread is no run's.
    @Test func aRunKnowsTheThreadThatRunsIt() {
        let seen = ValueBox<[Bool]>([])
        let simulation = Simulation(seed: 0, strategy: FIFOStrategy())
        simulation.post(on: "main", "job") { seen.value.append(simulation.runsOnCallingThread) }
        _ = simulation.run()
        seen.value.append(simulation.runsOnCallingThread)
        #expect(seen.value == [true, false])
    }

    /// What the layer provides is gone with it: GCD, clocks, run loops and threads are not the run's.
    @Test func theSwitchTakesEveryInterposedCaptureAway() throws {
        #if os(Linux)
            let on = try SimrunProcess.run(["run", "capture-probe", "--variant", "dispatch-main", "--seed", "0"])
            #expect(on.status == 0, "\(on.stdout)")
        #endif
        let off = try SimrunProcess.run(
            ["run", "capture-probe", "--variant", "clock-reads", "--seed", "0"], environment: Self.off)
        #expect(off.status == 1, "\(off.stdout)")
        #expect(off.stdout.contains("captured: "), "the clocks stay real: \(off.stdout)")
    }

    /// A `Thread` is a carrier of the run under `--preempt` (Linux, with the layer): its work and its
    /// hop back run inside the run; on the one-thread path it is reported (the matrix's row).
    @Test(.enabled(if: ThreadsCapture.isActive, "threads are the run's where the layer is (Linux)"))
    func aThreadIsCapturedOnCarriers() throws {
        let run = try SimrunProcess.run(
            ["run", "capture-probe", "--variant", "thread", "--seed", "0", "--preempt"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let alone = try SimrunProcess.run(["run", "capture-probe", "--variant", "thread", "--seed", "0"])
        #expect(alone.status == 1, "\(alone.stdout)")
        #expect(alone.stdout.contains("stays-in-simulation: work escaped the simulation: a thread started in"), "\(alone.stdout)")
    }
}
