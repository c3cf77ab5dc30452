import Foundation
import SimEngine
import SimRunKit
import SimScenarios
import SimTestSupport
import Testing

/// The documentation cannot drift from the binary or the sources. README.md and every file of every
/// DocC catalog (`Sources/*/*.docc`) are walked:
///
/// - in a page (`.md`, `.tutorial`), every code block after an `<!-- output: simrun … -->` marker is
///   what that command prints (an `<!-- run: simrun … -->` marker runs a command a later one needs,
///   such as the campaign that saves the trace an `explain` reads); a marker may name another
///   executable of this package instead of `simrun` (``programs``: a user's own executable, the
///   builds of `Tests/BuildFixtures`), whose build id is shown as `build-id:…`;
/// - in a tutorial, every code file it shows (`@Code(… file: "F")`, in the order shown) whose first
///   line is `$ simrun …` is a terminal: that command, then what it prints;
/// - a code file whose first line is `// From <path>` (and README's code blocks so marked) is an
///   excerpt: each part between `// …` lines is text of that file, verbatim.
///
/// The commands of one page run in order in one scratch directory, so a later one can read the trace
/// an earlier one saved. Wall-clock figures are normalised; a shown line `…` stands for one or more
/// lines left out.
@Suite(.serialized) struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The executables a marker may run: `simrun`, and the package's other executables built on
    /// `SimRun.main` (beside it in the build directory).
    static let programs = [
        "simrun", "simrun-example", "ledger-recorded", "ledger-fixed", "ledger-moved", "ledger-asserting",
    ]

    struct Example {
        var program = "simrun"
        var command: [String]
        var shown: [String]
        var place: String
        /// A set-up command (`<!-- run: simrun … -->`): run for what it leaves behind, not compared.
        var setUp = false
        /// The exit status the page states (`<!-- output: PROGRAM … ; exit 1 -->`), checked when given.
        var status: Int32? = nil
    }

    /// A marker's command and the exit status it states: `fuzz x ; exit 1` → (["fuzz", "x"], 1).
    static func command(_ text: Substring) -> (command: [String], status: Int32?) {
        let parts = text.components(separatedBy: " ; exit ")
        let status = parts.count == 2 ? Int32(parts[1].trimmingCharacters(in: .whitespaces)) : nil
        return (parts[0].split(separator: " ").map(String.init), status)
    }

    /// README.md and every file of every catalog, as paths relative to the package root, sorted.
    static func documentationFiles() throws -> [String] {
        var files = ["README.md"]
        let sources = root.appendingPathComponent("Sources")
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            for entry in try FileManager.default.contentsOfDirectory(
                atPath: sources.appendingPathComponent(module).path)
            where entry.hasSuffix(".docc") {
                let catalog = "Sources/\(module)/\(entry)"
                let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(catalog).path)
                while let file = walker?.nextObject() as? String {
                    var isDirectory: ObjCBool = false
                    let path = "\(catalog)/\(file)"
                    let exists = FileManager.default.fileExists(
                        atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                    if exists && !isDirectory.boolValue { files.append(path) }
                }
            }
        }
        return files.sorted()
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func isPage(_ path: String) -> Bool { path.hasSuffix(".md") || path.hasSuffix(".tutorial") }

    /// A catalog's file by name (DocC finds resources by name anywhere in the catalog).
    static func resource(named name: String, near page: String, in files: [String]) -> String? {
        let catalog = page.components(separatedBy: ".docc/").first.map { $0 + ".docc/" } ?? ""
        return files.first { $0.hasPrefix(catalog) && ($0 as NSString).lastPathComponent == name }
    }

    /// The marked examples of a page, in order.
    static func markedExamples(in text: String, path: String) -> [Example] {
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            // `<!-- run: PROGRAM … -->` or `<!-- output: PROGRAM … -->`, PROGRAM one of `programs`.
            func marked(_ kind: String) -> (program: String, command: [String])? {
                guard line.hasPrefix("<!-- \(kind): "), line.hasSuffix(" -->") else { return nil }
                let words = line.dropFirst("<!-- \(kind): ".count).dropLast(" -->".count).split(separator: " ")
                guard let program = words.first.map(String.init), programs.contains(program) else { return nil }
                return (program, words.dropFirst().map(String.init))
            }
            if let (program, command) = marked("run") {
                examples.append(
                    Example(program: program, command: command, shown: [], place: "\(path):\(index)", setUp: true))
                continue
            }
            guard let (program, marked) = marked("output") else { continue }
            // `… ; exit N`: the exit status the page states, checked too.
            let (command, status) = Self.command(marked.joined(separator: " ")[...])
            guard index < lines.count, lines[index] == "```" else { continue }
            let start = index + 1
            var end = start
            while end < lines.count && lines[end] != "```" { end += 1 }
            examples.append(
                Example(
                    program: program, command: command, shown: Array(lines[start..<end]), place: "\(path):\(index)",
                    status: status))
            index = end + 1
        }
        return examples
    }

    /// The code files a tutorial shows, in order.
    static func codeFiles(ofTutorial text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"@Code\([^)]*file:\s*"([^"]+)""#)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// A terminal code file: `$ simrun <command>` on its first line, then the output.
    static func terminalExample(_ text: String, place: String) -> Example? {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first.hasPrefix("$ simrun ") else { return nil }
        let command = first.dropFirst("$ simrun ".count).split(separator: " ").map(String.init)
        return Example(command: command, shown: Array(lines.dropFirst()), place: place)
    }

    /// Every example of every page: a page's own markers, then (for a tutorial) its terminal files.
    static func examplesByPage() throws -> [(page: String, examples: [Example])] {
        let files = try documentationFiles()
        var pages: [(String, [Example])] = []
        for path in files where isPage(path) {
            let text = try text(path)
            var examples = markedExamples(in: text, path: path)
            if path.hasSuffix(".tutorial") {
                for name in codeFiles(ofTutorial: text) {
                    guard let file = resource(named: name, near: path, in: files) else { continue }
                    if let example = terminalExample(try Self.text(file), place: file) { examples.append(example) }
                }
            }
            if !examples.isEmpty { pages.append((path, examples)) }
        }
        return pages
    }

    /// Replaces what varies from run to run: wall-clock time and rates, and (with --jobs above 1,
    /// where workers may run a few seeds past the first failure) the counts of a campaign summary.
    static func normalise(_ line: String) -> String {
        var line = line
        // How many runs a campaign made before it stopped at a failure depends on its workers' timing:
        // the counts of its summary, `sometimes` and `explored` lines are not compared.
        if line.hasPrefix("summary: ") || line.hasPrefix("  sometimes ") || line.hasPrefix("  explored: ") {
            line = line.replacingOccurrences(of: #"[0-9]+(\.[0-9]+)?"#, with: "N", options: .regularExpression)
        }
        // A build's id changes with every build of it: shown as `build-id:…` (or `uuid:…`).
        line = line.replacingOccurrences(
            of: #"(build-id|uuid):[0-9A-Fa-f-]+"#, with: "$1:…", options: .regularExpression)
        return line.replacingOccurrences(
            of: #""(seconds|rate)":[0-9.]+"#, with: "\"$1\":N", options: .regularExpression)
    }

    /// Whether `actual` is what a page shows, `…` matching one or more lines.
    static func matches(shown: ArraySlice<String>, actual: ArraySlice<String>) -> Bool {
        guard let first = shown.first else { return actual.isEmpty }
        if first.trimmingCharacters(in: .whitespaces) == "…" {
            guard !actual.isEmpty else { return false }
            for skip in 1...actual.count where matches(shown: shown.dropFirst(), actual: actual.dropFirst(skip)) {
                return true
            }
            return false
        }
        guard let next = actual.first, normalise(first) == normalise(next) else { return false }
        return matches(shown: shown.dropFirst(), actual: actual.dropFirst())
    }

    /// The parts of an excerpt (split at `// …` lines) that are not text of `source`, compared line by
    /// line without leading indentation (an excerpt of a nested block is shown de-indented).
    static func partsNotIn(_ source: String, excerpt: String) -> [String] {
        func unindented(_ text: some StringProtocol) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.drop { $0 == " " || $0 == "\t" } }.joined(separator: "\n")
        }
        let body = "\n" + unindented(source) + "\n"
        var parts: [[Substring]] = [[]]
        for line in excerpt.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces) == "// …" {
                parts.append([])
            } else {
                parts[parts.count - 1].append(line)
            }
        }
        return parts.map { $0.joined(separator: "\n").trimmingCharacters(in: .newlines) }
            .filter { !$0.isEmpty && !body.contains("\n" + unindented($0) + "\n") }
    }

    @Test func everyShownOutputIsWhatTheBinaryPrints() throws {
        let pages = try Self.examplesByPage()
        #expect(pages.contains { $0.page == "README.md" }, "README shows the walkthrough's output")
        #expect(pages.contains { $0.page.hasSuffix(".tutorial") }, "the tutorial shows its terminals")
        #expect(pages.count >= 6, "pages with outputs: \(pages.map(\.page))")
        #expect(pages.allSatisfy { !$0.examples.allSatisfy(\.setUp) }, "a page that only sets up shows nothing")
        for (page, examples) in pages {
            let directory = try makeTemporaryDirectory("docs")
            defer { try? FileManager.default.removeItem(at: directory) }
            // Commands that name `Traces/…` read a copy of the committed corpus.
            if examples.contains(where: { $0.command.contains { $0.hasPrefix("Traces/") } }) {
                try FileManager.default.copyItem(
                    at: Self.root.appendingPathComponent("Traces"), to: directory.appendingPathComponent("Traces"))
            }
            for example in examples {
                let executable = SimrunProcess.executable.deletingLastPathComponent()
                    .appendingPathComponent(example.program)
                let output = try SimrunProcess.run(executable: executable, example.command, in: directory)
                if example.setUp { continue }
                if let status = example.status {
                    #expect(
                        output.status == status,
                        "\(example.place): `\(example.program) \(example.command.joined(separator: " "))` exits \(output.status), not \(status)")
                }
                let actual = output.stdout.components(separatedBy: "\n").dropLast()
                #expect(
                    Self.matches(shown: example.shown[...], actual: actual[...]),
                    """
                    \(example.place) (\(page)): `\(example.program) \(example.command.joined(separator: " "))` prints
                    \(actual.joined(separator: "\n"))
                    """)
            }
        }
    }

    /// A terminal file no tutorial shows would never run: each is shown by a tutorial.
    @Test func everyTerminalFileIsShownByATutorial() throws {
        let files = try Self.documentationFiles()
        var shown = Set<String>()
        for path in files where path.hasSuffix(".tutorial") {
            for name in Self.codeFiles(ofTutorial: try Self.text(path)) {
                let file = try #require(
                    Self.resource(named: name, near: path, in: files), "\(path) shows \(name), absent")
                shown.insert(file)
            }
        }
        for path in files where !Self.isPage(path) && !path.hasSuffix(".png") {
            let first = try Self.text(path).prefix { $0 != "\n" }
            if first.hasPrefix("$ ") {
                #expect(first.hasPrefix("$ simrun "), "\(path): only simrun commands can be checked")
                #expect(shown.contains(path), "\(path) is a terminal no tutorial shows")
            }
        }
    }

    /// Code shown as a part of the sources is the sources' text: `// From <path>` files and README's
    /// blocks so marked.
    @Test func everyExcerptIsTheSourcesText() throws {
        var excerpts: [(place: String, source: String, text: String)] = []
        for path in try Self.documentationFiles() where !path.hasSuffix(".png") {
            let text = try Self.text(path)
            if !Self.isPage(path), text.hasPrefix("// From ") {
                let first = text.prefix { $0 != "\n" }
                excerpts.append((path, String(first.dropFirst("// From ".count)), String(text.dropFirst(first.count))))
            }
            guard Self.isPage(path) else { continue }
            let lines = text.components(separatedBy: "\n")
            for (index, line) in lines.enumerated() where line.hasPrefix("```swift") && index + 1 < lines.count {
                guard lines[index + 1].hasPrefix("// From ") else { continue }
                let body = lines[(index + 2)...].prefix { $0 != "```" }.joined(separator: "\n")
                excerpts.append(("\(path):\(index + 1)", String(lines[index + 1].dropFirst("// From ".count)), body))
            }
        }
        #expect(excerpts.count >= 4, "\(excerpts.map(\.place))")
        for excerpt in excerpts {
            let source = try #require(try? Self.text(excerpt.source), "\(excerpt.place): no file \(excerpt.source)")
            #expect(Self.partsNotIn(source, excerpt: excerpt.text) == [], "\(excerpt.place): not in \(excerpt.source)")
            // An excerpt that shows imports shows all of them: copied as shown, it compiles (the file
            // is compiled by `swift test` with exactly those imports).
            let shown = Self.imports(excerpt.text)
            if !shown.isEmpty {
                #expect(shown == Self.imports(source), "\(excerpt.place): \(excerpt.source) imports \(Self.imports(source))")
            }
        }
        #expect(
            excerpts.contains { !Self.imports($0.text).isEmpty }, "a test file is shown whole, with its imports")
    }

    /// The import lines of Swift source, in order.
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") || $0.hasPrefix("@_exported import ") }
    }

    @Test func theComparisonCatchesAChangedLine() {
        let shown = ["a", "  …", "summary: 3 schedules in 0.00s (0/s), 1 failures, 1 distinct", "end"]
        let actual = ["a", "b", "c", "summary: 4 schedules in 0.12s (33/s), 1 failures, 1 distinct", "end"]
        #expect(Self.matches(shown: shown[...], actual: actual[...]))
        #expect(!Self.matches(shown: shown[...], actual: (actual.dropLast() + ["END"])[...]))
        #expect(!Self.matches(shown: shown[...], actual: ["a", "summary: 1", "end"][...]), "… is one line or more")
        #expect(!Self.matches(shown: ["a"][...], actual: ["a", "b"][...]), "an extra line is a difference")
        let builds = ["recorded by build build-id:…, replayed on build build-id:…"]
        let ids = ["recorded by build build-id:c735, replayed on build build-id:d8"]
        #expect(Self.matches(shown: builds[...], actual: ids[...]))
        let labelled = ["recorded by build label:v1, replayed on build build-id:d8"]
        #expect(!Self.matches(shown: builds[...], actual: labelled[...]))
        #expect(Self.partsNotIn("let a = 1\nlet b = 2\nlet c = 3", excerpt: "let a = 1\n// …\nlet c = 3") == [])
        #expect(Self.partsNotIn("let a = 1\nlet b = 2", excerpt: "let a = 1\nlet c = 3") == ["let a = 1\nlet c = 3"])
        #expect(Self.partsNotIn("  if x {\n    go()\n  }", excerpt: "if x {\n  go()\n}") == [], "indentation aside")
        #expect(Self.partsNotIn("let ab = 1", excerpt: "let a") == ["let a"], "whole lines only")
    }

    @Test func theTerminalFormatIsRead() throws {
        #expect(Self.command("fuzz x --seeds 3 ; exit 1") == (["fuzz", "x", "--seeds", "3"], 1))
        #expect(Self.command("fuzz x").status == nil)
        let example = try #require(Self.terminalExample("$ simrun run x --seed 6\nline 1\n…\n", place: "t"))
        #expect(example.command == ["run", "x", "--seed", "6"])
        #expect(example.shown == ["line 1", "…"])
        #expect(Self.terminalExample("# not a terminal\n", place: "t") == nil)
        #expect(
            Self.codeFiles(ofTutorial: #"@Code(name: "a", file: "one.txt") @Code(name: "b", file: "two.swift")"#) == [
                "one.txt", "two.swift",
            ])
    }

    @Test func theExitCodeTableIsTheBinarysTable() throws {
        var tables = 0
        for path in try Self.documentationFiles() where Self.isPage(path) {
            let text = try Self.text(path)
            guard let marker = text.range(of: "<!-- exit-codes -->") else { continue }
            tables += 1
            let rows = text[marker.upperBound...].split(separator: "\n").dropFirst(2).prefix { $0.hasPrefix("| ") }
            let table = rows.map { row -> String in
                let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                return cells.joined(separator: " ")
            }
            #expect(table == SimRunKit.ExitStatus.table.map { "\($0.code) \($0.meaning)" }, "\(path)")
        }
        #expect(tables >= 1, "the exit codes article marks its table")
    }

    /// The capture matrix is `CaptureProbe.constructs`, which `CaptureMatrixTests` and
    /// `AsyncScenarioTests` check on every route: the article holds every row, README a few.
    @Test(arguments: [
        ("Sources/SimCapture/SimCapture.docc/YourOwnAsyncCode.md", CaptureProbe.constructs.count - 2),
        ("README.md", 4),
    ])
    func theShownMatrixIsTheCheckedOne(_ path: String, atLeast: Int) throws {
        let lines = try Self.text(path).components(separatedBy: "\n")
        let header = try #require(lines.first { $0.hasPrefix("| construct (`capture-probe`") }, "\(path)")
        #expect(
            header.contains(
                "executor factory (`SimRun.main`) | in `swift test` (load-time factory) | enqueue hook (factory off) "
                    + "| interposition off (`SIMRUN_INTERPOSE=off`)"))
        var rows = 0
        for construct in CaptureProbe.constructs {
            guard let row = lines.first(where: { $0.contains("(`\(construct.variant)`) |") }) else { continue }
            rows += 1
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count == 5, "\(row)")
            let columns = [construct.factory, construct.inTest, construct.hook, construct.uninterposed]
            for (cell, captured) in zip(cells[1...], columns) {
                #expect(cell.hasPrefix("captured") == captured, "\(path): \(construct.variant): \(cell)")
            }
            // What simrun cannot see without the interposition layer is said so, and only that.
            #expect(
                cells[4].contains("not seen by simrun")
                    == CaptureProbe.unseenWithoutInterposition.contains(construct.variant),
                "\(path): \(construct.variant): \(cells[4])")
        }
        #expect(rows >= atLeast, "\(path) lists the constructs (\(rows) rows found)")
    }
}
