import Foundation
import SimTestSupport
import Testing

/// Documentation coverage comes from DocC itself: CI's `tools/doc-coverage.sh` builds each module's
/// catalog with `--experimental-documentation-coverage` and `tools/doc-coverage-check.swift` reads the
/// coverage file DocC writes. DocC cannot run inside `swift test` (it builds the package, whose build
/// directory the test run holds), so this test checks the reader on coverage files of DocC's format:
/// a symbol without an abstract fails and is named, containers DocC makes up for extensions and
/// compiler-made members are not counted, and an empty or unreadable file is never a pass.
@Suite struct DocCoverageTests {
    static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tools/doc-coverage-check.swift")

    /// One entry of DocC's `documentation-coverage.json`, with the members the checker reads.
    static func entry(_ kind: String, symbol: Bool = true, abstract: Bool, path: String) -> String {
        """
        {"kind":{"id":"x","name":"\(kind)","isSymbol":\(symbol)},"hasAbstract":\(abstract),\
        "isCurated":true,"hasCodeListing":false,"referencePath":"doc://M/documentation/M/\(path)","title":"t"}
        """
    }

    static func check(_ entries: [String]?) throws -> (status: Int32, output: String) {
        let directory = try makeTemporaryDirectory("doc-coverage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("documentation-coverage.json")
        if let entries { try Data("[\(entries.joined(separator: ","))]".utf8).write(to: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", checker.path, file.path, "M"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func aSymbolWithoutAnAbstractFailsAndIsNamed() throws {
        let result = try Self.check([
            Self.entry("Structure", abstract: true, path: "Documented"),
            Self.entry("Enumeration Case", abstract: false, path: "Kind/fifo"),
            Self.entry("Article", symbol: false, abstract: false, path: "SomeArticle"),
        ])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("M: 2 symbols, 1 without an abstract (50% documented)"), "\(result.output)")
        #expect(result.output.contains("undocumented: Enumeration Case doc://M/documentation/M/Kind/fifo"))
        #expect(!result.output.contains("SomeArticle"), "articles are not symbols")
    }

    @Test func containersAndCompilerMadeMembersAreNotCounted() throws {
        let result = try Self.check([
            Self.entry("Structure", abstract: true, path: "Documented"),
            Self.entry("Extended Module", abstract: false, path: "SimCore"),
            Self.entry("Extended Structure", abstract: false, path: "SimCore/StrategySpec"),
            Self.entry("Instance Method", abstract: false, path: "Source/hash(into:)"),
            Self.entry("Instance Property", abstract: false, path: "Source/hashValue"),
            Self.entry("Type Property", abstract: false, path: "Context/$current"),
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("M: 1 symbols, 0 without an abstract (100% documented)"), "\(result.output)")
    }

    @Test func anEmptyOrMissingCoverageFileIsNeverAPass() throws {
        let empty = try Self.check([])
        #expect(empty.status == 1, "\(empty.output)")
        #expect(empty.output.contains("has no symbols"), "\(empty.output)")
        let missing = try Self.check(nil)
        #expect(missing.status == 2, "\(missing.output)")
        #expect(missing.output.contains("cannot read"), "\(missing.output)")
    }

    /// CI runs the script (`.ci/run`), over every public module.
    @Test func ciRunsTheDocCCheckOverEveryPublicModule() throws {
        let root = Self.checker.deletingLastPathComponent().deletingLastPathComponent()
        let ci = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("\ntime tools/doc-coverage.sh\n"))
        let script = try String(contentsOf: root.appendingPathComponent("tools/doc-coverage.sh"), encoding: .utf8)
        #expect(script.contains("--warnings-as-errors"))
        for module in ["SimCore", "SimCapture", "SimTrace", "SimModels", "SimScenarios", "SimEngine", "SimTesting", "SimRunKit"] {
            #expect(script.contains(module), "tools/doc-coverage.sh leaves out \(module)")
            let catalog = root.appendingPathComponent("Sources/\(module)/\(module).docc/\(module).md")
            #expect(FileManager.default.fileExists(atPath: catalog.path), "no landing page for \(module)")
        }
    }
}
