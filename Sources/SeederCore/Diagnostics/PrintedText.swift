/// How text that holds data (values, keys, identities, file names, table and column names) is
/// printed, so that no value can start a line, move a terminal's cursor or act as a GitHub
/// workflow command (docs/commands.md, Printed text).
///
/// One form of escape everywhere, a JSON string's: `\n`, `\r`, `\t`, `\b`, `\f` and `\u001b`
/// for the control characters, and `\uXXXX` for DEL, the C1 controls, the line and paragraph
/// separators and the bidirectional overrides and isolates. Inside a JSON document the same
/// escapes stand for the same characters, so a document stays valid and means what it did.
///
///     PrintedText.escaped("A\n::add-mask::X")   // A\n::add-mask::X, on one line
///     PrintedText.guarded("::warning::x\n")     // \u003a:warning::x
///
/// GitHub's runner reads standard output and standard error for commands: a line that starts
/// with `::` after white space, and `##[` anywhere in a line. Printed lines are guarded against
/// both: the first `:` of such a line is `\u003a`, the `[` of `##[` is `\u005b`.
public enum PrintedText {
    /// `text` for use within a line: every character above escaped, line feeds included, and
    /// `##[` broken. A leading `::` is left to `guarded`, which sees where lines start.
    public static func escaped(_ text: String) -> String {
        rewritten(text, keepingLines: false)
    }

    /// Lines as seeder prints them: line feeds and tabs kept, every other character above
    /// escaped, no line starting with `::` and no `##[`. What every write to standard output or
    /// standard error goes through, save seeder's own workflow commands and terminal codes.
    public static func guarded(_ text: String) -> String {
        rewritten(text, keepingLines: true)
    }

    /// `guarded` for bytes: `nil` when they need no escape (most text, found so in one pass
    /// that copies nothing), else the escaped bytes.
    public static func guarded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        rewrite(bytes, keepingLines: true)
    }

    private static func rewritten(_ text: String, keepingLines: Bool) -> String {
        var text = text
        guard let bytes = text.withUTF8({ rewrite($0, keepingLines: keepingLines) }) else { return text }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `byte` may start an escape: a control, DEL, the lead byte of C1 (0xC2) or of
    /// U+2028-U+2069 (0xE2), or `#`; every other byte is copied as it is.
    @inline(__always)
    private static func mayStartEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 || byte == UInt8(ascii: "#")
    }

    /// The rewritten bytes, or `nil` when there is nothing to rewrite.
    private static func rewrite(_ bytes: UnsafeBufferPointer<UInt8>, keepingLines: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        var copied = 0
        var index = 0
        var lineStart = keepingLines ? 0 : -1
        while index < bytes.count {
            // An escape to write at `index` in place of `count` bytes (no closure: the loop's
            // variables stay out of a box, and their accesses unchecked at run time).
            var found: (count: Int, escape: String)?
            // Most lines start with a letter: white space is looked for only where it may be.
            let first = bytes[index]
            if index == lineStart, first == UInt8(ascii: ":") || first == UInt8(ascii: " ") || first == 0x09 || first >= 0x80 {
                lineStart = -1
                let start = afterWhiteSpace(bytes, from: index)
                if start + 1 < bytes.count, bytes[start] == UInt8(ascii: ":"), bytes[start + 1] == UInt8(ascii: ":") {
                    index = start
                    found = (1, "\\u003a")
                }
            }
            if found == nil {
                let byte = bytes[index]
                if !mayStartEscape(byte) {
                    index += 1
                    continue
                }
                switch byte {
                case 0x0A where keepingLines:
                    index += 1
                    lineStart = index
                case 0x09 where keepingLines:
                    index += 1
                case 0..<0x20, 0x7F:
                    found = (1, escape(UInt32(byte)))
                case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                    found = (2, escape(UInt32(bytes[index + 1])))
                case 0xE2 where index + 2 < bytes.count:
                    let scalar = 0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                    if bytes[index + 1] & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80, isHidden(scalar) {
                        found = (3, escape(scalar))
                    } else {
                        index += 1
                    }
                case UInt8(ascii: "#")
                where index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "#") && bytes[index + 2] == UInt8(ascii: "["):
                    index += 2
                    found = (1, "\\u005b")
                default:
                    index += 1
                }
            }
            guard let (count, escape) = found else { continue }
            if out.isEmpty { out.reserveCapacity(bytes.count + 16) }
            out += bytes[copied..<index]
            out += escape.utf8
            index += count
            copied = index
        }
        guard copied > 0 else { return nil }
        out += bytes[copied...]
        return out
    }

    /// Whether `scalar` is one of the characters `escaped` escapes.
    public static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isHidden(scalar.value)
    }

    /// The line and paragraph separators, and the bidirectional embeddings, overrides and
    /// isolates, which reorder what a reader sees (U+2028-U+202E, U+2066-U+2069).
    private static func isHidden(_ scalar: UInt32) -> Bool {
        (0x2028...0x202E).contains(scalar) || (0x2066...0x2069).contains(scalar)
    }

    /// A JSON string's escape of one character.
    private static func escape(_ scalar: UInt32) -> String {
        switch scalar {
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x08: return "\\b"
        case 0x0C: return "\\f"
        default:
            let hex = String(scalar, radix: 16)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
    }

    /// The index after the white space that starts a line, as the runner trims it (any Unicode
    /// white space: U+00A0 and U+3000 as well as spaces). White space that is escaped anyway
    /// (a line feed, U+0085, U+2028) ends the run, so that it is escaped in its turn.
    private static func afterWhiteSpace(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            // Spaces and tabs without decoding, the usual indentation.
            if bytes[index] == UInt8(ascii: " ") || bytes[index] == 0x09 {
                index += 1
                continue
            }
            guard bytes[index] >= 0x80 else { break }
            var iterator = bytes[index...].makeIterator()
            var decoder = UTF8()
            guard case let .scalarValue(scalar) = decoder.decode(&iterator), scalar.properties.isWhitespace,
                scalar.value > 0x9F && !isHidden(scalar.value)
            else { break }
            index += UTF8.width(scalar)
        }
        return index
    }
}
