/// Text from data in markdown (the step summary, `--format markdown`): where markup cannot
/// end early, whatever the text holds (docs/ci.md, The step summary).
extension PrintedText {
    /// `text` as a code span on one line, fenced with more backticks than it holds:
    /// `` `a` ``, ``` `` a`b `` ```. Control characters are escaped, so no line ends inside.
    public static func codeSpan(_ text: String) -> String {
        let flat = escaped(text)
        let fence = String(repeating: "`", count: longestBacktickRun(in: flat) + 1)
        let padded = flat.utf8.first == backtick || flat.utf8.last == backtick ? " \(flat) " : flat
        return fence + padded + fence
    }

    /// A table cell: `html`, and `|`, which would end the cell, escaped.
    public static func cell(_ text: String) -> String {
        html(text).replacingOccurrences(of: "|", with: "\\|")
    }

    /// Text among markup, as a name is in a list item or inside `<summary>`: escaped, and `&`,
    /// `<` and `>` as entities, so that `</details>` in a name is text.
    public static func html(_ text: String) -> String {
        escaped(text).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Lines as a fenced code block, its fence longer than any run of backticks in them (at least
    /// three), so that no line closes it.
    public static func fenced(_ lines: [String]) -> String {
        let body = lines.map { escaped($0) + "\n" }.joined()
        let fence = String(repeating: "`", count: max(3, longestBacktickRun(in: body) + 1))
        return fence + "\n" + body + fence + "\n"
    }

    private static var backtick: UInt8 { UInt8(ascii: "`") }

    /// The longest run of backticks, counted by bytes as markdown counts them: by `Character`s,
    /// a backtick that a combining mark follows would not count, and would close the span.
    private static func longestBacktickRun(in text: String) -> Int {
        var longest = 0
        var run = 0
        for byte in text.utf8 {
            run = byte == backtick ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}
