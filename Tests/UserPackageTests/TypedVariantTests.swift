import SimCore
import Testing

/// Variants declared as a type, from outside SimCore as a user's package declares them.
enum Doorbell: String, ScenarioVariant {
    case silent, ringing

    var summary: String { self == .silent ? "nobody rings" : "the bell rings once" }
}

/// How often the bell rang in one run (one simulation, one thread).
final class RingCount {
    var rings = 0
}

let doorbell = Scenario(name: "doorbell", summary: "a bell that rings as its variant says", variants: Doorbell.self) {
    simulation, variant in
    let count = RingCount()
    if variant == .ringing { simulation.post(on: "door", "ring") { count.rings += 1 } }
    simulation.atEnd("rang-as-the-variant-says") {
        count.rings == (variant == .ringing ? 1 : 0) ? nil : "rang \(count.rings) times on \(variant.rawValue)"
    }
}

@Suite struct TypedVariantTests {
    @Test func theCasesAreTheVariantsInDeclarationOrder() {
        #expect(doorbell.variants.map(\.name) == ["silent", "ringing"])
        #expect(doorbell.variants.map(\.summary) == ["nobody rings", "the bell rings once"])
        #expect(doorbell.defaultVariant == "silent")
    }

    @Test(arguments: Doorbell.allCases)
    func setUpReceivesTheCaseItsNameSelects(_ variant: Doorbell) {
        let result = doorbell.run(
            variant: variant.rawValue, seed: 0, strategy: StrategySpec(kind: .fifo).makeStrategy())
        #expect(result.verdict == .pass, "\(result.verdict)")
    }

    @Test func anUnknownNameFailsTheRunInsteadOfRunningAnotherVariant() {
        let result = doorbell.run(variant: "rining", seed: 0, strategy: StrategySpec(kind: .fifo).makeStrategy())
        #expect(result.verdict.oracle == "known-variant")
        #expect(result.verdict.message == "no variant 'rining' in doorbell (known: silent, ringing)")
    }
}
