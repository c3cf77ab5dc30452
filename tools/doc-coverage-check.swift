// Reads the documentation-coverage.json DocC writes (`--experimental-documentation-coverage`) and
// prints every symbol of the module without an abstract. Exit 1 when there is one, 2 when the file
// cannot be read. Symbols DocC makes up for extensions of other modules' types ("Extended Module",
// "Extended Structure", …) are containers, not declarations: they have no place for a comment and
// are not counted; the members inside them are.
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first, let data = FileManager.default.contents(atPath: path),
    let entries = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]
else {
    FileHandle.standardError.write(Data("doc-coverage: cannot read \(arguments.first ?? "(no file)")\n".utf8))
    exit(2)
}
var symbols = 0
var missing: [String] = []
for entry in entries {
    guard let kind = entry["kind"] as? [String: Any], kind["isSymbol"] as? Bool == true else { continue }
    let name = kind["name"] as? String ?? ""
    if name.hasPrefix("Extended ") { continue }
    // `hash(into:)` and `hashValue` that a RawRepresentable enum takes from the standard library's
    // default implementation: DocC lists them without the standard library's comment.
    let path = entry["referencePath"] as? String ?? ""
    if path.hasSuffix("/hash(into:)") || path.hasSuffix("/hashValue") { continue }
    // A property wrapper's projected value (`$current` of a `@TaskLocal`) is made by the compiler.
    if path.split(separator: "/").last?.hasPrefix("$") == true { continue }
    symbols += 1
    if entry["hasAbstract"] as? Bool != true {
        missing.append("\(name) \(path)")
    }
}
let module = arguments.dropFirst().first ?? path
let percent = symbols == 0 ? 100 : (symbols - missing.count) * 100 / symbols
print("\(module): \(symbols) symbols, \(missing.count) without an abstract (\(percent)% documented)")
for line in missing.sorted() { print("  undocumented: \(line)") }
if symbols == 0 {
    print("doc-coverage: \(module) has no symbols: the coverage file says nothing")
    exit(1)
}
exit(missing.isEmpty ? 0 : 1)
