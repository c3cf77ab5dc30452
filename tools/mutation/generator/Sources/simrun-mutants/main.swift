// simrun-mutants FILE…: every mutant of the given Swift files, one JSON object a line, in file order.
// tools/mutation/mutate.py runs it (`run.sh --generated`); paths are printed as given.
// Exit 0 with the mutants on stdout; 1 when a file cannot be read (said on stderr).
import Foundation
import SwiftParser
import SwiftSyntax

let files = Array(CommandLine.arguments.dropFirst())
if files.isEmpty || files.contains("--help") {
    FileHandle.standardError.write(Data("usage: simrun-mutants FILE.swift…  (one JSON mutant a line on stdout)\n".utf8))
    exit(files.isEmpty ? 1 : 0)
}
var output = ""
for file in files {
    guard let data = FileManager.default.contents(atPath: file) else {
        FileHandle.standardError.write(Data("simrun-mutants: cannot read \(file)\n".utf8))
        exit(1)
    }
    let tree = Parser.parse(source: String(decoding: data, as: UTF8.self))
    let finder = MutantFinder(file: file, tree: tree)
    finder.walk(tree)
    var occurrences: [String: Int] = [:]
    for var mutant in finder.mutants.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
        let base = "\(mutant.function)|\(mutant.op.rawValue)|\(Mutant.squeeze(mutant.original))|\(Mutant.squeeze(mutant.replacement))"
        occurrences[base, default: 0] += 1
        mutant.occurrence = occurrences[base]!
        output += mutant.json + "\n"
    }
}
FileHandle.standardOutput.write(Data(output.utf8))

extension Mutant {
    var json: String {
        let fields: [(String, String)] = [
            ("key", quoted(key)), ("file", quoted(file)), ("line", String(line)), ("column", String(column)),
            ("start", String(start)), ("end", String(end)), ("operator", quoted(op.rawValue)),
            ("function", quoted(function)), ("change", quoted(change)), ("original", quoted(original)),
            ("replacement", quoted(replacement)),
        ]
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    private func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
