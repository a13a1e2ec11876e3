/// Folds diagnostics that say the same thing about many records: the first few of a kind are
/// shown, the rest counted (docs/commands.md, Diagnostics).
///
/// Two diagnostics are alike when their severity is the same and their messages are, once the
/// values that differ from record to record are masked: double-quoted text (a JSON value or a
/// record's identity) and numbers outside single quotes. Names in single quotes (an attribute,
/// an entity, a key) are kept, so a wrong type in `'age'` and one in `'born'` fold apart.
public enum DiagnosticFolding {
    /// One line of folded output: a diagnostic to print, and how many like it follow unprinted
    /// (non-zero on the last one of its kind that is printed).
    public struct Line: Sendable, Hashable {
        public var diagnostic: Diagnostic
        public var moreLikeThis: Int

        /// `... and 37 more like this`, the line that follows the last one printed of a kind.
        public var moreText: String? { moreLikeThis > 0 ? "... and \(moreLikeThis) more like this" : nil }
    }

    /// The diagnostics to print, in their order: at most `shown` of each kind.
    public static func fold(_ diagnostics: [Diagnostic], shown: Int = 3) -> [Line] {
        let shapes = diagnostics.map(shape)
        var total: [String: Int] = [:]
        for shape in shapes { total[shape, default: 0] += 1 }
        var printed: [String: Int] = [:]
        var lines: [Line] = []
        for (diagnostic, shape) in zip(diagnostics, shapes) {
            let count = printed[shape, default: 0]
            guard count < shown else { continue }
            printed[shape] = count + 1
            let more = count + 1 == shown ? total[shape]! - shown : 0
            lines.append(Line(diagnostic: diagnostic, moreLikeThis: more))
        }
        return lines
    }

    /// The severity and message with the values masked.
    static func shape(_ diagnostic: Diagnostic) -> String {
        var shape = diagnostic.severity.rawValue + ":"
        var quote: Character?
        var lastWasDigit = false
        var escaped = false
        for character in diagnostic.message {
            if let open = quote {
                if open == "\"" {
                    // Inside a double-quoted value: drop everything up to its closing quote.
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        quote = nil
                        shape.append("\"")
                    }
                    continue
                }
                if character == open { quote = nil }
                shape.append(character)
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
                shape.append(character == "\"" ? "\"…" : "'")
                lastWasDigit = false
                continue
            }
            if character.isNumber {
                if !lastWasDigit { shape.append("#") }
                lastWasDigit = true
                continue
            }
            lastWasDigit = false
            shape.append(character)
        }
        return shape
    }
}
