/// Task identities as tables and timelines print them: short by default, whole on request
/// (`--full-names`). A trace always records them whole; this is presentation only.
///
/// The short form of `task>SearchViewModel.type(_:){1}.2` is `SearchViewModel.type{1}.2`: without
/// the scenario body's `task>` that every created task's identity starts with, and without argument
/// labels. The closure numbers and ordinals that tell tasks apart stay, so two tasks of one run
/// keep two names (overloads of one method that each create tasks are the exception: `--full-names`).
public enum ShortTaskNames {
    /// `text` with every task identity in it shortened; the rest of the text as it is.
    public static func shorten(_ text: String) -> String {
        let marker = Array("task>")
        let characters = Array(text)
        guard characters.count >= marker.count else { return text }
        var out = ""
        var index = 0
        while index < characters.count {
            // `task>` at the start of a word (`subtask>x` is no identity) begins an identity.
            let atWord = index == 0 || isBoundary(characters[index - 1])
            if atWord && index + marker.count <= characters.count
                && Array(characters[index..<(index + marker.count)]) == marker
            {
                let end = identityEnd(characters, from: index + marker.count)
                out += shortIdentity(characters[(index + marker.count)..<end])
                index = end
            } else {
                out.append(characters[index])
                index += 1
            }
        }
        return out
    }

    /// Where the identity starting at `start` ends: at a space, `/`, `#`, `,` or a `)` that closes a
    /// parenthesis opened before it.
    private static func identityEnd(_ characters: [Character], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < characters.count {
            let character = characters[index]
            if character == "(" { depth += 1 }
            if character == ")" {
                if depth == 0 { break }
                depth -= 1
            }
            if depth == 0 && (character.isWhitespace || character == "/" || character == "#" || character == ",") {
                break
            }
            index += 1
        }
        return index
    }

    /// The identity without argument-label lists (`type(_:)` → `type`) and the nested `task>`s.
    private static func shortIdentity(_ identity: ArraySlice<Character>) -> String {
        var out = ""
        var depth = 0
        for character in identity {
            if character == "(" {
                depth += 1
                continue
            }
            if character == ")" {
                depth = max(0, depth - 1)
                continue
            }
            if depth == 0 { out.append(character) }
        }
        return out
    }

    private static func isBoundary(_ character: Character) -> Bool {
        !(character.isLetter || character.isNumber || character == "_" || character == ".")
    }
}
