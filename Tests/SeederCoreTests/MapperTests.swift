import SeederTestSupport
import Testing

@testable import SeederCore

/// Maps every record of `json` (an array of records, or one) with `mapping` as `entity`,
/// resolving byte offsets to lines and columns for the diagnostics.
func mapRecords(_ yaml: String, _ json: String, entity: String) throws -> (records: [Record], diagnostics: [String], mapper: Mapper) {
    let sink = DiagnosticSink()
    let mapping = try validMapping(yaml)
    let mapper = Mapper(mapping: mapping)
    let entityIndex = try #require(mapping.entityIndex(named: entity))
    var records: [Record] = []
    try JSONReader(source: MemoryByteSource(json)).forEachItem { item in
        if case let .record(value) = item {
            records += mapper.records(from: value, entity: entityIndex, file: "dump.json", diagnostics: sink)
        }
    }
    sink.resolveOffsets { _ in MemoryByteSource(json) }
    return (records, sink.diagnostics.map(\.description), mapper)
}

/// A record's fields as `column=value` text, absent fields left out.
func describeFields(_ record: Record, _ mapper: Mapper) -> String {
    let entity = mapper.mapping.entities[record.entity]
    return zip(entity.attributes, record.fields).compactMap { attribute, field in
        guard case let .value(value) = field.value else { return nil }
        return "\(attribute.name)=\(value)"
    }.joined(separator: " ")
}

struct MapperTests {
    static let accounts = """
        seeder: 1
        entities:
          Account:
            attributes:
              id: integer
              name: string
              transactionCount: { type: integer, from: "transactions.@count" }
              total: { type: decimal, from: "transactions.@sum.amount" }
              averageAmount: { type: decimal, from: "transactions.@avg.amount" }
              smallest: { type: decimal, from: "transactions.@min.amount" }
              largest: { type: decimal, from: "transactions.@max.amount" }
              firstPayee: { type: string, from: "transactions.@min.payee" }
              payees: { type: json, from: "transactions.@distinctUnionOfObjects.payee" }
              allPayees: { type: json, from: "transactions.@unionOfObjects.payee" }
              amounts: { type: json, from: transactions.amount }
              image: { type: url, from: [links, "image.url"] }
        """

    /// A key path's first key is found once per key layout, exactly as spelled (a name folds
    /// case and underscores; a key path does not), beside an attribute that reads the same member.
    @Test func keyPathsStartFromTheirFirstKeysMember() throws {
        let yaml = """
            seeder: 1
            entities:
              Hero:
                attributes:
                  id: integer
                  thumbnail: json
                  thumbnailPath: { type: string, from: thumbnail.path }
                  count: { type: integer, from: "thumbnail.sizes.@count" }
            """
        let json = """
            [{"id": 1, "thumbnail": {"path": "a", "sizes": [1, 2]}},
             {"thumbnail": {"path": "b"}, "id": 2},
             {"id": 3, "Thumbnail": {"path": "c"}},
             {"id": 4, "thumbnail": null},
             {"id": 5, "thumbnail": [{"path": "d"}, {"path": "e"}]}]
            """
        let (records, diagnostics, mapper) = try mapRecords(yaml, json, entity: "Hero")
        #expect(
            diagnostics == [
                "dump.json:5:2: error: Hero 5: 'thumbnailPath' is a list of 2 values, which only a json attribute can store  [/4]"
            ])
        #expect(
            records.map { describeFields($0, mapper) } == [
                #"id=1 thumbnail="{\"path\":\"a\",\"sizes\":[1,2]}" thumbnailPath="a" count=2"#,
                #"id=2 thumbnail="{\"path\":\"b\"}" thumbnailPath="b""#,
                #"id=3 thumbnail="{\"path\":\"c\"}""#,
                "id=4 thumbnail=null thumbnailPath=null count=null",
                #"id=5 thumbnail="[{\"path\":\"d\"},{\"path\":\"e\"}]" count=2"#,
            ])
    }

    @Test func evaluatesKeyPathsAndCollectionOperators() throws {
        let json = """
            [{"id": 1, "name": "Checking", "links": {"image.url": "https://x.test/1.png"}, "transactions": [
              {"amount": "12.50", "payee": "Grocer"}, {"amount": 100, "payee": "Landlord"},
              {"amount": null, "payee": "Grocer"}, {"amount": -2.25, "payee": "Bank"}]},
             {"id": 2, "name": "Empty", "transactions": []},
             {"id": 3, "name": "No key"}]
            """
        let (records, diagnostics, mapper) = try mapRecords(Self.accounts, json, entity: "Account")
        #expect(diagnostics == [])
        #expect(
            records.map { describeFields($0, mapper) } == [
                #"id=1 name="Checking" transactionCount=4 total="110.25" averageAmount="36.75" smallest="-2.25" largest="100" firstPayee="Bank" payees="[\"Grocer\",\"Landlord\",\"Bank\"]" allPayees="[\"Grocer\",\"Landlord\",\"Grocer\",\"Bank\"]" amounts="[\"12.50\",100,null,-2.25]" image="https://x.test/1.png""#,
                #"id=2 name="Empty" transactionCount=0 total="0" averageAmount=null smallest=null largest=null firstPayee=null payees="[]" allPayees="[]" amounts="[]""#,
                #"id=3 name="No key""#,
            ])
    }

    @Test func reportsOperatorsOnValuesTheyCannotUse() throws {
        let json = #"[{"id": 1, "name": "x", "transactions": [{"amount": "lots", "payee": "A"}]}, {"id": 2, "transactions": 5}]"#
        let (_, diagnostics, _) = try mapRecords(Self.accounts, json, entity: "Account")
        #expect(
            diagnostics.prefix(5) == [
                #"dump.json:1:53: error: Account 1: 'transactions.@sum.amount': '@sum.amount' needs numbers, found "lots"  [/0/transactions/0/amount]"#,
                #"dump.json:1:53: error: Account 1: 'transactions.@avg.amount': '@avg.amount' needs numbers, found "lots"  [/0/transactions/0/amount]"#,
                // The least of one string is that string, which is no decimal.
                #"dump.json:1:53: error: Account 1: 'smallest' is "lots", expected decimal  [/0/transactions/0/amount]"#,
                #"dump.json:1:53: error: Account 1: 'largest' is "lots", expected decimal  [/0/transactions/0/amount]"#,
                #"dump.json:1:104: error: Account 2: 'transactions.@count': '@count' needs an array, found a number  [/1/transactions]"#,
            ])
        #expect(diagnostics.count == 12)
    }

    static let names = """
        seeder: 1
        entities:
          Article:
            attributes:
              id: integer
              bodyText: string
              createdAt: { type: date, format: "yyyy-MM-dd'T'HH:mm:ssZ" }
        """

    @Test func readsKeysIgnoringCaseAndUnderscoresWithExactMatchesFirst() throws {
        let json = """
            [{"id": 1, "body_text": "snake", "created_at": "2011-07-10T09:51:03-0700"},
             {"ID": 2, "BodyText": "pascal"},
             {"id": 3, "body_text": "loose", "bodyText": "exact", "extra": 1, "more": 2},
             {"id": 4, "body_text": "snake again", "created_at": "2011-07-10T09:51:03-0700"}]
            """
        let (records, diagnostics, mapper) = try mapRecords(Self.names, json, entity: "Article")
        #expect(diagnostics == [])
        #expect(
            records.map { describeFields($0, mapper) } == [
                #"id=1 bodyText="snake" createdAt="2011-07-10T16:51:03.000Z""#,
                #"id=2 bodyText="pascal""#,
                #"id=3 bodyText="exact""#,
                #"id=4 bodyText="snake again" createdAt="2011-07-10T16:51:03.000Z""#,
            ])
        #expect(mapper.unmappedKeys(of: 0) == ["body_text", "extra", "more"])
    }

    static let tasklist = MappingLoaderTests.tasklist

    @Test func mapsEmbeddedRecordsAndIdentityReferences() throws {
        let json = """
            [{"project": {"id": 123, "name": "Seeder", "user": {"id": 1, "name": "Blake"},
              "tasks": [{"id": 1, "name": "Read the spec", "assigned_user_id": 1},
                        {"id": 2, "name": "Write it", "assigned_user_id": "2"}]}},
             {"project": {"id": 124, "name": "Stub", "user": {"id": 1}, "tasks": [], "user_id": 7}}]
            """
        let sink = DiagnosticSink()
        let mapping = try validMapping(Self.tasklist)
        let mapper = Mapper(mapping: mapping)
        var batches: [[Record]] = []
        try JSONReader(source: MemoryByteSource(json), keyPath: ["project"]).forEachItem { item in
            if case let .record(value) = item {
                batches.append(mapper.records(from: value, entity: 1, file: "task_list.json", diagnostics: sink))
            }
        }
        #expect(sink.diagnostics.isEmpty)
        let first = batches[0]
        #expect(
            first.map { mapping.entities[$0.entity].name + " " + ($0.identity?.description ?? "-") } == [
                "Project 123", "User 1", "Task 1", "Task 2",
            ])
        #expect(describeFields(first[0], mapper) == #"id=123 name="Seeder" taskCount=2"#)
        #expect(first[0].links == [.one(.embedded(1)), .many([.embedded(2), .embedded(3)])])
        #expect(first[2].links == [.absent, .one(.identity(IdentityKey([.integer(1)]), offset: first[2].links.offsetOfReference))])
        #expect(first[3].links[1].identityOfReference == IdentityKey([.integer(2)]))
        // Each embedded record stands where its object does.
        let bytes = Array(json.utf8)
        let opening = { (record: Record) in String(decoding: bytes[record.origin.offset...].prefix(9), as: UTF8.self) }
        #expect(first.map(opening) == [#"{"id": 12"#, #"{"id": 1,"#, #"{"id": 1,"#, #"{"id": 2,"#])
        #expect(first[1].origin.offset < first[2].origin.offset)
        // `{"id": 1}` holds only the identity: a reference, not a second User record.
        let second = batches[1]
        #expect(second.count == 1)
        #expect(second[0].links[0].identityOfReference == IdentityKey([.integer(1)]))
        #expect(second[0].links[1] == .many([]))

        // Mapped onto the end of one array, as the reading thread maps a chunk (here the second
        // project first), each batch is the same, its links counting from its own first record.
        var values: [JSONValue] = []
        try JSONReader(source: MemoryByteSource(json), keyPath: ["project"]).forEachItem { item in
            if case let .record(value) = item { values.append(value) }
        }
        var chunk: [Record] = []
        let sizes = values.reversed().map {
            mapper.records(from: $0, entity: 1, file: "task_list.json", diagnostics: sink, appendingTo: &chunk)
        }
        #expect(sizes == [1, 4])
        let describe = { (record: Record) in
            "\(record.entity) \(record.identity?.description ?? "-") \(record.links) \(record.origin.offset)"
        }
        #expect(chunk.map(describe) == (second + first).map(describe))
        #expect(chunk[1].links[1] == .many([.embedded(2), .embedded(3)]))
    }

    static let catalog = """
        seeder: 1
        entities:
          Product:
            attributes: { id: integer, name: string }
            relationships:
              category: { to: Category }
              relatedPeople: { to: Person, many: true }
              children: { to: Child, many: true }
          Category:
            attributes: { id: integer }
          Person:
            attributes: { id: integer }
          Child:
            attributes: { id: integer }
        """

    @Test func followsTheIdConventions() throws {
        let json = #"[{"id": 1, "categoryId": 5, "related_person_ids": [1, "2"], "childIds": [3]}, {"id": 2, "CATEGORY_ID": 6}]"#
        let (records, diagnostics, _) = try mapRecords(Self.catalog, json, entity: "Product")
        #expect(diagnostics == [])
        #expect(records[0].links[0].identityOfReference == IdentityKey([.integer(5)]))
        #expect(records[0].links[1].identitiesOfReferences == [IdentityKey([.integer(1)]), IdentityKey([.integer(2)])])
        #expect(records[0].links[2].identitiesOfReferences == [IdentityKey([.integer(3)])])
        #expect(records[1].links[0].identityOfReference == IdentityKey([.integer(6)]))
        #expect(records[1].links[1] == .absent)
    }

    /// After Converge's `<singular>_ids`, a to-many reads Sync's `<name>_ids` / `<name>Ids`; the
    /// singular's key wins when a record has both, and the one not read stays unmapped.
    @Test func followsSyncsIdConventionAfterConverges() throws {
        let yaml = """
            seeder: 1
            entities:
              Board:
                attributes: { id: integer }
                relationships:
                  notes: { to: Note, many: true }
              Note:
                attributes: { id: integer }
            """
        let read = #"[{"id": 1, "notes_ids": [1, "2"]}, {"id": 2, "NotesIds": [3]}]"#
        let (records, diagnostics, mapper) = try mapRecords(yaml, read, entity: "Board")
        #expect(diagnostics == [])
        #expect(records.map(\.links[0].identitiesOfReferences) == [[1, 2], [3]].map { $0.map { IdentityKey([.integer($0)]) } })
        #expect(mapper.unmappedKeys(of: 0) == [])
        // Found: no warning about `notes`, only about the notes no record gave.
        let sink = DiagnosticSink()
        mapper.reportCoverage(to: sink)
        #expect(sink.diagnostics.map(\.description) == ["mapping.yaml:7:3: warning: Note got no record from any source"])
        let both = #"[{"id": 1, "note_ids": [4], "notes_ids": [5]}, {"id": 2, "notes": [6], "notes_ids": [7]}]"#
        let (first, _, bothMapper) = try mapRecords(yaml, both, entity: "Board")
        #expect(first.map(\.links[0].identitiesOfReferences) == [[4], [6]].map { $0.map { IdentityKey([.integer($0)]) } })
        #expect(bothMapper.unmappedKeys(of: 0) == ["notes_ids"])
    }

    /// An object holding only the identity is a record of a target that declares no other
    /// attribute (relationships do not count), and a reference to a target that declares one.
    @Test func takesAnIdentityOnlyObjectForARecordOfATargetThatHoldsNothingElse() throws {
        let yaml = """
            seeder: 1
            entities:
              Post:
                attributes: { id: integer }
                relationships:
                  author: { to: Author }
                  tags: { to: Tag, many: true }
                  editor: { to: Editor }
                  cards: { to: Card, many: true }
              Author:
                identity: name
                attributes: { name: string }
              Tag:
                identity: slug
                attributes: { slug: string, label: string }
              Editor:
                identity: name
                attributes: { name: string }
                relationships:
                  posts: { to: Post, many: true, inverse: editor }
              Card:
                identity: [suit, rank]
                attributes: { suit: string, rank: integer }
            """
        let json = """
            [{"id": 1, "author": {"name": "Blake"}, "tags": [{"slug": "a"}], "editor": {"name": "Ann"},
              "cards": [{"rank": 3, "suit": "h"}, ["s", 1]]}]
            """
        let (records, diagnostics, _) = try mapRecords(yaml, json, entity: "Post")
        #expect(diagnostics == [])
        try #require(records.map(\.entity) == [0, 1, 3, 4])
        #expect(records[1].identity == IdentityKey([.text("Blake")]))
        #expect(records[2].identity == IdentityKey([.text("Ann")]))
        #expect(records[3].identity == IdentityKey([.text("h"), .integer(3)]))
        #expect(records[0].links[0] == .one(.embedded(1)))
        #expect(records[0].links[1].identitiesOfReferences == [IdentityKey([.text("a")])])
        #expect(records[0].links[2] == .one(.embedded(2)))
        #expect(records[0].links[3].identitiesOfReferences == [IdentityKey([.text("s"), .integer(1)])])
        guard case let .many(cards) = records[0].links[3] else { return #expect(Bool(false)) }
        #expect(cards.first == .embedded(3))
    }

    @Test func reportsEveryDataProblemWithItsLocationAndPath() throws {
        let json = """
            [{"project": {"id": 7, "name": "A", "tasks": [{"id": "7a", "name": "bad id"}, {"name": "no id"},
              {"id": 9, "name": ["x"], "assigned_user_id": {"id": "u"}}]}},
             {"project": {"id": 8, "user": [1], "tasks": {"id": 1}}}]
            """
        let sink = DiagnosticSink()
        let mapping = try validMapping(Self.tasklist)
        let mapper = Mapper(mapping: mapping)
        try JSONReader(source: MemoryByteSource(json), keyPath: ["project"]).forEachItem { item in
            if case let .record(value) = item { _ = mapper.records(from: value, entity: 1, file: "task_list.json", diagnostics: sink) }
        }
        sink.resolveOffsets { _ in MemoryByteSource(json) }
        #expect(
            sink.diagnostics.map(\.description) == [
                #"task_list.json:1:54: error: Task: 'id' is "7a", expected integer  [/0/project/tasks/0/id]"#,
                #"task_list.json:1:79: error: Task: missing identity attribute 'id'  [/0/project/tasks/1]"#,
                #"task_list.json:2:21: error: Task 9: 'name' is ["x"], expected string  [/0/project/tasks/2/name]"#,
                #"task_list.json:2:55: error: Task 9: 'assignedUser' is "u", expected integer (an id of User)  [/0/project/tasks/2/assigned_user_id/id]"#,
                #"task_list.json:3:46: error: Project 8: 'tasks.@count': '@count' needs an array, found an object  [/1/project/tasks]"#,
                #"task_list.json:3:32: error: Project 8: 'user' is [1], expected integer (an id of User)  [/1/project/user]"#,
                #"task_list.json:3:46: error: Project 8: 'tasks' is a to-many; expected an array, found an object  [/1/project/tasks]"#,
            ])
    }

    @Test func refersByIdentityKeysReadThroughAKeyPath() throws {
        let yaml = """
            seeder: 1
            entities:
              Post:
                attributes: { id: integer }
                relationships:
                  author: { to: Author }
              Author:
                identity: handle
                attributes: { handle: { type: string, from: login }, name: string }
            """
        let (records, diagnostics, _) = try mapRecords(yaml, #"{"id": 1, "author": {"login": "ann"}}"#, entity: "Post")
        #expect(diagnostics == [])
        #expect(records.count == 1)
        #expect(records[0].links[0].identityOfReference == IdentityKey([.text("ann")]))
    }

    static let rules = """
        seeder: 1
        entities:
          Item:
            nulls: absent
            attributes:
              id: integer
              status: { type: string, values: [open, closed] }
              note: string
          Strict:
            attributes:
              id: integer
              name: { type: string, required: true }
          Line:
            identity: none
            attributes: { text: string }
          Owner:
            attributes: { id: integer }
            relationships:
              lines: { to: Line, many: true }
              line: { to: Line }
        """

    @Test func keepsAbsentAndNullApartAndChecksValues() throws {
        let (records, diagnostics, _) = try mapRecords(
            Self.rules, #"[{"id": 1, "status": "open", "note": null}, {"id": 2, "status": "shut"}]"#, entity: "Item")
        #expect(records[0].fields.map(\.value) == [.value(.integer(1)), .value(.text("open")), .absent])
        #expect(diagnostics == [#"dump.json:1:65: error: Item 2: 'status' is "shut", expected one of "open", "closed"  [/1/status]"#])
        let strict = try mapRecords(Self.rules, #"{"id": 1, "name": null}"#, entity: "Strict")
        #expect(strict.diagnostics == [#"dump.json:1:19: error: Strict 1: 'name' is null, but it is required  [/name]"#])
        #expect(
            try mapRecords(Self.rules, #"{"id": 1}"#, entity: "Strict").records[0].fields.map(\.value) == [.value(.integer(1)), .absent])
    }

    @Test func embedsRecordsWithoutIdentityButRefusesReferencesToThem() throws {
        let (records, diagnostics, _) = try mapRecords(
            Self.rules, #"{"id": 1, "lines": [{"text": "a"}, {"text": "b"}], "line": 3}"#, entity: "Owner")
        #expect(records.count == 3)
        #expect(records[1].identity == nil && records[2].identity == nil)
        #expect(records[0].links[0] == .many([.embedded(1), .embedded(2)]))
        #expect(
            diagnostics == [
                "dump.json:1:60: error: Owner 1: 'line' refers to Line by id, but Line has 'identity: none': it can only be embedded  [/line]"
            ])
    }

    @Test func mapsDeepNestingWithoutLimitButTheReaders() throws {
        let yaml = """
            seeder: 1
            entities:
              Node:
                attributes: { id: integer }
                relationships:
                  child: { to: Node }
            """
        var json = "{\"id\": 0, \"leaf\": true}"
        for depth in 1..<400 { json = "{\"id\": \(depth), \"child\": \(json)}" }
        let (records, diagnostics, _) = try mapRecords(yaml, json, entity: "Node")
        #expect(diagnostics == [])
        #expect(records.count == 400)
        #expect(records[0].links == [.one(.embedded(1))])
        #expect(records[398].links == [.one(.embedded(399))])
    }
}

extension Link {
    var identityOfReference: IdentityKey? {
        if case let .one(.identity(key, _)) = self { return key }
        return nil
    }

    var identitiesOfReferences: [IdentityKey] {
        guard case let .many(targets) = self else { return [] }
        return targets.compactMap { if case let .identity(key, _) = $0 { return key } else { return nil } }
    }
}

extension Array where Element == Link {
    var offsetOfReference: Int {
        for link in self { if case let .one(.identity(_, offset)) = link { return offset } }
        return -1
    }
}
