import SeederTestSupport
import Testing

@testable import SeederCore

/// `@first.K`, `@last.K` and `@file.N` (docs/mapping.md, Key paths): the values they give, on
/// empty arrays, nulls and values that are not arrays, and the relationships they feed.
extension MapperTests {
    static let timeline = """
        seeder: 1
        entities:
          Feed:
            attributes:
              id: integer
              latest: { type: string, from: "statuses.@last.text" }
              oldest: { type: string, from: "statuses.@first.text" }
              firstLikes: { type: integer, from: "statuses.@first.likes" }
              lastTags: { type: json, from: "statuses.@last.tags" }
              newestGroupFirst: { type: json, from: "groups.items.@last.id" }
            relationships:
              owner: { to: User, from: "statuses.@first.user" }
              lastAuthor: { to: User, from: "statuses.@last.author_id" }
              lastTagged: { to: User, many: true, from: "statuses.@last.tagged" }
          User:
            attributes: { id: integer, name: string }
        """

    @Test func takesTheFirstOrLastElementsKey() throws {
        let json = """
            [{"id": 1, "statuses": [
                {"text": "hello", "likes": "3", "user": {"id": 7, "name": "Ann"}, "tags": ["a"]},
                {"text": "middle"},
                {"text": "bye", "author_id": 8, "tags": ["b", "c"], "tagged": [7, 9]}],
              "groups": [{"items": [{"id": 1}, {"id": 2}]}, {"items": [{"id": 3}]}]},
             {"id": 2, "statuses": []},
             {"id": 3, "statuses": null},
             {"id": 4},
             {"id": 5, "statuses": [null, {"text": null, "user": null}]},
             {"id": 6, "statuses": [{"likes": 1}]}]
            """
        let (records, diagnostics, mapper) = try mapRecords(Self.timeline, json, entity: "Feed")
        #expect(diagnostics == [])
        let feeds = records.filter { $0.entity == 0 }
        #expect(
            feeds.map { describeFields($0, mapper) } == [
                // `groups.items` is one array per group: `@last` takes the last group's.
                #"id=1 latest="bye" oldest="hello" firstLikes=3 lastTags="[\"b\",\"c\"]" newestGroupFirst="[3]""#,
                // An empty array gives null; `null` stays null; a missing key stays absent.
                "id=2 latest=null oldest=null firstLikes=null lastTags=null",
                "id=3 latest=null oldest=null firstLikes=null lastTags=null",
                "id=4",
                // A `null` element gives null, as its key's `null` does; a key it lacks, absent.
                "id=5 latest=null oldest=null firstLikes=null",
                // The element taken lacks the key: absent, though it is also the last.
                "id=6 firstLikes=1",
            ])
        // The first status embeds its user; the last names its author and the tagged by id.
        #expect(
            records.map { mapper.mapping.entities[$0.entity].name + " " + ($0.identity?.description ?? "-") }.prefix(2) == [
                "Feed 1", "User 7",
            ])
        #expect(records[0].links[0] == .one(.embedded(1)))
        #expect(records[0].links[1].identityOfReference == IdentityKey([.integer(8)]))
        #expect(records[0].links[2].identitiesOfReferences == [IdentityKey([.integer(7)]), IdentityKey([.integer(9)])])
        #expect(feeds[1].links == [.null, .null, .null])
        #expect(feeds[2].links == [.null, .null, .null])
        #expect(feeds[3].links == [.absent, .absent, .absent])
        #expect(feeds[4].links == [.null, .absent, .absent])
        #expect(feeds[5].links == [.absent, .absent, .absent])
    }

    @Test func reportsFirstAndLastOnValuesThatAreNotArrays() throws {
        let json = #"[{"id": 1, "statuses": {"text": "one"}}, {"id": 2, "statuses": "none"}]"#
        let (records, diagnostics, mapper) = try mapRecords(Self.timeline, json, entity: "Feed")
        #expect(
            diagnostics == [
                "dump.json:1:24: error: Feed 1: 'statuses.@last.text': '@last' needs an array, found an object  [/0/statuses]",
                "dump.json:1:24: error: Feed 1: 'statuses.@first.text': '@first' needs an array, found an object  [/0/statuses]",
                "dump.json:1:24: error: Feed 1: 'statuses.@first.likes': '@first' needs an array, found an object  [/0/statuses]",
                "dump.json:1:24: error: Feed 1: 'statuses.@last.tags': '@last' needs an array, found an object  [/0/statuses]",
                "dump.json:1:24: error: Feed 1: 'statuses.@first.user': '@first' needs an array, found an object  [/0/statuses]",
                "dump.json:1:24: error: Feed 1: 'statuses.@last.author_id': '@last' needs an array, found an object  [/0/statuses]",
                "dump.json:1:24: error: Feed 1: 'statuses.@last.tagged': '@last' needs an array, found an object  [/0/statuses]",
                #"dump.json:1:64: error: Feed 2: 'statuses.@last.text': '@last' needs an array, found a string  [/1/statuses]"#,
                #"dump.json:1:64: error: Feed 2: 'statuses.@first.text': '@first' needs an array, found a string  [/1/statuses]"#,
                #"dump.json:1:64: error: Feed 2: 'statuses.@first.likes': '@first' needs an array, found a string  [/1/statuses]"#,
                #"dump.json:1:64: error: Feed 2: 'statuses.@last.tags': '@last' needs an array, found a string  [/1/statuses]"#,
                #"dump.json:1:64: error: Feed 2: 'statuses.@first.user': '@first' needs an array, found a string  [/1/statuses]"#,
                #"dump.json:1:64: error: Feed 2: 'statuses.@last.author_id': '@last' needs an array, found a string  [/1/statuses]"#,
                #"dump.json:1:64: error: Feed 2: 'statuses.@last.tagged': '@last' needs an array, found a string  [/1/statuses]"#,
            ])
        #expect(records.map { describeFields($0, mapper) } == ["id=1", "id=2"])
    }

    static let comics = """
        seeder: 1
        entities:
          Comic:
            attributes:
              id: integer
              title: string
              heroId: { type: integer, from: "@file.1" }
              page: { type: string, from: "@file.2" }
              folder: { type: string, from: "@file.1", emptyAsNull: true }
            relationships:
              character: { to: Character, from: "@file.1" }
              creators: { to: Creator, many: true }
          Character:
            attributes: { id: integer }
          Creator:
            attributes:
              id: integer
              role: string
              folder: { type: integer, from: "@file.1" }
        sources:
          - path: comics/*/*.json
            entity: Comic
            keyPath: data.results
        """

    /// Maps `json` as the records of a file whose source's path matched `stars`.
    func mapFile(_ yaml: String, _ json: String, path: String?, stars: [String], entity: String) throws -> (
        records: [Record], diagnostics: [String], mapper: Mapper
    ) {
        let sink = DiagnosticSink()
        let mapping = try validMapping(yaml)
        let mapper = Mapper(mapping: mapping)
        let entityIndex = try #require(mapping.entityIndex(named: entity))
        mapper.beginFile(path: path, stars: stars)
        var records: [Record] = []
        try JSONReader(source: MemoryByteSource(json)).forEachItem { item in
            if case let .record(value) = item {
                records += mapper.records(from: value, entity: entityIndex, file: "dump.json", diagnostics: sink)
            }
        }
        sink.resolveOffsets { _ in MemoryByteSource(json) }
        return (records, sink.diagnostics.map(\.description), mapper)
    }

    @Test func readsWhatTheStarsOfTheSourcePathMatched() throws {
        let json = #"[{"id": 1, "title": "One", "creators": [{"id": 30, "role": "writer"}]}, {"id": 2}]"#
        let (records, diagnostics, mapper) = try mapFile(
            Self.comics, json, path: "comics/*/*.json", stars: ["1011334", "0001"], entity: "Comic")
        #expect(diagnostics == [])
        #expect(
            records.map { describeFields($0, mapper) } == [
                // Coerced as any string is: an integer, a string, the page's zeros kept.
                #"id=1 title="One" heroId=1011334 page="0001" folder="1011334""#,
                // An embedded record comes from the same file.
                #"id=30 role="writer" folder=1011334"#,
                #"id=2 heroId=1011334 page="0001" folder="1011334""#,
            ])
        #expect(records[0].links[0].identityOfReference == IdentityKey([.integer(1_011_334)]))
        #expect(records[2].links[0].identityOfReference == IdentityKey([.integer(1_011_334)]))

        // The next file's stars replace them.
        mapper.beginFile(path: "comics/*/*.json", stars: ["7", "0002"])
        let next = mapper.records(
            from: try JSONDocument(parsing: #"{"id": 3}"#).root, entity: 0, file: "b.json", diagnostics: DiagnosticSink())
        #expect(describeFields(next[0], mapper) == #"id=3 heroId=7 page="0002" folder="7""#)
    }

    @Test func coercesTheTextOfAStarAndLocatesItsErrorsAtTheRecord() throws {
        let json = #"[{"id": 1}, {"id": 2}]"#
        let (records, diagnostics, mapper) = try mapFile(Self.comics, json, path: "comics/*/*.json", stars: ["hulk", ""], entity: "Comic")
        #expect(
            diagnostics == [
                #"dump.json:1:2: error: Comic 1: 'heroId' is "hulk", expected integer  [/0]"#,
                #"dump.json:1:2: error: Comic 1: 'character' is "hulk", expected integer (an id of Character)  [/0]"#,
                #"dump.json:1:13: error: Comic 2: 'heroId' is "hulk", expected integer  [/1]"#,
                #"dump.json:1:13: error: Comic 2: 'character' is "hulk", expected integer (an id of Character)  [/1]"#,
            ])
        // An empty text is a string; `emptyAsNull` makes it null.
        let (empty, _, _) = try mapFile(Self.comics, json, path: "comics/*/*.json", stars: ["", ""], entity: "Comic")
        #expect(describeFields(empty[0], mapper) == #"id=1 page="" folder=null"#)
        #expect(records.count == 2)
    }

    /// A record embedded in the file of another source than those that feed its entity, whose
    /// path has fewer stars: an error at the record.
    @Test func reportsAStarTheFilesSourcePathLacks() throws {
        let yaml = """
            seeder: 1
            entities:
              Creator:
                attributes:
                  id: integer
                  name: string
                  folder: { type: integer, from: "@file.1" }
              Series:
                attributes: { id: integer }
                relationships:
                  creators: { to: Creator, many: true }
            sources:
              - { path: creators/*.json, entity: Creator }
              - { path: series.json, entity: Series }
            """
        let (records, diagnostics, mapper) = try mapFile(
            yaml, #"[{"id": 1, "creators": [{"id": 30, "name": "Stan"}]}]"#, path: "series.json", stars: [], entity: "Series")
        #expect(
            diagnostics == [
                "dump.json:1:25: error: Creator 30: '@file.1': this file's source path 'series.json' has no '*'  [/0/creators/0]"
            ])
        #expect(records.map { describeFields($0, mapper) } == ["id=1", #"id=30 name="Stan""#])
        let (_, one, _) = try mapFile(Self.comics, #"[{"id": 1}]"#, path: "comics/*.json", stars: ["5"], entity: "Comic")
        #expect(one == ["dump.json:1:2: error: Comic 1: '@file.2': this file's source path 'comics/*.json' has 1 '*'  [/0]"])
    }

    /// Without `beginFile` (and for any mapping that reads no `@file.N`), nothing is kept.
    @Test func keepsNoStarsForAMappingThatReadsNone() throws {
        let mapper = Mapper(mapping: try validMapping(Self.timeline))
        mapper.beginFile(path: "feeds/*.json", stars: ["1"])
        #expect(mapper.file.texts.isEmpty && mapper.file.path == nil)
        let comics = Mapper(mapping: try validMapping(Self.comics))
        comics.beginFile(path: "comics/*/*.json", stars: ["1", "2"])
        #expect(comics.file.texts.map(\.string) == ["1", "2"] && comics.file.path == "comics/*/*.json")
    }
}
