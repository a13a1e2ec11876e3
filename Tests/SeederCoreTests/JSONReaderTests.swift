import Testing

@testable import SeederCore

/// The streaming reader: key paths, formats, records one at a time, block boundaries.
struct JSONReaderTests {
    /// What a read produced, in a form tests compare: records as their text, other items named.
    static func read(
        _ text: String, format: DumpFormat = .json, keyPath: [String] = [], keyed: Bool = false, blockSize: Int = 1 << 20
    ) throws -> [String] {
        let reader = JSONReader(source: MemoryByteSource(text), format: format, keyPath: keyPath, keyed: keyed, blockSize: blockSize)
        var items: [String] = []
        try reader.forEachItem { item in
            switch item {
            case let .record(value):
                items.append("\(value.pointer) \(String(decoding: value.document.bytes, as: UTF8.self))@\(value.fileOffset)")
            case let .skippedNull(offset, pointer):
                items.append("null \(pointer)@\(offset)")
            case let .keyedRecord(key, value):
                let text = String(decoding: value.document.bytes, as: UTF8.self)
                items.append("\(key.string ?? "?") \(key.pointer)@\(key.fileOffset) \(value.pointer) \(text)@\(value.fileOffset)")
            case let .notARecord(value):
                items.append("not a record \(value.kind) \(value.pointer)@\(value.fileOffset)")
            case let .keyPathNotFound(offset, pointer, key):
                items.append("no '\(key)' \(pointer)@\(offset)")
            case let .lineSyntaxError(error):
                items.append("syntax error: \(error.message)@\(error.offset)")
            }
        }
        return items
    }

    @Test func writesPointersWithRFC6901Escapes() {
        let pointer = JSONPointer([.key("data"), .key("a/b"), .key("m~n"), .key("~1"), .index(3), .key("é/~")])
        #expect(pointer.description == "/data/a~1b/m~0n/~01/3/é~1~0")
        #expect(JSONPointer().description == "")
        #expect(JSONPointer([.index(0), .index(9), .index(10), .index(1234567), .key("")]).description == "/0/9/10/1234567/")
    }

    @Test func readsAnArrayOfRecords() throws {
        let items = try Self.read(#"[{"id":1}, {"id":2} ,null, 3]"#)
        #expect(items == ["/0 {\"id\":1}@1", "/1 {\"id\":2}@11", "null /2@21", "not a record number /3@27"])
    }

    /// The reader parses the next record into the last one's document once nothing else holds
    /// it: a record kept keeps its own document, text, offset and pointer, and one let go lends
    /// its document to the next.
    @Test func recyclesADocumentOnlyWhenNothingHoldsIt() throws {
        let text = #"[{"id":1,"name":"a"}, {"id":2,"name":"bb"}, {"id":3,"name":"ccc"}, {"id":4,"name":"dddd"}]"#
        var kept: [JSONValue] = []
        var letGo: [ObjectIdentifier] = []
        try JSONReader(source: MemoryByteSource(text), blockSize: 16).forEachItem { item in
            guard case let .record(value) = item else { return }
            if let id = value["id"]?.numberText.flatMap({ Int($0) }), id % 2 == 1 {
                kept.append(value)
            } else {
                letGo.append(ObjectIdentifier(value.document))
            }
        }
        #expect(kept.map { "\($0.pointer) \($0["name"]?.string ?? "-")@\($0.fileOffset)" } == ["/0 a@1", "/2 ccc@44"])
        #expect(kept.map { String(decoding: $0.document.bytes, as: UTF8.self) } == [#"{"id":1,"name":"a"}"#, #"{"id":3,"name":"ccc"}"#])
        #expect(ObjectIdentifier(kept[0].document) != ObjectIdentifier(kept[1].document))
        // Record 2's document, let go, was parsed into again for record 3, which kept it.
        #expect(letGo.count == 2 && letGo[0] == ObjectIdentifier(kept[1].document))
    }

    @Test func readsOneObjectAsOneRecord() throws {
        #expect(try Self.read(#" {"id": 1} "#) == ["/ {\"id\": 1}@1".replacingOccurrences(of: "/ ", with: " ")])
    }

    @Test func followsAKeyPathIntoWrappedPages() throws {
        let page = #"{"code": 200, "data": {"offset": 0, "results": [{"id": 1}, {"id": 2}], "total": 2}, "etag": "x"}"#
        let items = try Self.read(page, keyPath: ["data", "results"])
        #expect(items == ["/data/results/0 {\"id\": 1}@48", "/data/results/1 {\"id\": 2}@59"])
    }

    @Test func appliesAKeyPathToEveryElementOfAnArray() throws {
        let text = #"[{"project": {"id": 1}}, {"project": {"id": 2}, "other": [1, {"x": 2}]}, {"project": null}]"#
        let items = try Self.read(text, keyPath: ["project"])
        let second = offset(of: #"{"id": 2}"#, in: text)
        let null = offset(of: "null", in: text)
        #expect(items == ["/0/project {\"id\": 1}@13", "/1/project {\"id\": 2}@\(second)", "null /2/project@\(null)"])
    }

    @Test func reportsAKeyPathThatFindsNothing() throws {
        let items = try Self.read(#"[{"project": {"id": 1}}, {"task": {}}, 7]"#, keyPath: ["project"])
        #expect(items == ["/0/project {\"id\": 1}@13", "no 'project' /1@25", "no 'project' /2@39"])
    }

    /// `keyedBy`: each member of the object reached is a record, its key a value of its own
    /// (at the key, with the member's pointer); an array's elements are each such an object.
    @Test(arguments: [1, 3, 16, 1 << 20])
    func readsObjectsWhoseKeysAreRecords(blockSize: Int) throws {
        let text = #"{"users": {"b\u006cake": {"id": 1}, "rachit": null, "jeff": 5, "x": {}}, "meta": {"a": {}}}"#
        let items = try Self.read(text, keyPath: ["users"], keyed: true, blockSize: blockSize)
        #expect(
            items == [
                "blake /users/blake@11 /users/blake {\"id\": 1}@25", "null /users/rachit@46", "jeff /users/jeff@52 /users/jeff 5@60",
                "x /users/x@63 /users/x {}@68",
            ])
        let array = try Self.read(#"[{"a": {}}, {}, 3, {"b": {"c": 1}}]"#, keyed: true, blockSize: blockSize)
        #expect(array == ["a /0/a@2 /0/a {}@7", "not a record number /2@16", "b /3/b@20 /3/b {\"c\": 1}@25"])
        #expect(try Self.read(#"{"a": {}} "#, keyPath: ["a"], keyed: true, blockSize: blockSize) == [])
        #expect(throws: JSONSyntaxError.self) { try Self.read(#"{"a": {}, "a": {}}"#, keyed: true, blockSize: blockSize) }
    }

    @Test func readsJSONLines() throws {
        let text = "{\"id\":1}\n\n  \r\n{\"id\":2}\r\n[{\"id\":3},{\"id\":4}]\nnull\n{\"id\":5}"
        let items = try Self.read(text, format: .jsonLines)
        #expect(
            items
                == [
                    "/ {\"id\":1}@0", "/ {\"id\":2}@14", "/0 {\"id\":3}@25", "/1 {\"id\":4}@34", "null @44",
                    "/ {\"id\":5}@49",
                ].map { $0.replacingOccurrences(of: "/ ", with: " ") })
    }

    @Test func rejectsAJSONLinesValueThatSpansLines() throws {
        let items = try Self.read("{\"id\":1,\n\"name\":\"x\"}\n", format: .jsonLines)
        #expect(
            items == [
                "syntax error: unexpected end of input after ','@8", "not a record string @9",
                "syntax error: unexpected ':' after the value on this line@15",
            ], "\(items)")
        #expect(
            try Self.read("{\"id\":1} {\"id\":2}\n", format: .jsonLines) == [
                " {\"id\":1}@0", "syntax error: unexpected '{' after the value on this line@9",
            ])
    }

    /// A line feed ends every JSON Lines value: after a line that is not JSON, the next line
    /// is read, whatever the block size (the line may straddle refills).
    @Test func goesOnWithTheNextLineAfterASyntaxError() throws {
        let text = "{\"id\":1}\n{\"id\":2,,}\n{\"id\":3}\n{\"id\" 4}\n\"unterminated\n{\"id\":5}"
        let expected = [
            " {\"id\":1}@0", "syntax error: unexpected ',', expected a string key@17", " {\"id\":3}@20",
            "syntax error: unexpected '4', expected ':' after the key@35", "syntax error: unterminated string@38",
            " {\"id\":5}@52",
        ]
        for blockSize in [1, 3, 7, 1 << 20] {
            let items = try Self.read(text, format: .jsonLines, blockSize: blockSize)
            #expect(items == expected, "block size \(blockSize): \(items)")
        }
    }

    @Test func reportsSyntaxErrorsWithTheirFileOffset() {
        #expect(throws: JSONSyntaxError(offset: 19, message: "trailing comma")) {
            try Self.read(#"{"data": [{"id": 1},]}"#, keyPath: ["data"])
        }
        #expect(throws: JSONSyntaxError(offset: 13, message: "duplicate key \"data\" in object")) {
            try Self.read(#"{"data": [], "data": []}"#, keyPath: ["data"])
        }
        #expect(throws: JSONSyntaxError(offset: 0, message: "the file holds no JSON value")) {
            try Self.read("  \n")
        }
        #expect(throws: JSONSyntaxError(offset: 12, message: "unexpected '{' after the JSON value")) {
            try Self.read(#"[{"id": 1}] {"#)
        }
    }

    @Test func refusesDeepNestingAlongTheKeyPath() {
        let deep = String(repeating: "[", count: 600)
        #expect(throws: JSONSyntaxError(offset: 512, message: "nesting deeper than 512 levels")) {
            try Self.read(deep, keyPath: ["x"])
        }
        #expect(throws: JSONSyntaxError(offset: 512, message: "nesting deeper than 512 levels")) {
            try Self.read(deep)
        }
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try Self.read("\u{FEFF}[{\"id\":1}]") == ["/0 {\"id\":1}@4"])
    }

    /// A first block shorter than the mark's three bytes (found by fuzz-json).
    @Test(arguments: [DumpFormat.json, .jsonLines])
    func skipsAByteOrderMarkSplitAcrossBlocks(_ format: DumpFormat) throws {
        for blockSize in 1...3 {
            #expect(try Self.read("\u{FEFF}[{\"id\":1}]", format: format, blockSize: blockSize) == ["/0 {\"id\":1}@4"])
        }
    }

    /// Errors found after a refill point at the offending byte in the file, not where it sat in
    /// the block before the refill moved it (found by fuzz-json).
    @Test func locatesErrorsFoundAfterARefill() {
        for blockSize in [1, 2, 5, 16, 1 << 20] {
            #expect(throws: JSONSyntaxError(offset: 9, message: "duplicate key \"a\" in object"), "block size \(blockSize)") {
                try Self.read(#"{"a": 1, "\u0061": 2}"#, keyPath: ["a"], blockSize: blockSize)
            }
            #expect(throws: JSONSyntaxError(offset: 19, message: "trailing comma"), "block size \(blockSize)") {
                try Self.read(#"{"data": [{"id": 1},        ]}"#, keyPath: ["data"], blockSize: blockSize)
            }
        }
    }

    static let boundaryInputs: [(String, DumpFormat, [String])] = [
        (
            #"[{"id": 1, "name": "Ünïcødé 😀 \u00e9\uD83D\uDE00", "n": -12.5e-3, "t": true, "f": false, "z": null}, {"id": 2, "tags": [1, [2, {}], "x"]}]"#,
            .json, []
        ),
        (#"{"number_of_pages": 2, "result": [{"id": 1, "s": "a\"b"}, null, {"id": 2}], "after": {"deep": [[[1]]]}}"#, .json, ["result"]),
        (#"[{"project": {"id": 10, "tasks": [{"id": 1}]}}, {"project": {"id": 11}}]"#, .json, ["project"]),
        ("{\"id\": 1, \"name\": \"one\"}\n{\"id\": 2}\n\n{\"id\": 3, \"x\": [1,2,3]}\n", .jsonLines, []),
        (#"[{"id": 1}, {"id": 2, "bad": [1,]}]"#, .json, []),
        (#"{"data": {"results": [{"id": 1}, {"id": 2}]}, "data2": 12345678901234567890}"#, .json, ["data", "results"]),
    ]

    /// Every input read with blocks of 1 to 19 bytes gives exactly what one large block gives:
    /// refills may fall anywhere, inside a string, a number, an escape, a UTF-8 sequence.
    @Test(arguments: boundaryInputs)
    func givesTheSameResultWhateverTheBlockSize(_ text: String, _ format: DumpFormat, _ keyPath: [String]) {
        let expected = Result { try Self.read(text, format: format, keyPath: keyPath) }
        for blockSize in 1..<20 {
            let actual = Result { try Self.read(text, format: format, keyPath: keyPath, blockSize: blockSize) }
            #expect(String(describing: actual) == String(describing: expected), "block size \(blockSize)")
        }
    }

    /// An unexpected character is named whole even when a block ends inside its UTF-8 bytes,
    /// in the reader's own messages and in the parser's (found by fuzz-json).
    @Test func namesACharacterCutByABlocksEnd() {
        let cases: [(String, Int, String)] = [
            ("[{\"id\": 1} \u{201C}x\u{201D}]", 11, "unexpected '\u{201C}', expected ',' or ']'"),
            ("[{\"id\": \u{201C}x\u{201D}}]", 8, "unexpected '\u{201C}', expected a value"),
            ("\u{FEFF}\u{FEFF}[1]", 3, "unexpected '\u{FEFF}', expected a value"),
            ("[{\"a\": \"\\\u{E9}\"}]", 8, "invalid escape '\\\u{E9}'"),
        ]
        for (text, offset, message) in cases {
            for blockSize in [1, 2, 3, 9, 10, 1 << 20] {
                #expect(throws: JSONSyntaxError(offset: offset, message: message), "block size \(blockSize)") {
                    try Self.read(text, blockSize: blockSize)
                }
            }
        }
    }

    @Test func readsAFileRecordByRecordInFlatMemory() throws {
        // 20,000 records through a 4 KiB block: the buffer never grows past the largest record.
        let record = #"{"id": 0, "name": "a name", "summary": "some text that takes a little space"}"#
        let text = "[" + Array(repeating: record, count: 20_000).joined(separator: ",\n") + "]"
        let reader = JSONReader(source: MemoryByteSource(text), keyPath: [], blockSize: 4096)
        var count = 0
        try reader.forEachItem { item in
            if case let .record(value) = item {
                #expect(value.document.bytes.count == record.utf8.count)
                count += 1
            }
        }
        #expect(count == 20_000)
    }

    @Test func readsAFileFromDisk() throws {
        let path = "/tmp/seeder-reader-test-\(getpid()).json"
        let text = #"{"result": [{"id": 1}, {"id": 2}]}"#
        try Array(text.utf8).write(to: path)
        defer { unlink(path) }
        let reader = JSONReader(source: try FileByteSource(path: path), keyPath: ["result"])
        var ids: [String] = []
        try reader.forEachItem { item in
            if case let .record(value) = item { ids.append(value["id"]?.numberText ?? "") }
        }
        #expect(ids == ["1", "2"])
        #expect(throws: InputError.self) { try FileByteSource(path: path + ".missing") }
    }
}
