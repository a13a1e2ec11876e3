import SeederTestSupport
import Testing

@testable import SeederCore

/// `@first.K` and `@last.K` (docs/mapping.md, Key paths): the values they give, on empty arrays,
/// nulls and values that are not arrays, and the relationships they feed.
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
}
