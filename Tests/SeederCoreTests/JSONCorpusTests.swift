import Testing

@testable import SeederCore

/// The reader accepts exactly what RFC 8259 accepts: a corpus of valid and invalid inputs, each
/// invalid one with its exact message and byte offset.
struct JSONCorpusTests {
    static let accepted: [String] = [
        "0", "-0", "1", "-1", "123456789012345678901234567890", "1.5", "-0.0", "1e5", "1E+5", "1e-5", "0.5e0",
        "12.34e-56", "true", "false", "null", "\"\"", "\"abc\"", "\" \\\" \\\\ \\/ \\b \\f \\n \\r \\t \"",
        "\"\\u0041\\u00e9\\u4E2D\"", "\"\\uD83D\\uDE00\"", "\"é中😀\"", "\"\u{7F}\"", "[]", "{}", "[ ]", "{ }",
        "[1,2,3]", "[[[]]]", "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}", " \t\r\n[ 1 , 2 ]\n ",
        "{\"a\":1,\"A\":2}", "{\"\":0}", "\u{FEFF}[1]", "[\"\\u0000\"]", "{\"a\\u0062\":1,\"ab\\u0063\":2}",
    ]

    @Test(arguments: accepted)
    func accepts(_ text: String) throws {
        let document = try JSONDocument(parsing: text)
        #expect(document.nodes.count >= 1)
    }

    struct Rejected: Sendable, CustomStringConvertible {
        var input: String
        var message: String
        var offset: Int
        var description: String { input.debugDescription }
    }

    static let rejected: [Rejected] = [
        .init(input: "", message: "unexpected end of input, expected a value", offset: 0),
        .init(input: "[1,]", message: "trailing comma", offset: 2),
        .init(input: "{\"a\":1,}", message: "trailing comma", offset: 6),
        .init(input: "[1 2]", message: "unexpected '2', expected ',' or ']'", offset: 3),
        .init(input: "{\"a\" 1}", message: "unexpected '1', expected ':' after the key", offset: 5),
        .init(input: "{a:1}", message: "unexpected 'a', expected a string key", offset: 1),
        .init(input: "{'a':1}", message: "unexpected ''', expected a string key", offset: 1),
        .init(input: "['a']", message: "unexpected ''', expected a value", offset: 1),
        .init(input: "[1] // comment", message: "unexpected '/' after the JSON value", offset: 4),
        .init(input: "/* c */ 1", message: "unexpected '/', expected a value", offset: 0),
        .init(input: "NaN", message: "unexpected 'N', expected a value", offset: 0),
        .init(input: "Infinity", message: "unexpected 'I', expected a value", offset: 0),
        .init(input: "-Infinity", message: "invalid number: a digit must follow '-'", offset: 0),
        .init(input: "01", message: "leading zeros are not allowed in a number", offset: 0),
        .init(input: "-01", message: "leading zeros are not allowed in a number", offset: 0),
        .init(input: "1.", message: "unexpected end of input in a number", offset: 0),
        .init(input: "1.e5", message: "invalid number: a digit must follow '.'", offset: 0),
        .init(input: ".5", message: "unexpected '.', expected a value", offset: 0),
        .init(input: "+1", message: "unexpected '+', expected a value", offset: 0),
        .init(input: "1e", message: "unexpected end of input in a number", offset: 0),
        .init(input: "1e+", message: "unexpected end of input in a number", offset: 0),
        .init(input: "0x10", message: "unexpected 'x' after the JSON value", offset: 1),
        .init(input: "tru", message: "unexpected end of input in 'true'", offset: 0),
        .init(input: "nul", message: "unexpected end of input in 'null'", offset: 0),
        .init(input: "True", message: "unexpected 'T', expected a value", offset: 0),
        .init(input: "[nulL]", message: "unexpected 'n', expected a value", offset: 1),
        .init(input: "\"abc", message: "unterminated string", offset: 0),
        .init(input: "\"a\tb\"", message: "control character U+0009 must be escaped in a string", offset: 2),
        .init(input: "\"a\nb\"", message: "control character U+000A must be escaped in a string", offset: 2),
        .init(input: "\"\\x\"", message: "invalid escape '\\x'", offset: 1),
        .init(input: "\"\\ \"", message: "invalid escape: '\\' followed by byte 0x20", offset: 1),
        .init(input: "\"\\u12\"", message: "invalid escape: \\u needs four hex digits", offset: 1),
        .init(input: "\"\\uD800\"", message: "lone surrogate escape \\uD800", offset: 1),
        .init(input: "\"\\uDC00\"", message: "lone surrogate escape \\uDC00", offset: 1),
        .init(input: "\"\\uD800\\u0041\"", message: "lone surrogate escape \\uD800", offset: 1),
        .init(input: "[1]]", message: "unexpected ']' after the JSON value", offset: 3),
        .init(input: "[1", message: "unexpected end of input in array", offset: 2),
        .init(input: "{\"a\":1", message: "unexpected end of input in object", offset: 6),
        .init(input: "1 2", message: "unexpected '2' after the JSON value", offset: 2),
        .init(input: "{\"a\":1,\"a\":2}", message: "duplicate key \"a\" in object", offset: 7),
        .init(input: "{\"a\":1,\"\\u0061\":2}", message: "duplicate key \"a\" in object", offset: 7),
        .init(input: "{\"\\u0061\":1,\"b\":2,\"a\":3}", message: "duplicate key \"a\" in object", offset: 18),
        .init(input: "{\"\":1,\"x\":2,\"\":3}", message: "duplicate key \"\" in object", offset: 12),
        .init(input: "{\"ab\":1,\"cb\":2,\"db\":3,\"cb\":4}", message: "duplicate key \"cb\" in object", offset: 22),
        .init(input: "[\u{201C}a\u{201D}]", message: "unexpected '\u{201C}', expected a value", offset: 1),
    ]

    @Test(arguments: rejected)
    func rejects(_ case: Rejected) {
        #expect(throws: JSONSyntaxError(offset: `case`.offset, message: `case`.message)) {
            try JSONDocument(parsing: `case`.input)
        }
    }

    /// Bytes that are not UTF-8, in strings: overlongs, surrogates, truncation, stray bytes.
    static let invalidUTF8: [([UInt8], String)] = [
        ([0x22, 0xC0, 0xAF, 0x22], "invalid UTF-8 byte 0xC0"),
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], "invalid UTF-8 sequence"),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 sequence"),
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 sequence"),
        ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], "invalid UTF-8 byte 0xF5"),
        ([0x22, 0x80, 0x22], "invalid UTF-8 byte 0x80"),
        ([0x22, 0xC3, 0x22], "invalid UTF-8 sequence"),
        ([0x22, 0xE4, 0xB8], "invalid UTF-8: truncated sequence"),
        ([0x22, 0xFF, 0x22], "invalid UTF-8 byte 0xFF"),
    ]

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8(_ bytes: [UInt8], _ message: String) {
        #expect(throws: JSONSyntaxError(offset: 1, message: message)) {
            try JSONDocument(parsing: bytes)
        }
    }

    @Test func rejectsDeepNestingWithALocatedErrorInsteadOfCrashing() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError(offset: 512, message: "nesting deeper than 512 levels")) {
            try JSONDocument(parsing: deep)
        }
        let exactlyAtLimit = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONDocument(parsing: exactlyAtLimit) }
    }

    @Test func keepsNumbersAsWritten() throws {
        let document = try JSONDocument(parsing: "[9223372036854775808, 1.50e3, -0, 5013.260]")
        let numbers = document.root.elements.map { $0.numberText }
        #expect(numbers == ["9223372036854775808", "1.50e3", "-0", "5013.260"])
        #expect(document.root.elements.map(\.isIntegralNumber) == [true, false, true, false])
    }

    @Test func decodesEscapes() throws {
        let document = try JSONDocument(parsing: #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\uD83D\uDE00", "plain"]"#)
        let strings = document.root.elements.map { $0.string }
        #expect(strings == ["a\"b\\c/d\u{8}\u{C}\n\r\t", "é😀", "plain"])
    }

    @Test func comparesKeysByTheirDecodedText() {
        #expect(throws: JSONSyntaxError(offset: 15, message: "duplicate key \"ab\" in object")) {
            try JSONDocument(parsing: #"{"a\u0062": 1, "ab": 2}"#)
        }
    }

    @Test func findsDuplicatesInLargeObjects() {
        let members = (0..<40).map { "\"k\($0)\": \($0)" } + ["\"k7\": 0"]
        let text = "{" + members.joined(separator: ",") + "}"
        let offset = text.utf8.count - #""k7": 0}"#.utf8.count
        #expect(throws: JSONSyntaxError(offset: offset, message: "duplicate key \"k7\" in object")) {
            try JSONDocument(parsing: text)
        }
    }

    @Test func findsDuplicatesInLargeObjectsByTheirDecodedTextAndPassesDistinctKeys() throws {
        let members = (0..<20_000).map { "\"k\($0)\": \($0)" }
        #expect(try JSONDocument(parsing: "{" + members.joined(separator: ",") + "}").root.count == 20_000)
        let text = "{" + (members + [#""\u006b19999": 0"#]).joined(separator: ",") + "}"
        let offset = text.utf8.count - #""\u006b19999": 0}"#.utf8.count
        #expect(throws: JSONSyntaxError(offset: offset, message: "duplicate key \"k19999\" in object")) {
            try JSONDocument(parsing: text)
        }
    }
}
