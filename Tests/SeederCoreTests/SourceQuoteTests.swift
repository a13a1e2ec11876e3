import Testing

@testable import SeederCore

/// The quoted source line of a diagnostic: whole when short, cut around the caret when long
/// (docs/commands.md, Diagnostics).
struct SourceQuoteTests {
    @Test func quotesAShortLineWhole() {
        let quote = SourceQuote(line: "    owner: { to: Usr }", column: 18)
        #expect(quote.text == "    owner: { to: Usr }")
        #expect(quote.caret == String(repeating: " ", count: 17) + "^")
    }

    @Test func cutsALongLineAroundTheCaret() {
        let line = String(repeating: "a", count: 100) + "X" + String(repeating: "b", count: 100)
        let quote = SourceQuote(line: Substring(line), column: 101)
        #expect(quote.text == "..." + String(repeating: "a", count: 60) + "X" + String(repeating: "b", count: 59) + "...")
        #expect(quote.caret == String(repeating: " ", count: 63) + "^")
        let start = SourceQuote(line: Substring(line), column: 1)
        #expect(start.text == String(repeating: "a", count: 60) + "...")
        #expect(start.caret == "^")
        let end = SourceQuote(line: Substring(line), column: 202)
        #expect(end.text == "..." + String(repeating: "b", count: 60))
        #expect(end.caret == String(repeating: " ", count: 63) + "^")
    }

    @Test func keepsTabsAlignedAndShowsControlCharacters() {
        let quote = SourceQuote(line: "\tna\u{0}me: é", column: 7)
        #expect(quote.text == "\tna\u{FFFD}me: é")
        #expect(quote.caret == "\t     ^")
    }
}
