import Foundation
import SimTestSupport
import Testing

/// A newcomer's first hour, held by tests (#44, F1–F3): README says what the first command does and
/// how it ends, how long the first build takes, which of simrun's modules a package of yours compiles
/// (computed here from Package.swift), and shows a whole `Package.swift` for your own package that
/// SwiftPM reads, naming products simrun has.
@Suite struct NewcomerPathTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of README's section titled `title` (to the next `## `).
    static func section(_ title: String) throws -> String {
        let readme = try text("README.md")
        let start = try #require(readme.range(of: "## \(title)\n"), "README has a section \(title)")
        let rest = readme[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func theFirstCommandsExitStatusAndBuildTimeAreSaid() throws {
        let section = try Self.section("Two commands for a newcomer")
        // The status the binary gives for that command is checked where README shows its output
        // (`<!-- output: simrun fuzz lost-input-navigation ; exit 1 -->`, DocumentationTests).
        let readme = try Self.text("README.md")
        #expect(readme.contains("<!-- output: simrun fuzz lost-input-navigation ; exit 1 -->"))
        #expect(section.contains("exit status 1"), "\(section)")
        #expect(section.contains("a bug was found"), "\(section)")
        // The first build's time is given, with the machine it was measured on.
        #expect(section.contains("first build"), "\(section)")
        #expect(section.range(of: #"[0-9]+ min"#, options: .regularExpression) != nil, "\(section)")
    }

    // MARK: - Package.swift, read as text

    struct Target {
        var name: String
        var targets: [String]
        var products: [(name: String, package: String)]
    }

    /// The targets of Package.swift with their dependencies (`"X"` and `.product(name:package:)`).
    static func targets() throws -> [String: Target] {
        let manifest = try text("Package.swift")
        let starts = try NSRegularExpression(
            pattern: #"\.(target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)""#)
        let matches = starts.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest))
        var found: [String: Target] = [:]
        for (index, match) in matches.enumerated() {
            let name = String(manifest[Range(match.range(at: 2), in: manifest)!])
            let from = Range(match.range, in: manifest)!.upperBound
            let to =
                index + 1 < matches.count ? Range(matches[index + 1].range, in: manifest)!.lowerBound : manifest.endIndex
            let chunk = String(manifest[from..<to])
            var target = Target(name: name, targets: [], products: [])
            if let list = chunk.range(of: "dependencies: [") {
                var depth = 1
                var end = list.upperBound
                while end < chunk.endIndex && depth > 0 {
                    if chunk[end] == "[" { depth += 1 }
                    if chunk[end] == "]" { depth -= 1 }
                    end = chunk.index(after: end)
                }
                var dependencies = String(chunk[list.upperBound..<end])
                let product = try NSRegularExpression(
                    pattern: #"\.product\(\s*name:\s*"([^"]+)",\s*package:\s*"([^"]+)"\s*\)"#)
                for match in product.matches(in: dependencies, range: NSRange(dependencies.startIndex..., in: dependencies)) {
                    target.products.append(
                        (
                            String(dependencies[Range(match.range(at: 1), in: dependencies)!]),
                            String(dependencies[Range(match.range(at: 2), in: dependencies)!])
                        ))
                }
                dependencies = product.stringByReplacingMatches(
                    in: dependencies, range: NSRange(dependencies.startIndex..., in: dependencies), withTemplate: "")
                let plain = try NSRegularExpression(pattern: #""([^"]+)""#)
                for match in plain.matches(in: dependencies, range: NSRange(dependencies.startIndex..., in: dependencies)) {
                    target.targets.append(String(dependencies[Range(match.range(at: 1), in: dependencies)!]))
                }
            }
            found[name] = target
        }
        return found
    }

    /// Every target `name` needs, itself included, and the packages of the products they use.
    static func closure(of name: String, in targets: [String: Target]) -> (modules: Set<String>, packages: Set<String>) {
        var modules: Set<String> = []
        var packages: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            guard modules.insert(next).inserted, let target = targets[next] else { continue }
            pending += target.targets
            packages.formUnion(target.products.map(\.package))
        }
        return (modules, packages)
    }

    /// The names in backticks of a table cell.
    static func names(in cell: Substring) -> Set<String> {
        Set(
            cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                .map { String($0.element) })
    }

    /// README's table of what a package of yours compiles is Package.swift's dependency closure of
    /// each product a target of yours uses.
    @Test func whatAPackageOfYoursCompilesIsWhatPackageSwiftSays() throws {
        let targets = try Self.targets()
        #expect(targets["SimRunKit"]?.targets.contains("SimEngine") == true, "the manifest is read")
        let section = try Self.section("Your own code")
        var rows = 0
        for line in section.split(separator: "\n") where line.hasPrefix("| `Sim") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces)[...] }
            try #require(cells.count == 3, "\(line)")
            let product = try #require(Self.names(in: cells[0]).first)
            let (modules, packages) = Self.closure(of: product, in: targets)
            #expect(Self.names(in: cells[1]) == modules, "\(product): compiles \(modules.sorted())")
            #expect(Self.names(in: cells[2]) == packages, "\(product): packages \(packages.sorted())")
            rows += 1
        }
        #expect(rows == 2, "a row for SimTesting and one for SimRunKit")
    }

    /// README's `Package.swift` for a package of yours is a whole manifest SwiftPM reads, on simrun's
    /// platforms, naming products simrun declares.
    @Test func theUserPackageManifestIsOneSwiftPMReads() throws {
        let section = try Self.section("Your own code")
        let lines = section.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0 == "// swift-tools-version: 6.1" }, "a manifest is shown")
        let manifest = lines[start...].prefix { $0 != "```" }.joined(separator: "\n") + "\n"
        let ours = try Self.text("Package.swift")
        #expect(ours.hasPrefix("// swift-tools-version: 6.1"), "the same tools version as simrun's")
        for product in ["SimTesting", "SimRunKit"] {
            #expect(manifest.contains(".product(name: \"\(product)\", package: \"simrun\")"), "\(product)")
            #expect(ours.contains(".library(name: \"\(product)\", targets: [\"\(product)\"])"), "\(product)")
        }
        #expect(manifest.contains("platforms: [.macOS(.v15)]") && ours.contains("platforms: [.macOS(.v15)]"))

        // SwiftPM reads it, beside a `simrun` directory as `.package(path: "../simrun")` expects.
        let directory = try makeTemporaryDirectory("user-manifest")
        let app = directory.appendingPathComponent("Profiles")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("simrun"), withDestinationURL: Self.root)
        try Data(manifest.utf8).write(to: app.appendingPathComponent("Package.swift"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", app.path, "dump-package"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let json = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swift package dump-package: \(errors)")
        let dumped = try #require(JSONSerialization.jsonObject(with: json) as? [String: Any], "\(errors)")
        let declared = try #require(dumped["targets"] as? [[String: Any]])
        #expect(declared.count >= 2, "an executable and a test target: \(declared)")
    }
}
