import Foundation
import SeederCore
import SeederFiles
import SeederStore
import SeederTestSupport
import Testing

@testable import SeederInfer

/// Drafts a mapping from `files` (name -> text) in a scratch directory; the draft must load.
func inferDraft(_ files: [String: String], keyPath: [String]? = nil) throws -> (draft: String, workspace: Workspace) {
    let workspace = try Workspace()
    for (name, text) in files { try workspace.write("dumps/" + name, text) }
    let report = MappingInferrer.infer(InferOptions(dumps: workspace.path("dumps"), keyPath: keyPath))
    #expect(report.outcome == .success, "\(report.diagnostics.map(\.description))")
    let draft = try #require(report.draft)
    _ = try validMapping(draft)
    return (draft, workspace)
}

/// The draft's line for the attribute, relationship or source key `name` (`      n: real`).
func draftLine(_ draft: String, _ name: String) -> String {
    draft.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + ":") }.map(String.init) ?? ""
}

/// Builds the draft on its dumps: the rows of each entity.
func buildDraft(_ draft: String, in workspace: Workspace) throws -> [String: Int] {
    try workspace.write("m.yaml", draft)
    var options = BuildOptions(mapping: workspace.path("m.yaml"), dumps: workspace.path("dumps"))
    options.output = workspace.path("seed.sqlite")
    let report = SeedBuilder.build(options)
    #expect(report.outcome == .success, "\(report.diagnostics.map(\.description))\n\(draft)")
    return Dictionary(uniqueKeysWithValues: report.entities.map { ($0.name, $0.counts.rowsWritten) })
}

/// The inference rules of docs/commands.md (`seeder infer`), one by one: each row is a dump,
/// the member whose line is checked, and what that line must say.
@Suite struct InferTests {
    struct Rule: Sendable, CustomStringConvertible {
        var name: String
        var dump: String
        var member: String
        var expected: String
        var description: String { name }
    }

    static let typeRules: [Rule] = [
        Rule(name: "integers", dump: #"[{"n": 1}, {"n": -20}]"#, member: "n", expected: "type: integer"),
        Rule(name: "a fraction widens integer to real", dump: #"[{"n": 1}, {"n": 2.5}]"#, member: "n", expected: "type: real"),
        Rule(name: "an object widens real to json", dump: #"[{"n": 1.5}, {"n": [1]}]"#, member: "n", expected: "n: json"),
        Rule(
            name: "more digits than a double holds is decimal", dump: #"[{"n": 12345678901234567.25}]"#, member: "n",
            expected: "type: decimal"),
        Rule(
            name: "numeric strings with numbers are decimal", dump: #"[{"p": "5013.26"}, {"p": 12}]"#, member: "p",
            expected: "type: decimal"),
        Rule(name: "money strings are decimal", dump: #"[{"p": "89.90"}, {"p": "45.00"}]"#, member: "p", expected: "type: decimal"),
        Rule(
            name: "version strings are text", dump: #"[{"min_os_version": "11.0"}, {"min_os_version": "9.3"}]"#, member: "minOsVersion",
            expected: "type: string"),
        Rule(name: "integers past 64 bits are decimal", dump: #"[{"n": 123456789012345678901}]"#, member: "n", expected: "type: decimal"),
        Rule(name: "booleans", dump: #"[{"b": true}, {"b": false}]"#, member: "b", expected: "type: boolean"),
        Rule(name: "booleans with words and bits", dump: #"[{"b": true}, {"b": "no"}, {"b": 1}]"#, member: "b", expected: "type: boolean"),
        Rule(name: "ISO 8601 dates", dump: #"[{"d": "2011-07-10T09:51:03Z"}, {"d": "2011-07-10"}]"#, member: "d", expected: "type: date"),
        Rule(
            name: "one string that is no date keeps string", dump: #"[{"d": "2011-07-10"}, {"d": "soon"}]"#, member: "d",
            expected: "type: string"),
        Rule(
            name: "unix seconds under a date key", dump: #"[{"created_at": 1310291463}, {"created_at": "1310464263.5"}]"#,
            member: "createdAt", expected: "format: unix"),
        Rule(
            name: "unix milliseconds under a date key", dump: #"[{"posted_at": 1696161600000}]"#, member: "postedAt",
            expected: "format: unix_ms"),
        Rule(
            name: "the same numbers under another key stay integers", dump: #"[{"size": 1310291463}]"#, member: "size",
            expected: "type: integer"),
        Rule(name: "urls", dump: #"[{"u": "https://example.com/a"}, {"u": "mailto:a@b.c"}]"#, member: "u", expected: "type: url"),
        Rule(name: "uuids", dump: #"[{"u": "6F9619FF-8B86-D011-B42D-00C04FC964FF"}]"#, member: "u", expected: "type: uuid"),
        Rule(name: "strings mixed with numbers are strings", dump: #"[{"s": "a"}, {"s": 3}]"#, member: "s", expected: "type: string"),
        Rule(name: "always null is json", dump: #"[{"s": null}]"#, member: "s", expected: "s: json"),
        Rule(
            name: "required when in every record, never null", dump: #"[{"s": "a"}, {"s": "b"}]"#, member: "s", expected: "required: true"),
        Rule(name: "not required with a null", dump: #"[{"s": "a"}, {"s": null}]"#, member: "s", expected: "s: string"),
        Rule(name: "not required when missing", dump: #"[{"s": "a"}, {"t": 1}]"#, member: "s", expected: "s: string"),
        Rule(
            name: "a key that is no identifier is renamed, with from", dump: #"[{"first name": "a"}]"#, member: "firstName",
            expected: #"from: ["first name"]"#),
        Rule(
            name: "snake_case keys read by a camelCase name", dump: #"[{"body_text": "a"}]"#, member: "bodyText",
            expected: "{ type: string, required: true }"),
        Rule(name: "reserved column names are renamed", dump: #"[{"rowid": 1}]"#, member: "fieldRowid", expected: "from: rowid"),
        Rule(name: "seed_ names are renamed", dump: #"[{"seed_version": 1}]"#, member: "fieldSeedVersion", expected: "from: seed_version"),
        Rule(
            name: "keys that collide after conversion keep their from", dump: #"[{"created_at": 1, "createdAt": 2}]"#, member: "createdAt2",
            expected: "from: createdAt"),
    ]

    @Test(arguments: typeRules)
    func rule(_ rule: Rule) throws {
        let (draft, _) = try inferDraft(["items.json": rule.dump])
        #expect(draftLine(draft, rule.member).contains(rule.expected), "\(draft)")
    }

    @Test func identityIsIdWhenUnique() throws {
        let (draft, _) = try inferDraft(["users.json": #"[{"id": 1, "slug": "a"}, {"id": 2, "slug": "b"}]"#])
        #expect(draft.contains("# identity: 'id': 2 distinct values"))
        #expect(!draft.contains("identity: slug"))
    }

    @Test func identityFallsBackToAnotherUniqueKey() throws {
        let (draft, _) = try inferDraft(["users.json": #"[{"id": 1, "slug": "a"}, {"id": 1, "slug": "b"}]"#])
        #expect(draft.contains("identity: slug"))
    }

    /// `<entity>_uuid` and `<entity>_key`, however spelled, are tried right after
    /// `<entity>_id`, before `uuid`, `key` and the others.
    @Test(arguments: [("user_uuid", "userUuid"), ("userUuid", "userUuid"), ("user_key", "userKey"), ("UserKey", "userKey")])
    func entityUUIDAndKeyAreIdentities(_ key: String, _ attribute: String) throws {
        let users = #"[{"id": 1, "key": "k", "KEY": "u-1"}, {"id": 1, "key": "k", "KEY": "u-2"}]"#.replacingOccurrences(
            of: "KEY", with: key)
        let (draft, workspace) = try inferDraft(["users.json": users])
        #expect(draftValue(draft, "identity") == "identity: \(attribute)", "\(draft)")
        #expect(try buildDraft(draft, in: workspace)["User"] == 2)
        let (withID, _) = try inferDraft(["users.json": #"[{"user_uuid": "a", "user_id": 1}, {"user_uuid": "b", "user_id": 2}]"#])
        #expect(draftValue(withID, "identity") == "identity: userId")
    }

    /// The same of the entity name's last word: a `NotificationGroup`'s `group_key`.
    @Test func theEntityNamesLastWordNamesItsIdentity() throws {
        let groups = #"[{"group_key": "g-1", "key": "k", "count": 1}, {"group_key": "g-2", "key": "k", "count": 2}]"#
        let (draft, workspace) = try inferDraft(["notification_groups.json": groups])
        #expect(draftValue(draft, "identity") == "identity: groupKey", "\(draft)")
        #expect(try buildDraft(draft, in: workspace)["NotificationGroup"] == 2)
    }

    @Test func identityIsNoneWithoutAUniqueKey() throws {
        let (draft, workspace) = try inferDraft(["events.json": #"[{"id": 1, "kind": "a"}, {"id": 1, "kind": "b"}]"#])
        #expect(draft.contains("identity: none"))
        #expect(try buildDraft(draft, in: workspace)["Event"] == 2)
    }

    @Test func entityIsNamedFromTheFileInTheSingular() throws {
        let (draft, _) = try inferDraft(["article_comments.json": #"[{"id": 1}]"#])
        #expect(draft.contains("  ArticleComment:"))
    }

    @Test func wrappingKeyIsTheEntityAndTheKeyPath() throws {
        let (draft, _) = try inferDraft(["task_list.json": #"[{"project": {"id": 1}}, {"project": {"id": 2}}]"#])
        #expect(draft.contains("  Project:"))
        #expect(draft.contains("keyPath: project"))
        #expect(!draft.contains("TaskList"))
    }

    @Test func pageArrayIsTheKeyPath() throws {
        let page = #"{"code": 200, "data": {"offset": 0, "tags": [{"a": 1}], "results": [{"id": 1}, {"id": 2}]}}"#
        let (draft, workspace) = try inferDraft([
            "characters/page-1.json": page, "characters/page-2.json": page.replacingOccurrences(of: "2}]", with: "3}]"),
        ])
        #expect(draft.contains("keyPath: data.results"))
        #expect(draft.contains("path: characters/page-*.json"))
        #expect(draft.contains("  Character:"))
        #expect(try buildDraft(draft, in: workspace)["Character"] == 3)
    }

    @Test func numberedFilesWithOtherFilesMatchingTheGlobAreListedOneByOne() throws {
        let (draft, _) = try inferDraft(["page-1.json": #"[{"id": 1}]"#, "page-2.json": #"[{"id": 2}]"#, "page-x.json": #"[{"id": 3}]"#])
        #expect(!draft.contains("page-*.json"))
    }

    @Test func repeatedNestedObjectsMergeIntoOneEntity() throws {
        let repositories = #"""
            {"total_count": 2, "items": [
              {"id": 1, "name": "a", "owner": {"login": "x", "id": 9, "url": "https://api.github.com/users/x"}},
              {"id": 2, "name": "b", "owner": {"login": "x", "id": 9, "url": "https://api.github.com/users/x"}}]}
            """#
        let (draft, workspace) = try inferDraft(["repositories.json": repositories])
        #expect(draft.contains("  Owner:"))
        #expect(draftLine(draft, "owner").contains("{ to: Owner }"))
        #expect(draft.contains("keyPath: items"))
        let rows = try buildDraft(draft, in: workspace)
        #expect(rows["Repository"] == 2)
        #expect(rows["Owner"] == 1)
    }

    @Test func arraysOfObjectsWithoutIdentityAreEmbedded() throws {
        let (draft, workspace) = try inferDraft(["characters.json": #"[{"id": 1, "urls": [{"type": "wiki", "url": "http://a.b/c"}]}]"#])
        #expect(draftLine(draft, "urls").contains("{ to: Url, many: true, inverse: character, ordered: true }"))
        #expect(draft.contains("identity: none"))
        #expect(try buildDraft(draft, in: workspace)["Url"] == 1)
    }

    @Test func objectsWithTooManyKeysAreJSON() throws {
        let members = (0..<70).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let (draft, _) = try inferDraft(["things.json": "[{\"id\": 1, \"bag\": {\(members)}}]"])
        #expect(draftLine(draft, "bag").contains("bag: json"))
        #expect(draft.contains("'bag' is json"))
    }

    @Test func idKeysThatMatchIdentitiesAreRelationships() throws {
        let (draft, workspace) = try inferDraft([
            "users.json": #"[{"id": 1}, {"id": 2}]"#,
            "tasks.json": #"[{"id": 10, "assigned_user_id": 1, "user_ids": [1, 2]}, {"id": 11, "assigned_user_id": 2, "user_ids": []}]"#,
        ])
        #expect(draftLine(draft, "assignedUser").contains("{ to: User }"))
        #expect(draftLine(draft, "users").contains("{ to: User, many: true }"))
        _ = try buildDraft(draft, in: workspace)
    }

    /// A key named for no entity whose values are the identities of exactly one: a relationship
    /// to it; when the values are identities of two entities, no guess.
    @Test func idKeysNamedOtherwiseFollowTheirValues() throws {
        let (draft, workspace) = try inferDraft([
            "repositories.json": #"[{"id": "r1"}, {"id": "r2"}]"#,
            "builds.json": #"[{"id": 10, "repo_id": "r1"}, {"id": 11, "repo_id": "r2"}]"#,
        ])
        #expect(draftLine(draft, "repo").contains("{ to: Repository }"))
        #expect(try buildDraft(draft, in: workspace)["Build"] == 2)
        let (ambiguous, _) = try inferDraft([
            "users.json": #"[{"id": 1}, {"id": 2}]"#, "teams.json": #"[{"id": 1}, {"id": 2}]"#,
            "tasks.json": #"[{"id": 10, "owner_id": 1}]"#,
        ])
        #expect(draftLine(ambiguous, "ownerId").contains("integer"))
    }

    @Test func idKeysThatMatchNoIdentityStayAttributes() throws {
        let (draft, _) = try inferDraft([
            "users.json": #"[{"id": 1}, {"id": 2}]"#, "tasks.json": #"[{"id": 10, "user_id": 3}]"#,
        ])
        #expect(draftLine(draft, "userId").contains("integer"))
    }

    @Test func firebaseExportKeyedById() throws {
        let export = #"{"-Kx1": {"name": "a", "joined": "2020-01-01"}, "-Kx2": {"name": "b", "joined": "2021-01-01"}, "-Kx3": null}"#
        let (draft, workspace) = try inferDraft(["users.json": export])
        #expect(draft.contains("keyedBy: id"))
        #expect(try buildDraft(draft, in: workspace)["User"] == 2)
    }

    @Test func firebaseKeysRepeatedInsideTheRecordAreTheIdentity() throws {
        let export = #"{"users": {"blake": {"handle": "blake", "n": 1}, "jeff": {"handle": "jeff", "n": 2}}}"#
        let (draft, _) = try inferDraft(["export.json": export])
        #expect(draft.contains("keyedBy: handle"))
        #expect(draft.contains("identity: handle"))
    }

    @Test func jsonLinesEventsWithNullableFields() throws {
        let lines = #"""
            {"id": "e1", "type": "push", "actor_id": null, "at": "2024-01-01T00:00:00Z"}
            {"id": "e2", "type": "fork", "at": null}

            {"id": "e3", "type": "push", "actor_id": 5, "at": "2024-01-02T00:00:00Z"}
            """#
        let (draft, workspace) = try inferDraft(["events.jsonl": lines])
        #expect(draftLine(draft, "actorId").contains("integer"))
        #expect(draftLine(draft, "at").contains("date"))
        #expect(draft.contains("path: events.jsonl"))
        #expect(try buildDraft(draft, in: workspace)["Event"] == 3)
    }

    @Test func keyPathOptionReadsRecordsThere() throws {
        let (draft, _) = try inferDraft(["a.json": #"{"x": {"rows": [{"id": 1}]}, "big": [{"q": 1}, {"q": 2}]}"#], keyPath: ["x", "rows"])
        #expect(draft.contains("keyPath: x.rows"))
    }

    @Test func compressedDumpsAreRead() async throws {
        let workspace = try Workspace()
        try workspace.write("dumps/users.json", #"[{"id": 1, "name": "a"}]"#)
        try await Compressor.gzip.compress(workspace.path("dumps/users.json"))
        try FileManager.default.removeItem(atPath: workspace.path("dumps/users.json"))
        let report = MappingInferrer.infer(InferOptions(dumps: workspace.path("dumps")))
        let draft = try #require(report.draft)
        #expect(draft.contains("path: users.json.gz"))
        #expect(draft.contains("  User:"))
    }

    @Test func invalidJSONIsALocatedError() throws {
        let workspace = try Workspace()
        try workspace.write("dumps/users.json", "[{\"id\": 1},\n {\"id\": }]")
        let report = MappingInferrer.infer(InferOptions(dumps: workspace.path("dumps")))
        #expect(report.outcome == .invalid)
        #expect(report.diagnostics.map(\.description).contains { $0.contains("users.json:2:") })
    }

    @Test func aMissingDirectoryIsAnIOError() throws {
        let report = MappingInferrer.infer(InferOptions(dumps: "/nonexistent/dumps"))
        #expect(report.outcome == .failed)
    }
}
