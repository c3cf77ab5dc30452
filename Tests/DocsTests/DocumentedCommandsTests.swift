import Foundation
import SimRunKit
import SimTestSupport
import Testing

/// The reference articles match the commands (#44, F10, F11, N15): Commands.md's synopsis names every
/// option of every command, and ExitCodesAndJSON.md every verdict a `--json` document can carry and
/// the codes `replay --bisect` answers with.
@Suite struct DocumentedCommandsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The long options a command's help lists (`--seeds`, `--out`, …), without `--help`/`--version`.
    static func options(of command: String) throws -> [String] {
        let help = try SimrunProcess.run([command, "--help"]).stdout
        var options: [String] = []
        var inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("OPTIONS:") || line.hasPrefix("ARGUMENTS:") {
                inOptions = line.hasPrefix("OPTIONS:")
                continue
            }
            guard inOptions, line.hasPrefix("  -") else { continue }
            // The option's spelling (`-o, --out <out>`), not its description.
            let spelling = line.split(separator: " ").prefix { $0.hasPrefix("-") || $0.hasPrefix("<") }
            for word in spelling where word.hasPrefix("--") {
                let name = String(word.prefix { $0 != "," && $0 != "=" && $0 != "[" })
                if !["--help", "--version"].contains(name) && !options.contains(name) { options.append(name) }
            }
        }
        return options
    }

    /// The synopsis lines of `command` in Commands.md: its `simrun <command>` lines and their
    /// indented continuations.
    static func synopsis(of command: String, in article: String) throws -> String {
        let block = try #require(article.components(separatedBy: "```").dropFirst().first, "a synopsis block")
        var lines: [Substring] = []
        var current = false
        for line in block.split(separator: "\n") {
            if line.hasPrefix("simrun ") { current = line.hasPrefix("simrun \(command) ") || line == "simrun \(command)" }
            if current { lines.append(line) }
        }
        return lines.joined(separator: "\n")
    }

    @Test(arguments: ["list", "run", "fuzz", "merge", "replay", "shrink", "show", "explain", "export", "bench"])
    func theSynopsisNamesEveryOption(command: String) throws {
        let article = try Self.text("Sources/SimRunKit/SimRunKit.docc/Commands.md")
        let synopsis = try Self.synopsis(of: command, in: article)
        #expect(!synopsis.isEmpty, "Commands.md has a synopsis of \(command)")
        let options = try Self.options(of: command)
        #expect(!options.isEmpty || command == "list" || command == "merge", "\(command)'s help lists options")
        for option in options {
            // The output options every printing command shares are listed once, in "Shared options".
            if ["--json", "--quiet", "--progress", "--build-label", "--full-names"].contains(option) && command != "bench"
                && command != "show"
            {
                #expect(article.contains("`\(option)`"), "\(option) is described")
                continue
            }
            #expect(synopsis.contains(option), "simrun \(command): \(option) is missing from the synopsis")
        }
    }

    /// Every verdict a command's `--json` document can carry, read from the sources that make them.
    static func verdicts() throws -> Set<String> {
        let commands = root.appendingPathComponent("Sources/SimRunKit/Commands")
        var found: Set<String> = []
        let pattern = try NSRegularExpression(pattern: #"verdict: ([^\n]*?)(,|\)\s*$)"#, options: [.anchorsMatchLines])
        let literal = try NSRegularExpression(pattern: #""([a-z-]+)""#)
        for name in try FileManager.default.contentsOfDirectory(atPath: commands.path) where name.hasSuffix(".swift") {
            let source = try String(contentsOf: commands.appendingPathComponent(name), encoding: .utf8)
            for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                let expression = String(source[Range(match.range(at: 1), in: source)!])
                for word in literal.matches(in: expression, range: NSRange(expression.startIndex..., in: expression)) {
                    found.insert(String(expression[Range(word.range(at: 1), in: expression)!]))
                }
            }
        }
        return found
    }

    @Test func theJSONArticleListsEveryVerdictAndTheBisectCodes() throws {
        let article = try Self.text("Sources/SimRunKit/SimRunKit.docc/ExitCodesAndJSON.md")
        let row = try #require(article.split(separator: "\n").first { $0.hasPrefix("| `verdict` |") }.map(String.init))
        let verdicts = try Self.verdicts()
        #expect(verdicts.isSuperset(of: ["pass", "fail", "deterministic", "shrunk", "explained", "error"]), "\(verdicts)")
        for verdict in verdicts {
            #expect(row.contains("`\(verdict)`"), "the verdict row names `\(verdict)`")
        }
        #expect(row.contains("`partial`") || article.contains("`partial`"), "interrupted documents are marked")
        for code in ["125", "128"] {
            #expect(article.contains(code), "the `--bisect` code \(code) is documented with `exitCode`")
        }
    }

    /// Reliability.md says what `explain` does with a crash trace: it explains it (the example of
    /// "Code that traps is a finding" is run by DocumentationTests), never that it refuses it.
    @Test func reliabilityAgreesWithExplainOnCrashTraces() throws {
        let article = try Self.text("Sources/SimRunKit/SimRunKit.docc/Reliability.md")
        #expect(!article.contains("refuses a crash trace"), "explain explains crash traces")
        let help = try SimrunProcess.run(["explain", "--help"])
        let (status, output) = (help.status, help.stdout)
        let flat = output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(status == 0 && flat.contains("A trace that ends in a crash is explained"), "\(output)")
    }
}
