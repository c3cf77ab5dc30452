import Foundation
import SimEngine
import SimRunKit
import SimTestSupport
import Testing

/// README cannot drift from the binary: every code block after an `<!-- output: simrun … -->`
/// marker is what that command prints (the commands run in order, in one scratch directory, so a
/// later one can read the trace an earlier one saved). Wall-clock figures are normalised; a README
/// line `…` stands for one or more lines left out.
@Suite(.serialized) struct ReadmeTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    struct Example {
        var command: [String]
        var shown: [String]
        var line: Int
    }

    /// The marked examples of README, in order.
    static func examples(in text: String) -> [Example] {
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            guard line.hasPrefix("<!-- output: simrun "), line.hasSuffix(" -->") else { continue }
            let command = line.dropFirst("<!-- output: simrun ".count).dropLast(" -->".count)
                .split(separator: " ").map(String.init)
            guard index < lines.count, lines[index] == "```" else { continue }
            let start = index + 1
            var end = start
            while end < lines.count && lines[end] != "```" { end += 1 }
            examples.append(Example(command: command, shown: Array(lines[start..<end]), line: index))
            index = end + 1
        }
        return examples
    }

    /// Replaces what varies from run to run: wall-clock time and rates, and (with --jobs above 1,
    /// where workers may run a few seeds past the first failure) the counts of a campaign summary.
    static func normalise(_ line: String) -> String {
        var line = line
        if line.hasPrefix("summary: ") || line.hasPrefix("  sometimes ") {
            line = line.replacingOccurrences(of: #"[0-9]+(\.[0-9]+)?"#, with: "N", options: .regularExpression)
        }
        return line.replacingOccurrences(
            of: #""(seconds|rate)":[0-9.]+"#, with: "\"$1\":N", options: .regularExpression)
    }

    /// Whether `actual` is what README shows, `…` matching one or more lines.
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

    @Test func everyShownOutputIsWhatTheBinaryPrints() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let examples = Self.examples(in: text)
        #expect(examples.count >= 3, "README marks its walkthrough, explain and JSON outputs")
        let directory = try makeTemporaryDirectory("readme")
        for example in examples {
            let output = try SimrunProcess.run(example.command, in: directory)
            let actual = output.stdout.components(separatedBy: "\n").dropLast()
            let same = Self.matches(shown: example.shown[...], actual: actual[...])
            #expect(
                same,
                """
                README.md line \(example.line): `simrun \(example.command.joined(separator: " "))` prints
                \(actual.joined(separator: "\n"))
                """)
        }
    }

    @Test func theComparisonCatchesAChangedLine() {
        let shown = ["a", "  …", "summary: 3 schedules in 0.00s (0/s), 1 failures, 1 distinct", "end"]
        let actual = ["a", "b", "c", "summary: 4 schedules in 0.12s (33/s), 1 failures, 1 distinct", "end"]
        #expect(Self.matches(shown: shown[...], actual: actual[...]))
        #expect(!Self.matches(shown: shown[...], actual: (actual.dropLast() + ["END"])[...]))
        #expect(!Self.matches(shown: shown[...], actual: ["a", "summary: 1", "end"][...]), "… is one line or more")
        #expect(!Self.matches(shown: ["a"][...], actual: ["a", "b"][...]), "an extra line is a difference")
    }

    @Test func theExitCodeTableIsTheBinarysTable() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- exit-codes -->"))
        let rows = text[marker.upperBound...].split(separator: "\n").dropFirst(2).prefix { $0.hasPrefix("| ") }
        let table = rows.map { row -> String in
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            return cells.joined(separator: " ")
        }
        #expect(table == SimRunKit.ExitStatus.table.map { "\($0.code) \($0.meaning)" })
    }
}
