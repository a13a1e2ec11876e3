import Foundation
import Testing

@testable import SeederCore

/// `@where(K = V)` and `@where(K != V)` (docs/mapping.md, Picking entries): how they parse, what
/// they keep, and every malformed form's message, the docs' table included.
struct KeyPathFilterTests {
    @Test func parsesConditionsAmongKeys() throws {
        let english = try KeyPath(parsing: "descriptions.@where(language.name = en).@first.text")
        #expect(english.keys == ["descriptions"] && english.collectionOperator == .first && english.operatorKeys == ["text"])
        #expect(english.filters.map(\.keys) == [["language", "name"]] && english.filters.map(\.position) == [1])
        #expect(english.filters.first?.value == .text("en") && english.filters.first?.negated == false)
        #expect(english.description == "descriptions.@where(language.name = en).@first.text")
        let quoted = try KeyPath(parsing: #"translations.@where(locale = "pt-BR").@first.title"#)
        #expect(quoted.filters.first?.value == .text("pt-BR"))
        #expect(try KeyPath(parsing: "a.@where(k=pt-BR)").filters.first?.value == .text("pt-BR"))
        let negated = try KeyPath(parsing: "a.b.@where(x != 1.50).c.@count")
        #expect(negated.keys == ["a", "b", "c"] && negated.filters.map(\.position) == [2] && negated.collectionOperator == .count)
        #expect(negated.filters.first?.negated == true)
        #expect(negated.filters.first?.value == .number(DecimalNumber(text: "1.5".utf8)!))
        #expect(negated.description == "a.b.@where(x != 1.50).c.@count")
        let values = try ["true", "false", "null", #""true""#, #""a \"b\" \\ c.(=)""#, "-2e3"].map {
            try #require(try KeyPath(parsing: "a.@where(k = \($0))").filters.first).value
        }
        #expect(
            values == [
                .bool(true), .bool(false), .null, .text("true"), .text(#"a "b" \ c.(=)"#), .number(DecimalNumber(text: "-2000".utf8)!),
            ])
        let twice = try KeyPath(parsing: "e.@where(language.name = en).@where(version.name = red).@first.text")
        #expect(twice.filters.map(\.position) == [1, 1] && twice.filters.map(\.keys) == [["language", "name"], ["version", "name"]])
        #expect(twice.description == "e.@where(language.name = en).@where(version.name = red).@first.text")
        // A key path that does not start with an operator and parentheses is split as before.
        #expect(try KeyPath(parsing: "a(b).c") == KeyPath(literal: ["a(b)", "c"]))
        #expect(KeyPath(literal: ["a", "@where(k = v)"]).filters.isEmpty)
    }

    static let entries = """
        {"names": [{"language": {"name": "ja-Hrkt"}, "name": "フシギダネ"}, {"language": {"name": "fr"}, "name": "Bulbizarre"},
                   {"language": {"name": "en"}, "name": "Bulbasaur"}, {"language": null, "name": "?"}, {"name": "none"}, "text", null],
         "stats": [{"base_stat": 45, "effort": 0}, {"base_stat": 65, "effort": 1}, {"base_stat": 45.0, "effort": "1"}],
         "abilities": [{"hidden": false, "n": "overgrow"}, {"hidden": true, "n": "chlorophyll"}, {"hidden": "true", "n": "x"}],
         "escaped": [{"k": "\\u0065n", "n": 1}], "object": {"k": 1}, "nothing": null}
        """

    func names(_ path: String) throws -> String {
        let document = try JSONDocument(parsing: Self.entries)
        switch try KeyPath(parsing: path).evaluate(on: document.root) {
        case .absent: return "absent"
        case .null: return "null"
        case let value: return Coercion.listJSON([value])
        }
    }

    static let kept: [(String, String)] = [
        ("names.@where(language.name = en).@first.name", #"["Bulbasaur"]"#),
        ("names.@where(language.name = en).name", #"[["Bulbasaur"]]"#),
        ("names.@where(language.name = de).@first.name", "null"),
        ("names.@where(language.name != en).@count", "[6]"),
        ("names.@where(language.name != en).name", #"[["フシギダネ","Bulbizarre","?","none",null,null]]"#),
        // A key on null gives null; a missing key matches only !=.
        ("names.@where(language.name = null).name", #"[["?",null]]"#),
        ("names.@where(language = null).name", #"[["?",null]]"#),
        ("names.@where(language != null).@count", "[5]"),
        // Numbers by value, never a string.
        ("stats.@where(base_stat = 45).@count", "[2]"),
        ("stats.@where(effort = 1).@count", "[1]"),
        (#"stats.@where(effort = "1").base_stat"#, "[[45.0]]"),
        ("abilities.@where(hidden = true).n", #"[["chlorophyll"]]"#),
        ("abilities.@where(hidden != true).n", #"[["overgrow","x"]]"#),
        (#"abilities.@where(hidden = "true").n"#, #"[["x"]]"#),
        ("escaped.@where(k = en).n", "[[1]]"),
        ("missing.@where(k = 1).@count", "absent"),
        ("nothing.@where(k = 1).@count", "[null]"),
    ]

    @Test(arguments: kept)
    func keepsTheElementsThatMatch(_ path: String, _ expected: String) throws {
        #expect(try names(path) == expected)
    }

    @Test func needsAnArray() throws {
        let document = try JSONDocument(parsing: Self.entries)
        let path = try KeyPath(parsing: "object.@where(k = 1).@count")
        let failure = try #require(throws: KeyPathFailure.self) { try path.evaluate(on: document.root) }
        #expect(failure.message == "'@where(k = 1)' needs an array, found an object")
        #expect(failure.value?.pointer.description == "/object")
    }

    static let invalid: [(String, String)] = [
        ("names.@where", "'@where' needs a condition in parentheses, as in '@where(language.name = en)'"),
        (
            "names.@where(language.name)",
            "'@where(language.name)' needs '=' or '!=' between a key path and a value, as in '@where(language.name = en)'"
        ),
        ("names.@where(= en)", "'@where(= en)' needs a key path before '=', as in '@where(language.name = en)'"),
        ("names.@where( != en)", "'@where( != en)' needs a key path before '!=', as in '@where(language.name = en)'"),
        ("names.@where(language..name = en)", "'@where(language..name = en)': key path 'language..name' has an empty key"),
        (
            "names.@where(language.@first.name = en)",
            "'@where(language.@first.name = en)' compares the value of plain keys, written without quotes or operators; '@first' is not one"
        ),
        (
            #"names.@where("locale" = en)"#,
            #"'@where("locale" = en)' compares the value of plain keys, written without quotes or operators; '"locale"' is not one"#
        ),
        ("names.@where(language.name =)", #"'@where(language.name =)' needs a value after the operator; write "" for empty text"#),
        ("names.@where(language.name == en)", "'@where(language.name == en)': '==' is not an operator; write '=' or '!='"),
        ("names.@where(language.name = en", "'@where(' in 'names.@where(language.name = en' has no closing ')'"),
        (#"names.@where(locale = "pt-BR)"#, #"'@where(' in 'names.@where(locale = "pt-BR)' has a quote that is not closed"#),
        ("stats.@where(effort = 1x)", #"'@where(effort = 1x)': '1x' is not a number; write "1x" for text"#),
        ("stats.@where(effort = 01)", #"'@where(effort = 01)': '01' is not a number; write "01" for text"#),
        (
            "xs.@where(v = 1e99999999999999999999).k",
            "'@where(v = 1e99999999999999999999)': '1e99999999999999999999' has an exponent past 100000000, beyond what seeder compares"
        ),
        (
            "names.@where(language.name = en us)",
            "'@where(language.name = en us)': the text 'en us' holds a space; write it in double quotes"
        ),
        ("hosts.@where(name = example.com)", "'@where(name = example.com)': the text 'example.com' holds '.'; write it in double quotes"),
        ("hosts.@where(a = b=c)", "'@where(a = b=c)': the text 'b=c' holds '='; write it in double quotes"),
        (
            "hosts.@where(a = f(x)).name",
            "'@where(a = f(x)' in 'hosts.@where(a = f(x)).name' is followed by ')', not by '.'; text holding '(' or ')' goes in double quotes"
        ),
        (#"names.@where(locale = "pt\BR")"#, #"'@where(locale = "pt\BR")': '\B' is not an escape; a quoted value knows '\"' and '\\'"#),
        (#"names.@where(locale = "pt"BR)"#, #"'@where(locale = "pt"BR)': 'BR' follows the closing quote of the value"#),
        (
            "@where(id = 1).name",
            "'@where' filters the array the keys before it reach, as in 'descriptions.@where(language.name = en)'; '@where(id = 1).name' has no key before it"
        ),
        (
            "names.@first.name.@where(id = 1)",
            "'@where' filters before the collection operator, not after it: '@where(id = 1)' follows '@first' in 'names.@first.name.@where(id = 1)'"
        ),
        ("names.@where(id = 1).", "key path 'names.@where(id = 1).' has an empty key"),
        ("names.@first(id = 1).name", "'@first' takes no condition in parentheses; '@where' does"),
        ("names.@wher(id = 1).name", "unknown collection operator '@wher' in 'names.@wher(id = 1).name' (did you mean '@where'?)"),
    ]

    @Test(arguments: invalid)
    func rejectsMalformedConditions(_ text: String, _ message: String) {
        #expect(throws: KeyPathError(message: message)) { try KeyPath(parsing: text) }
    }

    /// Every row of the table of errors in docs/mapping.md (Picking entries) is what the parser says.
    @Test func theDocsTableOfErrorsIsTrue() throws {
        let docs = try String(contentsOf: DocsTests.root.appendingPathComponent("docs/mapping.md"), encoding: .utf8)
        let section = try #require(docs.components(separatedBy: "### Picking entries (`@where`)").dropFirst().first)
        let table = try #require(section.components(separatedBy: "**Errors.**").dropFirst().first?.components(separatedBy: "\n### ").first)
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == 14)
        for row in rows {
            let cells = row.dropFirst(3).dropLast(3).components(separatedBy: "` | `")
            try #require(cells.count == 2, "\(row)")
            #expect(throws: KeyPathError(message: cells[1])) { try KeyPath(parsing: cells[0]) }
        }
    }
}
