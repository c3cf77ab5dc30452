import SimRunKit
import Testing

@testable import SimEngine

/// The engine throws kinds (`SimEngineError`); the command line alone gives each its exit code.
@Suite struct EngineErrorCodeTests {
    @Test func everyKindHasItsOwnCodeFromTheTableAndBack() {
        let codes = SimEngineError.Kind.allCases.map { SimEngineError.code(for: $0) }
        #expect(Set(codes).count == codes.count, "two kinds share an exit code: \(codes)")
        let table = Set(SimRunKit.ExitStatus.table.map(\.code))
        for kind in SimEngineError.Kind.allCases {
            let code = SimEngineError.code(for: kind)
            #expect(table.contains(code), "\(kind) exits \(code), which the exit-code table does not list")
            #expect(CommandFailure(code, "x").kind == kind)
            #expect(SimEngineError(kind, "x").code == code)
        }
        // A code of no kind (2, inconclusive, is a verdict's, not an error's) is a plain failure.
        #expect(CommandFailure(SimRunKit.ExitStatus.inconclusive, "x").kind == .failed)
    }
}
