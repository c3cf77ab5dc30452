import SimCore
import SimScenarios
import Testing

/// The capture matrix on the enqueue-hook route (this test process): every construct the matrix says
/// the hook captures passes; every other one fails — refused or reported as an escape, never passed.
/// The executor-factory column is checked through `simrun` in `AsyncScenarioTests`.
@Suite struct CaptureMatrixTests {
    static let constructs = CaptureProbe.constructs.map(\.variant)

    @Test(arguments: constructs)
    func theHookRouteCapturesWhatTheMatrixSays(_ variant: String) throws {
        #expect(ExecutorCapture.ensureRoute() == .enqueueHook)
        let expected = try #require(CaptureProbe.constructs.first { $0.variant == variant }).hook
        let result = CaptureProbe.scenario.run(variant: variant, seed: 0, strategy: FIFOStrategy())
        if expected {
            #expect(result.verdict == .pass, "\(variant): \(result.verdict)")
        } else {
            guard case .fail(let oracle, let message) = result.verdict else {
                Issue.record("\(variant) escapes on the hook route but the run says \(result.verdict)")
                return
            }
            #expect(["stays-in-simulation", "captured"].contains(oracle), "\(variant): \(oracle): \(message)")
        }
    }
}
