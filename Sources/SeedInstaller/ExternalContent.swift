import Foundation

/// The table a full-text table reads its text from, from its `CREATE VIRTUAL TABLE` statement:
/// `pod` for `USING fts5(name, summary, content='pod')` (FTS5) or `content="pod"` (FTS4).
///
/// Only such an external-content table can be rebuilt from its content table after a changeset
/// changed that table (docs/guides/updating-an-installed-seed.md); a table that holds its own text,
/// or none (`content=''`), cannot.
package enum ExternalContent {
    /// The content table of the full-text table `sql` creates, or `nil` when it is no FTS3, FTS4 or
    /// FTS5 table with external content.
    package static func table(of sql: String) -> String? {
        let characters = Array(sql.unicodeScalars)
        // `CREATE VIRTUAL TABLE name USING module(arguments)`: the module name is the last word
        // before the first parenthesis not inside quotes.
        guard let open = firstOpenParenthesis(characters) else { return nil }
        let head = String(String.UnicodeScalarView(characters[..<open])).lowercased()
        let module = head.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).last.map(String.init)
        guard let module, ["fts3", "fts4", "fts5"].contains(module) else { return nil }
        for argument in arguments(characters[(open + 1)...]) {
            guard let equals = argument.firstIndex(of: "=") else { continue }
            let key = String(String.UnicodeScalarView(argument[..<equals])).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard key == "content" else { continue }
            let value = unquoted(
                String(String.UnicodeScalarView(argument[(equals + 1)...])).trimmingCharacters(in: .whitespacesAndNewlines))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    private static func firstOpenParenthesis(_ characters: [Unicode.Scalar]) -> Int? {
        var quote: Unicode.Scalar?
        for (index, character) in characters.enumerated() {
            if let open = quote {
                if character == closing(open) { quote = nil }
            } else if character == "(" {
                return index
            } else if closing(character) != nil {
                quote = character
            }
        }
        return nil
    }

    /// The arguments between the parentheses, split at commas outside quotes and parentheses.
    private static func arguments(_ characters: ArraySlice<Unicode.Scalar>) -> [ArraySlice<Unicode.Scalar>] {
        var result: [ArraySlice<Unicode.Scalar>] = []
        var quote: Unicode.Scalar?
        var depth = 0
        var start = characters.startIndex
        for index in characters.indices {
            let character = characters[index]
            if let open = quote {
                // A doubled quote inside quotes is the quote itself; the scan treats it as a close
                // and a reopen, which splits nothing.
                if character == closing(open) { quote = nil }
                continue
            }
            switch character {
            case "(": depth += 1
            case ")":
                if depth == 0 {
                    result.append(characters[start..<index])
                    return result
                }
                depth -= 1
            case "," where depth == 0:
                result.append(characters[start..<index])
                start = index + 1
            default:
                if closing(character) != nil { quote = character }
            }
        }
        result.append(characters[start...])
        return result
    }

    /// The quote that ends one opened by `character`, or `nil` when it opens none.
    private static func closing(_ character: Unicode.Scalar) -> Unicode.Scalar? {
        switch character {
        case "'", "\"", "`": return character
        case "[": return "]"
        default: return nil
        }
    }

    private static func unquoted(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, let close = closing(first), text.unicodeScalars.count >= 2,
            text.unicodeScalars.last == close
        else { return text }
        let inner = String(String.UnicodeScalarView(text.unicodeScalars.dropFirst().dropLast()))
        return first == "[" ? inner : inner.replacingOccurrences(of: String(first) + String(first), with: String(first))
    }
}
