import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederInfer
@testable import SeederStore

/// `seeder infer` where dumps are odd (docs/commands.md, `seeder infer`): the draft still builds
/// as it is, and guesses nothing the values do not support.
struct InferEdgeTests {
    /// Files of no records, or of empty objects, are left out and said so: an entity of nothing
    /// would be rows of nothing.
    @Test func recordsWithNothingToMapAreLeftOut() throws {
        let (draft, workspace) = try inferDraft(["users.json": "[]", "empties.json": "[{}, {}]", "posts.json": #"[{"id": 1}]"#])
        #expect(!draft.contains("User:") && !draft.contains("Empty"))
        #expect(draft.contains("# empties.json: left out, its records hold no value to map"))
        #expect(try buildDraft(draft, in: workspace) == ["Post": 1])
    }

    /// File names: `items.json` is Item and `line_items.json` LineItem (words that name records
    /// are kept); a name whose table seeder or SQLite reserves gets `Dump` before it.
    @Test func fileNamesKeepTheirRecordWordsAndAvoidReservedTables() throws {
        let (draft, workspace) = try inferDraft([
            "items.json": #"[{"sku": "a"}]"#, "line_items.json": #"[{"sku": "b", "qty": 1}]"#,
            "seed_metadata.json": #"[{"id": 1, "v": "x"}]"#,
        ])
        #expect(draft.contains("  Item:") && draft.contains("  LineItem:") && draft.contains("  DumpSeedMetadata:"))
        #expect(try buildDraft(draft, in: workspace) == ["Item": 1, "LineItem": 1, "DumpSeedMetadata": 1])
    }

    /// A `user_id` whose words name an entity that does not hold its values (a `User` without
    /// identity) refers to no entity: not to its own.
    @Test func anIdKeyNamingAnEntityWithoutItsValuesStaysAnAttribute() throws {
        let (draft, workspace) = try inferDraft([
            "posts.json": #"[{"id": 1, "user": {"name": "Alice"}}, {"id": 2, "user": {"name": "Bob"}}]"#,
            "users.json": #"[{"id": 1, "name": "Alice"}, {"id": 2, "name": "Bob"}]"#,
            "likes.json": #"[{"id": 1, "user_id": 1}, {"id": 2, "user_id": 2}]"#,
        ])
        #expect(draftLine(draft, "userId").contains("integer"))
        #expect(!draft.contains("to: Like"))
        _ = try buildDraft(draft, in: workspace)
    }

    /// The mapping loader refuses what would be rows of nothing, rather than failing to insert.
    @Test func anEntityThatStoresNothingIsAMappingError() {
        let diagnostics = DiagnosticSink()
        let yaml = "seeder: 1\nentities:\n  Post: { attributes: { id: integer } }\n  User: { identity: none }\n"
        #expect(MappingLoader().load(yaml: yaml, file: "m.yaml", diagnostics: diagnostics) == nil)
        #expect(
            diagnostics.diagnostics.map(\.description) == [
                "m.yaml:4:3: error: entity 'User' stores nothing: with 'identity: none' and no attribute or to-one, its rows would hold "
                    + "no value; give it an attribute, or leave it out"
            ])
    }
}

/// The YAML of the draft's line for `name` (`members: { to: Member, many: true }`), without its
/// indentation and comment.
func draftValue(_ draft: String, _ name: String) -> String {
    let line = draftLine(draft, name).trimmingCharacters(in: .whitespaces)
    return line.range(of: " # ").map { String(line[..<$0.lowerBound]).trimmingCharacters(in: .whitespaces) } ?? line
}

/// The values of the first column of `sql`, run on the seed `buildDraft` wrote.
func seedColumn(_ sql: String, in workspace: Workspace) throws -> [String?] {
    try DatabaseQueue(path: workspace.path("seed.sqlite")).read { db in try String?.fetchAll(db, sql: sql) }
}

/// Objects keyed by data inside records (docs/commands.md, `seeder infer`, Keys as data): records
/// keyed by their keys are a to-many with `keyedBy`, anything else keyed by data is `json`, and
/// keys that are fields (in every object) stay fields.
extension InferEdgeTests {
    /// Three teams whose members are keyed by username, `rachit` in the first two, the second
    /// time with the role `role`.
    static func teams(rachitsSecondRole role: String) -> String {
        #"""
        [{"id": 1, "members": {"rachit": {"role": "admin"}, "blake": {"role": "dev"}}},
         {"id": 2, "members": {"rachit": {"role": "\#(role)"}, "sam": {"role": "dev"}}},
         {"id": 3, "members": {"jeff": {"role": "admin"}}}]
        """#
    }

    /// A key held by two records with different contents (`rachit` in two teams) is no
    /// identity: each member is its own, embedded, its key an attribute.
    @Test func recordsKeyedByRepeatedKeysAreEmbedded() throws {
        let (draft, workspace) = try inferDraft(["teams.json": Self.teams(rachitsSecondRole: "dev")])
        #expect(draftValue(draft, "members") == "members: { to: Member, many: true, keyedBy: key, inverse: team, ordered: true }")
        #expect(draftValue(draft, "identity") == "identity: none")
        #expect(draftValue(draft, "key") == "key: string")
        #expect(!draft.contains("rachit:") && !draft.contains("Rachit"))
        #expect(try buildDraft(draft, in: workspace) == ["Team": 3, "Member": 5])
        #expect(
            try seedColumn("SELECT key || ' ' || role FROM member ORDER BY team_id, team_position", in: workspace) == [
                "rachit admin", "blake dev", "rachit dev", "sam dev", "jeff admin",
            ])
    }

    /// Keys that name one record wherever they occur are its identity: the members merge, and
    /// each team links them.
    @Test func recordsKeyedByUniqueKeysHaveThemAsIdentity() throws {
        let (draft, workspace) = try inferDraft(["teams.json": Self.teams(rachitsSecondRole: "admin")])
        #expect(draftValue(draft, "members") == "members: { to: Member, many: true, keyedBy: id }")
        #expect(draft.contains("    # identity: keyed by 'id': the keys of the object\n"))
        #expect(draftValue(draft, "id") == "id: integer")
        #expect(try buildDraft(draft, in: workspace) == ["Team": 3, "Member": 4])
        #expect(try seedColumn("SELECT team_id || ' ' || member_id FROM team_members ORDER BY 1", in: workspace).count == 5)
    }

    /// Firebase: comments keyed by push id in each post (one post is evidence enough), each
    /// comment that repeats its key keyed by that key, and a map of likes: json.
    @Test func firebasePostsHoldCommentsKeyedByPushID() throws {
        let posts = #"""
            {"-Kp1": {"title": "a", "comments": {"-Kc1": {"text": "x"}, "-Kc2": {"text": "y"}}, "likes": {"u2": true, "u7": true}},
             "-Kp2": {"title": "b", "comments": {"-Kc3": {"text": "z"}}, "likes": {"u9": true}},
             "-Kp3": {"title": "c", "comments": {}, "likes": {}}}
            """#
        let (draft, workspace) = try inferDraft(["posts.json": posts])
        #expect(draftValue(draft, "comments") == "comments: { to: Comment, many: true, keyedBy: id }")
        #expect(draftLine(draft, "comments").hasSuffix("# 3 of 3; 3 records keyed by data, its keys are Firebase push ids"))
        #expect(draftValue(draft, "likes") == "likes: json")
        #expect(try buildDraft(draft, in: workspace) == ["Post": 3, "Comment": 3])
        #expect(try seedColumn("SELECT id || ' ' || text FROM comment ORDER BY id", in: workspace) == ["-Kc1 x", "-Kc2 y", "-Kc3 z"])
    }

    /// Records that repeat their key in a field (`"blake": {"handle": "blake"}`) are keyed by
    /// that field, their identity, even where the keys do not vary.
    @Test func recordsRepeatingTheirKeyAreKeyedByThatField() throws {
        let teams = #"""
            [{"id": 1, "members": {"rachit": {"handle": "rachit", "n": 1}, "blake": {"handle": "blake", "n": 2}}},
             {"id": 2, "members": {"rachit": {"handle": "rachit", "n": 1}, "blake": {"handle": "blake", "n": 2}}}]
            """#
        let (draft, workspace) = try inferDraft(["teams.json": teams])
        #expect(draftValue(draft, "members") == "members: { to: Member, many: true, keyedBy: handle }")
        #expect(draftValue(draft, "identity") == "identity: handle")
        #expect(try buildDraft(draft, in: workspace) == ["Team": 2, "Member": 2])
    }

    /// Records keyed by data beside a source of records of that name are an entity of their own.
    @Test func recordsKeyedByDataBesideASourceOfTheirNameAreNamedApart() throws {
        let teams = #"""
            [{"id": 1, "members": {"rachit": {"role": "admin"}, "blake": {"role": "dev"}}},
             {"id": 2, "members": {"sam": {"role": "dev"}}}, {"id": 3, "members": {"jeff": {"role": "dev"}}}]
            """#
        let members = #"[{"username": "rachit", "name": "Rachit"}, {"username": "blake", "name": "Blake"}]"#
        let (draft, workspace) = try inferDraft(["teams.json": teams, "members.json": members])
        #expect(draftValue(draft, "members") == "members: { to: Member2, many: true, keyedBy: id }")
        #expect(draftValue(draft, "identity") == "identity: username")
        #expect(try buildDraft(draft, in: workspace) == ["Team": 3, "Member": 2, "Member2": 4])
    }

    /// Past the records held back to decide, a value that is no record like the others makes
    /// the key json: every record still builds.
    @Test func recordsKeyedByDataThenAScalarAreJSON() throws {
        var teams = (1...70).map { #"{"id": \#($0), "members": {"m\#($0)": {"role": "dev"}, "m\#($0 + 1)": {"role": "admin"}}}"# }
        teams.append(#"{"id": 71, "members": {"m1": "dev"}}"#)
        let (draft, workspace) = try inferDraft(["teams.json": "[\(teams.joined(separator: ",\n"))]"])
        #expect(draftValue(draft, "members") == "members: json")
        #expect(
            draft.contains(
                "json: an object keyed by data, not fields: more than 64 different keys, but not every value is a record like the others"))
        #expect(try buildDraft(draft, in: workspace) == ["Team": 71])
    }

    /// `keyedBy` names the attribute as the draft names it: a repeated key `user_name` is the
    /// attribute `userName`, for a source and for a to-many alike.
    @Test func keyedByNamesTheAttributeAsDrafted() throws {
        let export = #"""
            {"users": {"blake": {"user_name": "blake", "n": 1}, "jeff": {"user_name": "jeff", "n": 2}},
             "teams": {"t1": {"name": "a", "members": {"blake": {"user_name": "blake"}, "jeff": {"user_name": "jeff"}}},
                       "t2": {"name": "b", "members": {"sam": {"user_name": "sam"}}}}}
            """#
        let (draft, workspace) = try inferDraft(["export.json": export])
        #expect(draftValue(draft, "keyedBy") == "keyedBy: userName")
        #expect(draftValue(draft, "members") == "members: { to: Member, many: true, keyedBy: userName }")
        #expect(try buildDraft(draft, in: workspace) == ["User": 2, "Team": 2, "Member": 3])
    }

    /// HAL's `_links` is json, kept whole: which links a resource has varies with its kind and
    /// state, and none is a record of its own.
    @Test func halLinksAreJSON() throws {
        let link = { (id: Int) in
            #"{"id": \#(id), "_links": {"self": {"href": "https://api.example.com/p/\#(id)"}, "html": {"href": "https://example.com/p/\#(id)"}}}"#
        }
        let (draft, workspace) = try inferDraft(["pulls.json": "[\((1...3).map(link).joined(separator: ", "))]"])
        #expect(draftValue(draft, "links") == "links: json")
        #expect(draftLine(draft, "links").hasSuffix("# 3 of 3; json: HAL's links, kept whole: which links a record has varies"))
        #expect(!draft.contains("keyedBy"))
        #expect(try buildDraft(draft, in: workspace) == ["Pull": 3])
        #expect(
            try seedColumn("SELECT links FROM pull WHERE id = 1", in: workspace) == [
                #"{"self":{"href":"https://api.example.com/p/1"},"html":{"href":"https://example.com/p/1"}}"#
            ])
    }

    /// Maps of scalars keyed by data (Firebase's likes, tag counts) are json, said why; a map
    /// whose keys are in every record is fields, here columns of the record (no identity).
    @Test func mapsOfScalarsKeyedByDataAreJSON() throws {
        let posts = #"""
            [{"id": 1, "likes": {"u2": true, "u7": true}, "tags": {"swift": 3}, "settings": {"dark": true, "lang": "en"}},
             {"id": 2, "likes": {"u9": true}, "tags": {"go": 1, "rust": 2}, "settings": {"dark": false, "lang": "fr"}},
             {"id": 3, "likes": {}, "tags": {"zig": 5}, "settings": {"dark": true, "lang": "de"}}]
            """#
        let (draft, workspace) = try inferDraft(["posts.json": posts])
        #expect(draftValue(draft, "likes") == "likes: json")
        #expect(
            draftLine(draft, "likes").hasSuffix(
                "# 3 of 3; json: an object keyed by data, not fields: every value is true: a set of 3 keys"))
        #expect(draftValue(draft, "tags") == "tags: json")
        #expect(draft.contains("    # 'tags' is json: an object keyed by data, not fields: its keys vary: 4 different keys in 3 objects\n"))
        #expect(draftValue(draft, "settingsDark") == "settingsDark: { type: boolean, from: settings.dark, required: true }")
        #expect(draftValue(draft, "settingsLang") == "settingsLang: { type: string, from: settings.lang, required: true }")
        #expect(try buildDraft(draft, in: workspace) == ["Post": 3])
        #expect(
            try seedColumn("SELECT tags FROM post ORDER BY id", in: workspace) == [#"{"swift":3}"#, #"{"go":1,"rust":2}"#, #"{"zig":5}"#])
    }
}

/// What the draft says, and the order its sources are read in.
extension InferEdgeTests {
    /// No count in the draft's comments reads "1 records", "1 numbers" or "1 values repeat".
    @Test func countsOfOneAreSingular() throws {
        let (draft, workspace) = try inferDraft([
            "items.json": #"""
            [{"id": 1, "p": 1.5, "d": "2024-01-01", "u": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "w": "https://a.b/c",
              "s": "a", "parts": [{"sku": "x"}], "owner": {"id": 1, "n": "a"}},
             {"id": 2, "p": "2.5", "s": 3, "owner": {"id": 1, "n": "a"}, "note": null}]
            """#,
            "logs.json": #"[{"id": 1, "slug": "a", "item_id": 1}, {"id": 1, "item_id": 2}]"#,
        ])
        let comments = draft.split(separator: "\n").compactMap { line in line.range(of: "# ").map { String(line[$0.upperBound...]) } }
        let plural =
            #/(^|[^0-9,])1 (records|values|numbers|numeric strings|strings|integers|objects|keys|different keys|distinct values|distinct ids|repeated occurrences|files)\b|1 values repeat|1 hold /#
        for comment in comments { #expect(comment.firstMatch(of: plural) == nil, "\(comment)") }
        for phrase in [
            "1 number and 1 numeric string", "date: 1 of 1 value ISO 8601", "uuid: 1 of 1 value", "url: 1 of 1 value absolute URLs",
            "string: 1 string, 1 integer", "1 object in arrays", "missing in 1 record", "1 value repeats with other records",
            "1 distinct value in 2 records (1 repeated occurrence merges)", "# 1 record",
        ] {
            #expect(draft.contains(phrase), "\(phrase)\n\(draft)")
        }
        #expect(try buildDraft(draft, in: workspace) == ["Item": 2, "Part": 1, "Owner": 1, "Log": 2])
    }

    /// An entity's own records are read before records that embed a copy of it: under
    /// `onConflict: first` the full record wins over `posts.json`'s partial, stale `user`; on a
    /// cycle the files keep their order.
    @Test func ownRecordsAreReadBeforeTheirEmbeddedCopies() throws {
        let (draft, workspace) = try inferDraft([
            "posts.json": #"[{"id": 1, "user": {"id": 7, "name": "A."}}, {"id": 2, "user": {"id": 7, "name": "A."}}]"#,
            "users.json": #"[{"id": 7, "name": "Ann", "email": "ann@example.com"}]"#,
        ])
        #expect(draft.contains("    onConflict: first"))
        let paths = draft.split(separator: "\n").filter { $0.hasPrefix("  - path: ") }.map { draftValue(String($0), "- path") }
        #expect(paths == ["- path: users.json", "- path: posts.json"])
        #expect(try buildDraft(draft, in: workspace) == ["Post": 2, "User": 1])
        #expect(try seedColumn("SELECT name || ' ' || email FROM user WHERE id = 7", in: workspace) == ["Ann ann@example.com"])
        let (cycle, _) = try inferDraft([
            "authors.json": #"[{"id": 1, "book": {"id": 2, "title": "t"}}]"#, "books.json": #"[{"id": 2, "author": {"id": 1}}]"#,
        ])
        let order = cycle.split(separator: "\n").filter { $0.hasPrefix("  - path: ") }.map { draftValue(String($0), "- path") }
        #expect(order == ["- path: authors.json", "- path: books.json"])
    }
}
