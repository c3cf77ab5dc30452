import Foundation
import SimCapture
import SimScenarios
import SimTestSupport
import Testing

/// What `simrun` captures of plain Swift concurrency through each route of an executable that owns
/// `main`: the executor factory (the default) and the enqueue hook (`SIMRUN_EXECUTOR_FACTORY=off`,
/// set in the binary's environment, which is why these run the binary). The in-test column and the
/// scenarios' own behaviour are checked under the engine in SimScenariosTests. The capture matrix
/// (SimCore's article "Your own async code") is the one these tests check: each row with a
/// `capture-probe` variant says "captured" in a column exactly when the construct's flag for that
/// route says so.
@Suite struct ExecutorRouteTests {
    @Test(arguments: CaptureProbe.constructs.map(\.variant))
    func theFactoryRouteCapturesWhatTheMatrixSays(_ variant: String) throws {
        let expected = try #require(CaptureProbe.constructs.first { $0.variant == variant }).factory
        let run = try SimrunProcess.run(["run", "capture-probe", "--variant", variant, "--seed", "0"])
        if expected {
            #expect(run.status == 0, "\(variant): \(run.stdout)\(run.stderr)")
        } else {
            #expect(run.status == 1, "\(variant) must fail, not pass: \(run.stdout)")
            #expect(run.stdout.contains("stays-in-simulation") || run.stdout.contains("captured:"), "\(run.stdout)")
        }
    }

    /// The hook column: `simrun` with the factory turned off uses the enqueue hook. What it does not
    /// capture must be reported: an actor job of a `Task {}` escapes in some orders and timings only,
    /// so the escapes are looked for over 200 seeds, never passed over (under heavy load 20 seeds all passed once).
    @Test(arguments: CaptureProbe.constructs.map(\.variant))
    func theHookRouteCapturesWhatTheMatrixSays(_ variant: String) throws {
        let expected = try #require(CaptureProbe.constructs.first { $0.variant == variant }).hook
        let directory = try makeTemporaryDirectory("hook-route")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try SimrunProcess.run(
            expected
                ? ["run", "capture-probe", "--variant", variant, "--seed", "0"]
                : [
                    "fuzz", "capture-probe", "--variant", variant, "--seeds", "0..<200", "--no-show", "--out",
                    directory.path,
                ],
            environment: ["SIMRUN_EXECUTOR_FACTORY": "off"])
        if expected {
            #expect(run.status == 0, "\(variant): \(run.stdout)\(run.stderr)")
        } else {
            #expect(run.status == 1, "\(variant) must fail, not pass: \(run.stdout)")
            // An actor job of a `Task {}` leaves the run depending on real timing too: fuzz then says the
            // seed ran differently in its worker, which is a failure as well, never a pass.
            #expect(
                run.stdout.contains("stays-in-simulation") || run.stdout.contains("captured")
                    || run.stdout.contains("NONDETERMINISTIC"), "\(run.stdout)")
        }
        #expect(!run.stderr.contains("executor factory is not installed"), "opting out is not a fallback to report")
    }

    /// A process without the factory refuses a scenario that needs it, saying why (never a hang, never a
    /// pass): here the user turned it off.
    @Test func withoutTheFactoryAMainActorScenarioIsRefusedWithTheReason() throws {
        let run = try SimrunProcess.run(
            ["run", "double-tap-submit", "--seed", "0"], environment: ["SIMRUN_EXECUTOR_FACTORY": "off"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("async-capture"), "\(run.stdout)")
        #expect(run.stdout.contains("enqueue-hook route: SIMRUN_EXECUTOR_FACTORY=off"), "\(run.stdout)")
    }
}
