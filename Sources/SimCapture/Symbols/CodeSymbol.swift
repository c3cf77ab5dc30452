import SimCore
import CSimInterpose

/// A function of the running program, named from its own symbol table (issues #24 and #30): where a
/// task was created, which async function a suspended task waits in, which method an actor job runs.
///
/// The runtime gives an executor code addresses only (a job's resume function, a creation's return
/// address); CSimInterpose's `simrun_code_symbol` finds the function around an address in the full
/// symbol table of the object it lies in, and the Swift runtime demangles it. Where that table cannot
/// be read (another platform, a stripped binary) `at(_:)` is nil and `areReadable` false, so callers
/// say the name is unknown instead of guessing.
package struct CodeSymbol: Sendable, Hashable {
    /// The symbol as the table has it (mangled, for Swift code).
    package let mangled: String
    /// Bytes from the function's first instruction to the address that was asked about.
    package let offset: Int

    /// The symbol of the function containing `address`, or nil when it cannot be named here.
    package static func at(_ address: UnsafeRawPointer) -> CodeSymbol? {
        var start: UInt = 0
        guard let name = simrun_code_symbol(address, &start) else { return nil }
        return CodeSymbol(mangled: String(cString: name), offset: Int(bitPattern: UInt(bitPattern: address) &- start))
    }

    /// Whether this process's own code can be named (a symbol table is there to read).
    package static var areReadable: Bool { simrun_code_symbols_readable() == 1 }

    /// The runtime's demangling (`(1) suspend resume partial function for M.T.f() async -> ()`), or
    /// the symbol itself when it is not a Swift symbol.
    package var demangled: String { Self.demangle(mangled) ?? mangled }

    /// The source-level function, as a person names it: `ProfileLoader.load(id:)`,
    /// `closure #1 in ProfileLoader.load(id:)`. Module names, types, effects and the runtime's
    /// partial-function wording are dropped.
    package var function: String { Self.readable(demangled) }

    /// `function` for a symbol as a symbol table has it (mangled): how a crashed child's trap frames
    /// are named, which its parent reads as text.
    package static func function(ofSymbol mangled: String) -> String { readable(demangle(mangled) ?? mangled) }

    /// Whether a symbol (mangled) is the Swift standard library's or the runtime's, or the C
    /// library's way to a signal: the frames a trap passes through before the code that trapped.
    package static func isRuntime(_ mangled: String) -> Bool {
        if mangled.hasPrefix("$ss") || mangled.hasPrefix("$sS") || mangled.hasPrefix("_$ss")
            || mangled.hasPrefix("swift_") || mangled.hasPrefix("_swift") || mangled.hasPrefix("_ZN5swift")
            || mangled.hasPrefix("__")
        {
            return true
        }
        return ["abort", "raise", "gsignal", "kill", "pthread_kill"].contains(mangled)
    }

    /// `function` for a demangled symbol (separate from lookup so it can be checked on any text).
    package static func readable(_ demangled: String) -> String {
        var text = Substring(dropPrivateDiscriminators(demangled))
        let wrappers = [
            "suspend resume partial function for ", "await resume partial function for ",
            "resume partial function for ", "partial apply for ", "partial apply forwarder for ",
            "async function pointer to ", "merged ", "static ", "dispatch thunk of ", "@objc ",
            "variable initialization expression of ", "lazy variable initialization expression of ",
        ]
        var stripped = true
        while stripped {
            stripped = false
            for wrapper in wrappers where text.hasPrefix(wrapper) {
                text = text.dropFirst(wrapper.count)
                stripped = true
            }
            // "(1) suspend resume partial function for …": the runtime's split of an async function.
            if text.hasPrefix("("), let close = text.firstIndex(of: ")"),
                text[text.index(after: text.startIndex)..<close].allSatisfy(\.isNumber)
            {
                text = text[text.index(after: close)...].drop(while: { $0 == " " })
                stripped = true
            }
            // An optimised build's copies: "function signature specialization <Arg[3] = Dead> of …",
            // "generic specialization <Swift.Int> of …".
            for specialization in ["function signature specialization <", "generic specialization <"]
            where text.hasPrefix(specialization) {
                var depth = 0
                var index = text.index(text.startIndex, offsetBy: specialization.count - 1)
                while index < text.endIndex {
                    if text[index] == "<" { depth += 1 }
                    if text[index] == ">" && !text[..<index].hasSuffix("-") {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    index = text.index(after: index)
                }
                guard index < text.endIndex, text[text.index(after: index)...].hasPrefix(" of ") else { break }
                text = text[text.index(index, offsetBy: 5)...]
                stripped = true
            }
        }
        if text.hasPrefix("(extension in "), let colon = text.firstIndex(of: ":") {
            text = text[text.index(after: colon)...]
        }
        // "closure #1 @Sendable () async -> () in M.T.f() async -> ()": the closure's own type goes.
        for kind in ["implicit closure #", "closure #"] where text.hasPrefix(kind) {
            guard let inRange = topLevelIn(text) else { break }
            let number = text.dropFirst(kind.count).prefix(while: \.isNumber)
            return "\(kind)\(number) in " + readable(String(text[inRange.upperBound...]))
        }
        return callable(text)
    }

    /// `M.T.f(a: Swift.Int, _: Swift.String) async throws -> X` → `T.f(a:_:)`.
    private static func callable(_ text: Substring) -> String {
        guard let open = text.firstIndex(of: "(") else {
            // A variable (`M.T.scenario : M.Scenario`, its initializer's closures): its name, no type.
            return dropModule(text.firstRange(of: " : ").map { text[..<$0.lowerBound] } ?? text)
        }
        var depth = 0
        var closed = false
        var labels: [String] = []
        var argumentStart = text.index(after: open)
        var index = open
        while index < text.endIndex {
            switch text[index] {
            case "(", "[", "<": depth += 1
            case ">" where text[..<index].hasSuffix("-"): break  // an arrow, not a bracket
            case ")", "]", ">":
                depth -= 1
                if depth == 0, text[index] == ")" {
                    closed = true
                    labels.append(String(text[argumentStart..<index]))
                }
            case "," where depth == 1:
                labels.append(String(text[argumentStart..<index]))
                argumentStart = text.index(after: index)
            default: break
            }
            if closed { break }
            index = text.index(after: index)
        }
        let name = dropModule(withoutGenericClauses(text[..<open]))
        let selector = labels.compactMap { argument -> String? in
            let trimmed = argument.drop(while: { $0 == " " })
            if trimmed.isEmpty { return nil }
            guard let colon = trimmed.firstIndex(of: ":") else { return "_:" }
            return "\(trimmed[..<colon]):"
        }
        return "\(name)(\(selector.joined()))"
    }

    /// `M.Waiter.wait<A where A: Swift.Clock>` → `M.Waiter.wait`: every `<…>` group left out.
    private static func withoutGenericClauses(_ name: Substring) -> Substring {
        guard name.contains("<") else { return name }
        var result = ""
        var depth = 0
        var previous: Character = " "
        for character in name {
            if character == "<" {
                depth += 1
            } else if character == ">" && previous != "-" && depth > 0 {
                depth -= 1
            } else if depth == 0 {
                result.append(character)
            }
            previous = character
        }
        return Substring(result)
    }

    /// `M.(taskRace in _0A1B…)` → `M.taskRace`: a private declaration's file discriminator goes.
    private static func dropPrivateDiscriminators(_ text: String) -> String {
        guard text.contains(" in _") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "(") {
            let name = rest[rest.index(after: open)...].prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
            let after = rest[name.endIndex...]
            if !name.isEmpty, after.hasPrefix(" in _"), let close = after.firstIndex(of: ")"),
                after[after.index(after.startIndex, offsetBy: 5)..<close].allSatisfy({ $0.isLetter || $0.isNumber })
            {
                result += rest[..<open] + name
                rest = after[after.index(after: close)...]
            } else {
                result += rest[...open]
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }

    /// `SimScenarios.ProfileLoader.load` → `ProfileLoader.load`.
    private static func dropModule(_ name: Substring) -> String {
        guard let dot = name.firstIndex(of: "."), name[..<dot].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return String(name) }
        return String(name[name.index(after: dot)...])
    }

    /// The range of the " in " that separates a closure's type from its enclosing function, at the
    /// top level of brackets.
    private static func topLevelIn(_ text: Substring) -> Range<Substring.Index>? {
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "(", "[", "<": depth += 1
            case ">" where text[..<index].hasSuffix("-"): break  // an arrow, not a bracket
            case ")", "]", ">": depth -= 1
            case " " where depth == 0 && text[index...].hasPrefix(" in "):
                return index..<text.index(index, offsetBy: 4)
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func demangle(_ mangled: String) -> String? {
        guard mangled.hasPrefix("$s") || mangled.hasPrefix("_$s") || mangled.hasPrefix("$S") else { return nil }
        return mangled.withCString { pointer -> String? in
            guard let result = _simrunDemangle(pointer, mangled.utf8.count, nil, nil, 0) else { return nil }
            defer { free(result) }
            return String(cString: result)
        }
    }
}

@_silgen_name("swift_demangle")
private func _simrunDemangle(
    _ mangledName: UnsafePointer<CChar>, _ mangledNameLength: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
