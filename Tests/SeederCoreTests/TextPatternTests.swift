import Testing

@testable import SeederCore

/// `match:`'s patterns alone (docs/mapping.md, Values inside text): searched, not anchored; the
/// first group or the whole match; PCRE2's own reasons for what it cannot do.
struct TextPatternTests {
    @Test(arguments: [
        (#"/(\d+)/?$"#, "https://swapi.dev/api/planets/12/", "12"),
        (#"/(\d+)/?$"#, "/api/v2/type/7", "7"),
        (#"\d+"#, "users/42/posts/3", "42"),
        (#"\d+"#, "v1/users/42/", "1"),
        (#"^(\d{4})"#, "20240101", "2024"),
        (#"(?i)user-([a-z]+)"#, "USER-Ada", "Ada"),
        (#"/(\d+)?$"#, "https://host/list/", ""),
        (#"(?<=id=)[^&]+"#, "a=1&id=x%20y&b=2", "x%20y"),
        (#"^(.)"#, "élan", "é"),
        (#"^$"#, "", ""),
    ])
    func findsTheFirstGroupOrTheWholeMatch(pattern: String, text: String, value: String) throws {
        #expect(try TextPattern(pattern).search(text) == value)
    }

    @Test func aTextItDoesNotMatchIsNotFound() throws {
        let pattern = try TextPattern(#"/(\d+)/?$"#)
        #expect(pattern.search("https://swapi.dev/api/planets/") == nil)
        #expect(Array("12".utf8).withUnsafeBufferPointer { pattern.search($0) } == .notFound)
    }

    @Test func aTextThatIsNotUTF8IsPCRE2sReasonNotAMatch() throws {
        let pattern = try TextPattern(#"(\d+)"#)
        let outcome = [UInt8(ascii: "1"), 0xFF, UInt8(ascii: "2")].withUnsafeBufferPointer { pattern.search($0) }
        #expect(outcome == .failed("UTF-8 error: illegal byte (0xfe or 0xff)"))
    }

    @Test(arguments: [
        (#"/(\d+/"#, "missing closing parenthesis at offset 6"),
        ("[a-", "missing terminating ] for character class at offset 3"),
        ("(a)(b)", "it has 2 capture groups; the value is the first group's text, so it may have one (write the others '(?:...)')"),
        ("x{2,1}", "numbers out of order in {} quantifier at offset 5"),
    ])
    func aPatternPCRE2RefusesSaysWhy(pattern: String, message: String) {
        #expect(throws: TextPatternError(message: message)) { try TextPattern(pattern) }
    }
}
