import Testing

@testable import SeederCore

/// Text from data as seeder prints it (docs/commands.md, Printed text): control characters
/// escaped as a JSON string escapes them, no line starting with `::`, no `##[`, and markdown
/// that no name or value can end early.
struct PrintedTextTests {
    /// Each row: data, then how it reads within a line.
    static let escapes: [(String, String)] = [
        ("A\n::add-mask::X\n::warning file=README.md,line=1::forged", #"A\n::add-mask::X\n::warning file=README.md,line=1::forged"#),
        ("\u{1B}]0;PWNED\u{07}\u{1B}[2J", #"\u001b]0;PWNED\u0007\u001b[2J"#),
        ("a\rb\tc\u{8}d\u{C}e\u{0}", #"a\rb\tc\bd\fe\u0000"#),
        ("del\u{7F} nel\u{85} csi\u{9B}", #"del\u007f nel\u0085 csi\u009b"#),
        ("ls\u{2028}ps\u{2029}rlo\u{202E}lri\u{2067}pdi\u{2069}", #"ls\u2028ps\u2029rlo\u202elri\u2067pdi\u2069"#),
        ("echo ##[add-mask]secret", #"echo ##\u005badd-mask]secret"#),
        ("###[x] and #[ and ##", #"###\u005bx] and #[ and ##"#),
        // What needs nothing stays as it is: letters of any script, dashes, marks, emoji.
        ("Zoë — naïve ✓ ‎שלום‏ 🌱 C:\\path \"q\"", "Zoë — naïve ✓ ‎שלום‏ 🌱 C:\\path \"q\""),
    ]

    @Test(arguments: escapes) func escapesWithinALine(data: String, shown: String) {
        #expect(PrintedText.escaped(data) == shown)
        // Escaping what is escaped changes nothing: a message may be escaped twice on its way.
        #expect(PrintedText.escaped(shown) == shown)
    }

    /// Printed lines keep their line feeds and tabs; a line that would start with `::`, after
    /// any white space the runner trims, starts with `\u003a:` instead.
    @Test func guardsTheStartOfEveryLine() {
        #expect(PrintedText.guarded("::error::forged\n") == "\\u003a:error::forged\n")
        #expect(PrintedText.guarded("ok\n  ::stop-commands::x\n\t::warning::y") == "ok\n  \\u003a:stop-commands::x\n\t\\u003a:warning::y")
        #expect(PrintedText.guarded("\u{A0}\u{3000}::add-mask::x") == "\u{A0}\u{3000}\\u003a:add-mask::x")
        // White space that is escaped anyway is escaped, and the colons after it are not at a line's start.
        #expect(PrintedText.guarded("\u{85}::x") == "\\u0085::x")
        #expect(PrintedText.guarded("a ::b\n:c\n\n::") == "a ::b\n:c\n\n\\u003a:")
        #expect(PrintedText.guarded("line\r::x\u{1B}[2J") == "line\\r::x\\u001b[2J")
        #expect(PrintedText.escaped("::x") == "::x")
        // Bytes that need nothing are not copied.
        #expect(Array("plain: text #1\n".utf8).withUnsafeBufferPointer { PrintedText.guarded($0) } == nil)
        #expect(Array("::x\n".utf8).withUnsafeBufferPointer { PrintedText.guarded($0) } == Array("\\u003a:x\n".utf8))
    }

    @Test func codeSpansAreFencedLongerThanTheirContent() {
        #expect(PrintedText.codeSpan("user") == "`user`")
        #expect(PrintedText.codeSpan("a`b") == "``a`b``")
        #expect(PrintedText.codeSpan("`x```") == "```` `x``` ````")
        #expect(PrintedText.codeSpan("k\n```\n## x") == #"````k\n```\n## x````"#)
        // Markdown counts backticks by bytes: one a combining mark, a joiner or a variation
        // selector follows is still one, and a Prepend character before the first does not hide it.
        #expect(PrintedText.codeSpan("x````\u{301} </details>") == "`````x````\u{301} </details>`````")
        #expect(PrintedText.codeSpan("a`\u{200D}`\u{FE0F}`b") == "``a`\u{200D}`\u{FE0F}`b``")
        #expect(PrintedText.codeSpan("`\u{301}x") == "`` `\u{301}x ``")
        #expect(PrintedText.codeSpan("\u{600}`") == "`` \u{600}` ``")
        #expect(PrintedText.fenced(["```\u{301}"]) == "````\n```\u{301}\n````\n")
    }

    @Test func fencedBlocksCannotBeClosedByALine() {
        #expect(PrintedText.fenced(["a", "b"]) == "```\na\nb\n```\n")
        #expect(PrintedText.fenced(["k\n```\n## x", "````"]) == "`````\nk\\n```\\n## x\n````\n`````\n")
    }

    @Test func namesAmongMarkupAreText() {
        #expect(PrintedText.html("x\n</details>\n# y & z") == #"x\n&lt;/details&gt;\n# y &amp; z"#)
        #expect(PrintedText.cell("a|b</td>") == #"a\|b&lt;/td&gt;"#)
        #expect(PrintedText.cell("users") == "users")
    }

    /// The source quote shows each escaped character as one `�`, so the caret stays in place.
    @Test func sourceQuotesReplaceWhatIsEscaped() {
        let quote = SourceQuote(line: "a\u{9B}b\u{202E}c: x", column: 6)
        #expect(quote.text == "a\u{FFFD}b\u{FFFD}c: x")
        #expect(quote.caret == "     ^")
    }
}
