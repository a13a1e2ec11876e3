import Testing

@testable import SeederCore
@testable import SeederInfer

/// Where `seeder infer` finds the records of a file whose root is an object (docs/commands.md,
/// `seeder infer`), from the outer levels the reader streams.
struct RecordLayoutTests {
    static func layout(_ text: String, blockSize: Int = 1 << 20) throws -> [String] {
        let reader = JSONReader(source: MemoryByteSource(text), blockSize: blockSize)
        return try RecordLayout(reading: reader).collections.map(describe)
    }

    static func describe(_ collection: RecordLayout.Collection) -> String {
        "\(collection.keyPath.joined(separator: "."))\(collection.keyed ? " keyed" : "") \(collection.records)"
    }

    /// Each row: a document, the places it holds records in (key path, keyed, how many), and
    /// the layout rule that finds them (`RecordLayout.rules`).
    static let cases: [(String, [String], String)] = [
        // The largest array of objects, three keys deep at most, is the page.
        (
            #"{"code": 200, "data": {"offset": 0, "tags": [{"a": 1}], "results": [{"id": 1}, {"id": 2}]}}"#, ["data.results 2"],
            "largest-array-is-the-page"
        ),
        (#"{"a": {"b": {"c": [{"x": 1}]}}}"#, ["a.b.c 1"], "largest-array-is-the-page"),
        (#"{"a": {"b": {"c": {"d": [{"x": 1}, {"x": 2}]}}}, "e": [{"y": 1}]}"#, ["e 1"], "largest-array-is-the-page"),
        // An array that holds anything but objects (or null) is no page.
        (#"{"items": [{"a": 1}, 2], "more": [{"a": 1}, null]}"#, ["more 1"], "largest-array-is-the-page"),
        // Objects keyed by their records under the root, and the root's arrays, in file order.
        (
            #"{"posts": [{"id": 1}], "users": {"u1": {"n": "a"}, "u2": null, "u3": {"n": "b"}}, "config": {"x": 1, "y": 2}}"#,
            ["posts 1", "users keyed 3"], "keyed-export"
        ),
        // The root keyed by its records; arrays inside the records are not pages.
        (#"{"-K1": {"a": 1, "b": [{"t": 1}]}, "-K2": {"a": 3, "b": [{"t": 2}, {"t": 3}]}}"#, [" keyed 2"], "root-keyed-by-records"),
        // Members that are objects with other keys are fields, not records.
        (#"{"owner": {"login": "a", "id": 1}, "repo": {"name": "x", "stars": 3, "forks": 1, "open": true}}"#, [], "object-is-one-record"),
        // One object of fields: one record.
        (#"{"id": 1, "name": "x", "tags": ["a", "b"]}"#, [], "root-with-id-is-a-record"),
        (#"{}"#, [], "object-is-one-record"),
        // A single member is no collection.
        (#"{"users": {"u1": {"n": "a"}}}"#, [], "object-is-one-record"),
        // Collections side by side in an object with no value of its own: each one.
        (
            #"{"data": {"users": [{"id": 1}], "projects": [{"id": 2}, {"id": 3}]}}"#, ["data.users 1", "data.projects 2"],
            "collections-side-by-side"
        ),
        // A root with an id of its own is a record, whatever arrays it holds.
        (#"{"id": 7, "addresses": [{"city": "a"}]}"#, [], "root-with-id-is-a-record"),
        // A last page: where the records would be, an empty array.
        (#"{"total_count": 0, "items": []}"#, [], "empty-page"),
    ]

    @Test(arguments: cases.indices)
    func findsTheRecords(_ index: Int) throws {
        let (text, expected, rule) = Self.cases[index]
        #expect(try Self.layout(text) == expected)
        #expect(try RecordLayout(reading: JSONReader(source: MemoryByteSource(text))).rule.name == rule)
        // The same through blocks of 8 bytes: every value and key crosses a block's end.
        #expect(try Self.layout(text, blockSize: 8) == expected)
        // The same from the object parsed whole.
        let root = try JSONDocument(parsing: Array(text.utf8)).root
        #expect(RecordLayout(of: root).collections.map(Self.describe) == expected)
        #expect(RecordLayout(of: root).rule.name == rule)
    }

    /// Every layout rule has a case above.
    @Test func everyLayoutRuleHasACase() {
        #expect(Set(RecordLayout.rules.map(\.rule.name)) == Set(Self.cases.map(\.2)))
    }

    /// An object of more keys than a record has is data: records keyed by id (found, however
    /// many) or values; no array under it is taken for a page.
    @Test func wideObjectsAreData() throws {
        let records = (0..<200).map { #""k\#($0)": {"n": \#($0), "tags": [{"t": 1}]}"# }
        #expect(try Self.layout(#"{"users": {\#(records.joined(separator: ", "))}}"#) == ["users keyed 200"])
        #expect(try Self.layout("{\(records.joined(separator: ", "))}") == [" keyed 200"])
        let fields = (0..<70).map { #""f\#($0)": \#($0)"# }
        let wide = #"{\#(fields.joined(separator: ", ")), "items": [{"a": 1}]}"#
        #expect(try Self.layout(wide) == [])
        #expect(RecordLayout(of: try JSONDocument(parsing: Array(wide.utf8)).root).collections == [])
    }

    /// The reader's events for the outer levels: objects and arrays streamed, array elements and
    /// values past the depth read whole.
    @Test func structureEvents() throws {
        let reader = JSONReader(source: MemoryByteSource(#"{"a": [{"x": {"y": 1}}, 2], "b": {"c": {"d": [1]}, "e": null}}"#), blockSize: 4)
        var events: [String] = []
        try reader.forEachStructure(streamingDepth: 2) { event in
            switch event {
            case .objectStart: events.append("{")
            case let .key(key): events.append(key + ":")
            case .objectEnd: events.append("}")
            case .arrayStart: events.append("[")
            case .arrayEnd: events.append("]")
            case let .value(kind): events.append("\(kind)")
            }
        }
        #expect(events == ["{", "a:", "[", "object", "number", "]", "b:", "{", "c:", "object", "e:", "null", "}", "}"])
    }

    @Test func structureErrorsAreLocated() {
        let reader = JSONReader(source: MemoryByteSource(#"{"a": {"b": [1, 2,]}}"#), blockSize: 4)
        #expect(throws: JSONSyntaxError(offset: 17, message: "trailing comma")) {
            try reader.forEachStructure(streamingDepth: 4) { _ in }
        }
        let trailing = JSONReader(source: MemoryByteSource(#"{"a": 1} x"#))
        #expect(throws: JSONSyntaxError(offset: 9, message: "unexpected 'x' after the JSON value")) {
            try trailing.forEachStructure(streamingDepth: 4) { _ in }
        }
    }

    /// The first byte of the document, past a byte-order mark and whitespace; `nil` for none.
    @Test func firstByte() throws {
        #expect(try JSONReader.firstByte(of: MemoryByteSource("\u{FEFF}  \n\t{}")) == UInt8(ascii: "{"))
        #expect(try JSONReader.firstByte(of: MemoryByteSource(String(repeating: " ", count: 10_000) + "[")) == UInt8(ascii: "["))
        #expect(try JSONReader.firstByte(of: MemoryByteSource("")) == nil)
        #expect(try JSONReader.firstByte(of: MemoryByteSource(" \n ")) == nil)
        #expect(try JSONReader.firstByte(of: MemoryByteSource("\u{FEFF}")) == nil)
    }
}
