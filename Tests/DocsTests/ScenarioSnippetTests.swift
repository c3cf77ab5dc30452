import Foundation
import SimRunKit
import Testing

/// The user-scenario snippet of SimCore's "Scenarios and oracles" article is the example executable's source, which the build compiles
/// and `UserScenarioExampleTests` runs; and `import SimRunKit` alone (this file's only simrun import)
/// reaches `Scenario`, `BuiltinScenarios` and `SimRun.main`.
@Suite struct ScenarioSnippetTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theArticlesSnippetIsTheExampleExecutablesSource() throws {
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/SimCore/SimCore.docc/ScenariosAndOracles.md"),
            encoding: .utf8)
        let heading = try #require(article.range(of: "## Your own scenarios, the same commands"))
        let afterHeading = article[heading.upperBound...]
        let open = try #require(afterHeading.range(of: "```swift\n"))
        let close = try #require(afterHeading[open.upperBound...].range(of: "\n```"))
        let snippet = String(afterHeading[open.upperBound..<close.lowerBound])

        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/simrun-example/main.swift"), encoding: .utf8)
        // The file's opening `//` lines say what the file is; the article says it in prose.
        let body = source.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("//") && !$0.hasPrefix("///") }
            .joined(separator: "\n")
        #expect(snippet + "\n" == body, "the article's snippet and Sources/simrun-example/main.swift differ")
        #expect(snippet.contains("SimRun.main(scenarios: [CheckoutPromoCode.scenario"))
    }

    @Test func importingSimRunKitAloneReachesTheBuiltinScenariosAndMain() {
        let scenarios: [Scenario] = BuiltinScenarios.all
        let main: ([Scenario]) -> Never = SimRun.main(scenarios:)
        _ = main
        #expect(scenarios.contains { $0.name == "counter-race" })
    }
}
