import Foundation
import SimTestSupport
import Testing

/// The user-scenario example (SimCore's article "Scenarios and oracles"): a separate executable over its own scenario, through the
/// same command tree as `simrun`.
@Suite struct UserScenarioExampleTests {
    private var example: URL {
        SimrunProcess.executable.deletingLastPathComponent().appendingPathComponent("simrun-example")
    }

    @Test func theExampleListsFuzzesAndReplaysItsOwnScenario() throws {
        let directory = try makeTemporaryDirectory("example")
        let list = try SimrunProcess.run(executable: example, ["list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("checkout-promo-code"))
        #expect(!list.stdout.contains("lost-input-navigation"), "only the user's scenarios")

        let out = directory.appendingPathComponent("failures").path
        let fuzz = try SimrunProcess.run(
            executable: example, ["fuzz", "checkout-promo-code", "--seeds", "0..<200", "--out", out])
        #expect(fuzz.status == 1, "fuzz finds the bug: \(fuzz.stdout)\(fuzz.stderr)")
        #expect(fuzz.stdout.contains("order-uses-typed-promo"))
        let trace = out + "/checkout-promo-code-buggy-order-uses-typed-promo.simtrace"

        let same = try SimrunProcess.run(executable: example, ["replay", trace])
        #expect(same.status == 0 && same.stdout.contains("identical"))
        let fixed = try SimrunProcess.run(executable: example, ["replay", trace, "--variant", "fixed"])
        #expect(fixed.status == 0, "the fixed variant passes the failing schedule: \(fixed.stdout)")
        let fixedFuzz = try SimrunProcess.run(
            executable: example,
            ["fuzz", "checkout-promo-code", "--variant", "fixed", "--seeds", "0..<200", "--out", out])
        #expect(fixedFuzz.status == 0)

        let explain = try SimrunProcess.run(executable: example, ["explain", trace, "--runs", "30"])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("action.tap#1 on lane user.tap ahead of input.blur#1"))
    }
}
