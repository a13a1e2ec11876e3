import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// The warnings about keys once every input is read (docs/mapping.md, Unmapped keys and keys
/// that match nothing): keys never mapped, attributes and relationships whose key no record had,
/// `ignore:` entries that occur nowhere, entities with no record.
struct KeyCoverageTests {
    /// Builds `mapping` (an entity `Repository` fed by `repos.json`) over `records` and returns
    /// the messages.
    static func messages(_ mapping: String, _ records: String, configure: (inout BuildOptions) -> Void = { _ in }) throws -> (
        BuildReport, [String]
    ) {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", mapping)
        try workspace.write("dumps/repos.json", records)
        let report = workspace.build(configure: configure)
        return (report, report.messages(workspace))
    }

    static func repository(_ body: String, more: String = "") -> String {
        "seeder: 1\nentities:\n  Repository:\n" + body + more + "sources:\n  - path: repos.json\n    entity: Repository\n"
    }

    @Test func ignoreSilencesKnownKeysAndWarnsAboutKeysThatOccurNowhere() throws {
        let records =
            #"[{"id": 1, "node_id": "a", "watchers_count": 3, "url": "u"}, {"id": 2, "node_id": "b", "watchers_count": 4, "url": "v"}]"#
        let (_, without) = try Self.messages(Self.repository("    attributes: { id: integer }\n"), records)
        #expect(
            without == ["mapping.yaml:3:3: warning: 3 keys are never mapped: Repository.node_id, Repository.url, Repository.watchers_count"]
        )
        let (_, with) = try Self.messages(
            Self.repository("    ignore: [node_id, watchers_count]\n    attributes: { id: integer }\n"), records)
        #expect(with == ["mapping.yaml:3:3: warning: 1 key is never mapped: Repository.url"])
        // A typo in `ignore` does not pass silently: the key stays unmapped, and the entry says
        // it found nothing. `ignore` matches the key as written, not ignoring case.
        let (_, typo) = try Self.messages(
            Self.repository("    ignore: [node_id, watchers_cont, URL]\n    attributes: { id: integer }\n"), records)
        #expect(
            typo == [
                "mapping.yaml:3:3: warning: 2 keys are never mapped: Repository.url, Repository.watchers_count",
                "mapping.yaml:4:23: warning: Repository: ignored key 'watchers_cont' occurs in no record (did you mean 'watchers_count'?)",
                "mapping.yaml:4:38: warning: Repository: ignored key 'URL' occurs in no record (did you mean 'url'?)",
            ])
        // The report keeps the keys never mapped, without the ignored ones.
        let (report, _) = try Self.messages(
            Self.repository("    ignore: [node_id, watchers_count]\n    attributes: { id: integer }\n"), records)
        #expect(report.entities.map(\.unmappedKeys) == [["url"]])
    }

    @Test func warnsAboutAKeyThatMatchedNothingWithTheNearestUnmappedKey() throws {
        let mapping = Self.repository(
            """
                attributes:
                  id: integer
                  stars: { type: integer, from: stargazer_count }
                  fullName: string
                  homepageURL: url
                  createdAt: { type: date, default: "2020-01-01" }

            """)
        let (report, messages) = try Self.messages(mapping, #"[{"id": 1, "stargazers_count": 5, "full_nme": "a/b"}]"#)
        #expect(report.outcome == .success)
        #expect(
            messages == [
                "mapping.yaml:3:3: warning: 2 keys are never mapped: Repository.full_nme, Repository.stargazers_count",
                "mapping.yaml:6:7: warning: Repository.stars: 'stargazer_count' matched no key in 1 record (did you mean 'stargazers_count'?)",
                "mapping.yaml:7:7: warning: Repository.fullName: 'fullName' matched no key in 1 record (did you mean 'full_nme'?)",
                "mapping.yaml:8:7: warning: Repository.homepageURL: 'homepageURL' matched no key in 1 record",
            ])
    }

    /// A key is found whatever its value: a `null` in one record is enough.
    @Test func countsANullAsFound() throws {
        let mapping = Self.repository("    attributes: { id: integer, license: string, owner: string }\n")
        let (_, found) = try Self.messages(mapping, #"[{"id": 1, "license": null}, {"id": 2}, {"id": 3, "owner": "x"}]"#)
        #expect(found == [])
        let (_, absent) = try Self.messages(mapping, #"[{"id": 1}, {"id": 2}, {"id": 3, "owner": "x"}]"#)
        #expect(absent == ["mapping.yaml:4:32: warning: Repository.license: 'license' matched no key in 3 records"])
    }

    /// A key path is found when every key is, down to a value (`null` included); a `null` or an
    /// empty array before the last key finds nothing; over an array, one element is enough; an
    /// operator's keys need an element that has them.
    @Test func findsKeyPathsKeyByKey() throws {
        let mapping = Self.repository(
            """
                attributes:
                  id: integer
                  login: { type: string, from: owner.login }
                  logn: { type: string, from: owner.logn }
                  plan: { type: string, from: owner.plan.name }
                  topics: { type: json, from: topics.name }
                  size: { type: decimal, from: "files.@avg.size" }
                  sze: { type: decimal, from: "files.@avg.sze" }
                  fileCount: { type: integer, from: "files.@count" }
                  dotted: { type: string, from: ["a.b", c] }

            """)
        let records = """
            [{"id": 1, "owner": null, "topics": [], "files": [], "a.b": {"c": null}},
             {"id": 2, "owner": {"login": "x", "plan": null}, "topics": [{"id": 1}, {"name": "n"}], "files": [{"name": "f"}, {"size": 2}]}]
            """
        let (_, messages) = try Self.messages(mapping, records)
        #expect(
            messages == [
                "mapping.yaml:7:7: warning: Repository.logn: 'owner.logn' matched no key in 2 records",
                "mapping.yaml:8:7: warning: Repository.plan: 'owner.plan.name' matched no key in 2 records",
                "mapping.yaml:11:7: warning: Repository.sze: 'files.@avg.sze' matched no key in 2 records",
            ])
        // Nulls and empty arrays on the way say nothing about the keys after them.
        let (_, empty) = try Self.messages(mapping, #"[{"id": 1, "owner": null, "topics": [], "files": [], "a.b": null}]"#)
        #expect(
            empty == [
                "mapping.yaml:6:7: warning: Repository.login: 'owner.login' matched no key in 1 record",
                "mapping.yaml:7:7: warning: Repository.logn: 'owner.logn' matched no key in 1 record",
                "mapping.yaml:8:7: warning: Repository.plan: 'owner.plan.name' matched no key in 1 record",
                "mapping.yaml:9:7: warning: Repository.topics: 'topics.name' matched no key in 1 record",
                "mapping.yaml:10:7: warning: Repository.size: 'files.@avg.size' matched no key in 1 record",
                "mapping.yaml:11:7: warning: Repository.sze: 'files.@avg.sze' matched no key in 1 record",
                "mapping.yaml:13:7: warning: Repository.dotted: 'a.b.c' matched no key in 1 record",
            ])
        // A key path whose first key no record has suggests the nearest unmapped key in its place.
        let (_, first) = try Self.messages(
            mapping,
            #"[{"id": 1, "ownr": {"login": "x", "logn": 1, "plan": {"name": "p"}}, "topics": [{"name": "t"}], "files": [{"size": 1, "sze": 2}], "a.b": {"c": 1}}]"#
        )
        #expect(
            first == [
                "mapping.yaml:3:3: warning: 1 key is never mapped: Repository.ownr",
                "mapping.yaml:6:7: warning: Repository.login: 'owner.login' matched no key in 1 record (did you mean 'ownr.login'?)",
                "mapping.yaml:7:7: warning: Repository.logn: 'owner.logn' matched no key in 1 record (did you mean 'ownr.logn'?)",
                "mapping.yaml:8:7: warning: Repository.plan: 'owner.plan.name' matched no key in 1 record (did you mean 'ownr.plan.name'?)",
            ])
    }

    /// A relationship finds its name's key, its id convention's, or its `from`; a to-one that a
    /// to-many fills by nesting (`inverse`) is exempt unless it names a `from`.
    @Test func findsRelationshipsByNameIdConventionOrKeyPath() throws {
        let mapping = Self.repository(
            """
                attributes: { id: integer }
                relationships:
                  owner: { to: User, onMissing: null }
                  tags: { to: Tag, many: true, onMissing: null }
                  forks: { to: Fork, many: true, inverse: parent }
                  parentRepo: { to: Repository, from: parent_id, onMissing: null }
                  team: { to: User, onMissing: null }

            """,
            more: """
                  User:
                    attributes: { id: integer }
                  Tag:
                    attributes: { id: integer }
                  Fork:
                    attributes: { id: integer, name: string }
                    relationships:
                      parent: { to: Repository }
                      origin: { to: Repository, from: origin_id }

                """)
        let records =
            #"[{"id": 1, "owner_id": 7, "tag_ids": [], "forks": [{"id": 9, "name": "f"}], "parent_id": null, "tem": 3}, {"id": 2, "owner": {"id": 3, "x": 1}}]"#
        let (_, messages) = try Self.messages(mapping, records)
        #expect(
            messages == [
                "mapping.yaml:3:3: warning: 1 key is never mapped: Repository.tem",
                "mapping.yaml:10:7: warning: Repository.team: 'team' or 'team_id' matched no key in 2 records (did you mean 'tem'?)",
                "mapping.yaml:11:3: warning: 1 key is never mapped: User.x",
                "mapping.yaml:13:3: warning: Tag got no record from any source",
                "mapping.yaml:19:7: warning: Fork.origin: 'origin_id' matched no key in 1 record",
            ])
    }

    /// Sync's `<name>_ids` fills a to-many in the seed, and the key counts as mapped: a strict
    /// build is clean.
    @Test func readsSyncsIdConventionIntoTheSeed() throws {
        let mapping = Self.repository(
            "    attributes: { id: integer }\n    relationships:\n      topics: { to: Topic, many: true }\n",
            more: "  Topic:\n    attributes: { id: integer, name: string }\n")
        let records = #"[{"id": 1, "topics_ids": [2, 1]}, {"id": 2, "topics": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}]"#
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", mapping)
        try workspace.write("dumps/repos.json", records)
        let report = workspace.build { $0.strict = true }
        #expect(report.outcome == .success)
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM repository_topics ORDER BY repository_id, topic_id") == [
                "[repository_id:1 topic_id:1]", "[repository_id:1 topic_id:2]", "[repository_id:2 topic_id:1]",
                "[repository_id:2 topic_id:2]",
            ])
        #expect(report.entities[0].counts.referencesResolved == 4)
    }

    /// A to-many with `inverse` and its to-one are two sides of one link: either side found
    /// is enough for a side without `from`, whether the parent nests the children or the
    /// children name their parent.
    @Test func eitherSideOfAnInverseLinkFindsIt() throws {
        let mapping = """
            seeder: 1
            entities:
              Project:
                attributes: { id: integer }
                relationships:
                  tasks: { to: Task, many: true, inverse: project }
              Task:
                attributes: { id: integer }
                relationships:
                  project: { to: Project }
            sources:
              - path: projects.json
                entity: Project
              - path: tasks.json
                entity: Task

            """
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", mapping)
        try workspace.write("dumps/projects.json", #"[{"id": 1}, {"id": 2}]"#)
        try workspace.write("dumps/tasks.json", #"[{"id": 10, "project_id": 1}, {"id": 11, "project_id": 2}]"#)
        #expect(workspace.build().messages(workspace) == [])
        #expect(try workspace.rows("SELECT id, project_id FROM task ORDER BY id") == ["[id:10 project_id:1]", "[id:11 project_id:2]"])
        try workspace.write("dumps/tasks.json", #"[{"id": 10, "projet_id": 1}]"#)
        // A typo on the children's side: neither side found its key.
        #expect(
            workspace.build().messages(workspace) == [
                "mapping.yaml:6:7: warning: Project.tasks: 'tasks', 'task_ids' or 'tasks_ids' matched no key in 2 records",
                "mapping.yaml:7:3: warning: 1 key is never mapped: Task.projet_id",
                "mapping.yaml:10:7: warning: Task.project: 'project' or 'project_id' matched no key in 1 record (did you mean 'projet_id'?)",
            ])
    }

    /// An identity attribute is not exempt: its records fail, and the warning says why.
    @Test func warnsAboutAnIdentityThatMatchedNothingBesideItsErrors() throws {
        let mapping = Self.repository("    identity: slug\n    attributes: { slug: string }\n")
        let (report, messages) = try Self.messages(mapping, #"[{"slg": "a"}]"#)
        #expect(report.outcome == .invalid)
        #expect(
            messages == [
                "dumps/repos.json:1:2: error: Repository: missing identity attribute 'slug'  [/0]",
                "mapping.yaml:3:3: warning: 1 key is never mapped: Repository.slg",
                "mapping.yaml:5:19: warning: Repository.slug: 'slug' matched no key in 1 record (did you mean 'slg'?)",
            ])
    }

    @Test func warnsAboutAnEntityThatGotNoRecordAndNothingElseAboutIt() throws {
        let mapping = Self.repository(
            "    attributes: { id: integer }\n",
            more: """
                  Comment:
                    ignore: [node_id]
                    attributes: { id: integer, body: string }

                """)
        let (report, messages) = try Self.messages(mapping, #"[{"id": 1}]"#)
        #expect(report.outcome == .success)
        #expect(messages == ["mapping.yaml:5:3: warning: Comment got no record from any source"])
    }

    /// `--strict` reports every one of these warnings as an error, with its usual message and
    /// code, and nothing besides.
    @Test func strictCountsEachKindAsAnError() throws {
        let cases = [
            (Self.repository("    attributes: { id: integer }\n"), #"[{"id": 1, "extra": 2}]"#),
            (Self.repository("    attributes: { id: integer, name: string }\n"), #"[{"id": 1}]"#),
            // An ignored key near a key the records have: a typo's warning (one near none is a note).
            (Self.repository("    ignore: [idd]\n    attributes: { id: integer }\n"), #"[{"id": 1}]"#),
            (Self.repository("    attributes: { id: integer }\n", more: "  Comment:\n    attributes: { id: integer }\n"), #"[{"id": 1}]"#),
        ]
        for (mapping, records) in cases {
            let (relaxed, warnings) = try Self.messages(mapping, records)
            #expect(relaxed.outcome == .success)
            #expect(relaxed.diagnostics.count == 1)
            let (strict, messages) = try Self.messages(mapping, records) { $0.strict = true }
            #expect(strict.outcome == .invalid)
            #expect(strict.output == nil)
            #expect(strict.diagnostics.map(\.code) == relaxed.diagnostics.map(\.code))
            #expect(strict.diagnostics.map(\.severity) == [.error])
            #expect(messages == warnings.map { $0.replacingOccurrences(of: ": warning: ", with: ": error: ") })
        }
    }
}
