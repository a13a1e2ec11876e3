import Testing

@testable import SeederCore

/// A record whose identity cannot be read is reported once: by its identity value's own error
/// when it had one, else as a missing identity attribute.
struct MapperIdentityMessageTests {
    static let mapping = """
        seeder: 1
        entities:
          Item:
            identity: [kind, code]
            attributes:
              kind: { type: string, values: [book, disc] }
              code: integer
              title: string
          Box:
            identity: size
            attributes:
              size: { type: integer, from: "items.@count" }
        """

    @Test func anIdentityValuesOwnErrorIsTheOnlyMessage() throws {
        let json = """
            [{"kind": "tape", "code": 1}, {"kind": "book", "code": "x"}, {"kind": "book", "code": null},
             {"kind": null, "code": 2}, {"kind": "disc", "title": "no code"}]
            """
        let (records, diagnostics, _) = try mapRecords(Self.mapping, json, entity: "Item")
        #expect(records.isEmpty)
        #expect(
            diagnostics == [
                #"dump.json:1:11: error: Item: 'kind' is "tape", expected one of "book", "disc"  [/0/kind]"#,
                #"dump.json:1:56: error: Item: 'code' is "x", expected integer  [/1/code]"#,
                #"dump.json:1:87: error: Item: 'code' is null, but it is required  [/2/code]"#,
                #"dump.json:2:11: error: Item: 'kind' is null, but it is required  [/3/kind]"#,
                #"dump.json:2:29: error: Item: missing identity attribute 'code'  [/4]"#,
            ])
    }

    /// A key path's error names the key path, not the attribute: the identity is still reported
    /// missing.
    @Test func aKeyPathErrorLeavesTheIdentityReportedMissing() throws {
        let (records, diagnostics, _) = try mapRecords(Self.mapping, #"[{"items": {"a": 1}}]"#, entity: "Box")
        #expect(records.isEmpty)
        #expect(
            diagnostics == [
                "dump.json:1:12: error: Box: 'items.@count': '@count' needs an array, found an object  [/0/items]",
                "dump.json:1:2: error: Box: missing identity attribute 'size'  [/0]",
            ])
    }
}
