/// The source line a diagnostic quotes, with a caret under its column: cut around the caret
/// when the line is long, so one error on a 20 MB line prints a line of a screen's width.
///
///     attributes: {id: integer, nmae: string}
///                               ^
public struct SourceQuote: Sendable, Hashable {
    /// The quoted text, control characters (C0, DEL, C1, U+2028, U+2029, the bidirectional
    /// overrides and isolates) shown as `�` and cuts as `...`.
    public var text: String
    /// Spaces (tabs where the text has tabs) and the caret.
    public var caret: String

    /// The most characters quoted on each side of the caret.
    public static let reach = 60

    /// Quotes `line` (without its line feed) at the 1-based `column`, counted in Unicode scalars.
    public init(line: Substring, column: Int) {
        let scalars = Array(line.unicodeScalars)
        let caretIndex = min(max(column - 1, 0), scalars.count)
        let start = caretIndex > Self.reach ? caretIndex - Self.reach : 0
        let end = min(scalars.count, caretIndex + Self.reach)
        var text = start > 0 ? "..." : ""
        var caret = start > 0 ? "   " : ""
        for (index, scalar) in scalars[start..<end].enumerated() {
            // One character for one, so that the caret stays under its column; the characters
            // `PrintedText` escapes are the ones replaced.
            let shown: Unicode.Scalar = scalar == "\t" || !PrintedText.isEscaped(scalar) ? scalar : "\u{FFFD}"
            text.unicodeScalars.append(shown)
            if start + index < caretIndex { caret.append(scalar == "\t" ? "\t" : " ") }
        }
        if end < scalars.count { text += "..." }
        caret.append("^")
        self.text = text
        self.caret = caret
    }
}
