import SimCapture
import SimCore
import SimScenarios
import Testing

/// The capture matrix's in-test column: this `swift test` process, where simrun's load-time
/// constructor installed the executor factory before the runner's `main`. Every construct the matrix
/// says is captured passes; every other one fails — reported as an escape, never passed. The other
/// two columns are checked through `simrun` in `AsyncScenarioTests` (factory, and hook with
/// `SIMRUN_EXECUTOR_FACTORY=off`).
@Suite struct CaptureMatrixTests {
    static let constructs = CaptureProbe.constructs.map(\.variant)

    @Test(arguments: constructs)
    func theTestProcessCapturesWhatTheMatrixSays(_ variant: String) throws {
        #expect(ExecutorCapture.ensureRoute() == .executorFactory, "\(ExecutorCapture.routeNote ?? "")")
        let expected = try #require(CaptureProbe.constructs.first { $0.variant == variant }).inTest
        let result = CaptureProbe.scenario.run(variant: variant, seed: 0, strategy: FIFOStrategy())
        if expected {
            #expect(result.verdict == .pass, "\(variant): \(result.verdict)")
        } else {
            guard case .fail(let oracle, let message) = result.verdict else {
                Issue.record("\(variant) escapes in a test process but the run says \(result.verdict)")
                return
            }
            #expect(["stays-in-simulation", "captured"].contains(oracle), "\(variant): \(oracle): \(message)")
        }
    }
}
