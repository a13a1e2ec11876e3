import Foundation
import GRDB
import SeederTestSupport
import Testing

/// Where the binary reports a problem with a value: each problem
/// said once, at its value, and no warning that an error already explains (docs/mapping.md).
struct MessagePlacementTests {
    static func build(_ mapping: String, _ dumps: [String: String], _ arguments: [String] = []) async throws -> (Run, Workspace) {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        for (path, text) in dumps { try scratch.write("dumps/" + path, text) }
        return (try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"] + arguments, in: scratch.root), scratch)
    }

    static func failed(_ errors: Int, warnings: Int = 0) -> String {
        "build failed: \(errors) \(errors == 1 ? "error" : "errors"), \(warnings) \(warnings == 1 ? "warning" : "warnings"); nothing was written\n"
    }

    /// A required value that is `null`, `""` under `emptyAsNull` or of the wrong type is reported
    /// at it, once; a row whose occurrences all lack the key still is, at its record; a record
    /// whose identity failed makes no row to report.
    @Test func aRequiredValueThatFailsIsReportedOnlyAtIt() async throws {
        let (run, _) = try await Self.build(
            """
            seeder: 1
            entities:
              User:
                attributes:
                  id: integer
                  name: { type: string, required: true }
                  email: { type: string, required: true, emptyAsNull: true }
                  age: { type: integer, required: true }
            sources:
              - { path: users.json, entity: User }
            """,
            [
                "users.json": """
                [{"id": 1, "name": null, "email": "a", "age": 1},
                 {"id": 2, "name": "B", "email": "", "age": 2},
                 {"id": 3, "name": "C", "email": "c", "age": "x"},
                 {"id": 4, "email": "d", "age": 4},
                 {"id": 5, "email": "e", "age": 5}, {"id": 5, "name": null},
                 {"id": null, "name": null, "email": "f", "age": 6}]
                """
            ])
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                dumps/users.json:1:20: error: User 1: 'name' is null, but it is required  [/0/name]
                dumps/users.json:2:34: error: User 2: 'email' is "" (null by 'emptyAsNull'), but it is required  [/1/email]
                dumps/users.json:3:46: error: User 3: 'age' is "x", expected integer  [/2/age]
                dumps/users.json:5:55: error: User 5: 'name' is null, but it is required  [/5/name]
                dumps/users.json:6:9: error: User: 'id' is null, but it is required  [/6/id]
                dumps/users.json:6:23: error: User: 'name' is null, but it is required  [/6/name]
                dumps/users.json:4:2: error: User 4: 'name' is required, but no occurrence has it  [/3]

                """ + Self.failed(7))
    }

    /// An identity's `""` under `emptyAsNull`, or `null`, is reported at the value even under
    /// `nulls: absent`, as the required-null message, not as a missing identity at the record.
    @Test func anEmptyIdentityIsReportedAtItsValue() async throws {
        let (run, _) = try await Self.build(
            """
            seeder: 1
            nulls: absent
            entities:
              User:
                identity: login
                attributes:
                  login: { type: string, emptyAsNull: true }
                  name: string
            sources:
              - { path: users.json, entity: User }
              - { path: ids.json, entity: User }
            """,
            ["users.json": #"[{"login": "a"}, {"name": "B", "login": ""}, {"login": null}, {"name": "D"}]"#, "ids.json": #"["c", ""]"#])
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                dumps/users.json:1:41: error: User: 'login' is "" (null by 'emptyAsNull'), but it is required  [/1/login]
                dumps/users.json:1:56: error: User: 'login' is null, but it is required  [/2/login]
                dumps/users.json:1:63: error: User: missing identity attribute 'login'  [/3]
                dumps/ids.json:1:7: error: User: 'login' is "" (null by 'emptyAsNull'), but it is required  [/1]

                """ + Self.failed(4))
    }

    static let onMissingMapping = """
        seeder: 1
        onMissing: create
        entities:
          Post:
            attributes: { id: integer }
            relationships:
              author: { to: Author }
              tags: { to: Tag, many: true }
          Author:
            identity: handle
            attributes: { handle: string }
          Tag:
            emptyAsNull: true
            identity: slug
            attributes: { slug: string }
        sources:
          - { path: posts.json, entity: Post }
        """

    /// `onMissing: create` makes no row of `""`: an error at the reference, unless the target's
    /// identity reads `""` as null (then no link); a record's own `""` identity still resolves.
    @Test func onMissingCreateMakesNoRowOfAnEmptyId() async throws {
        let (run, scratch) = try await Self.build(
            Self.onMissingMapping,
            ["posts.json": #"[{"id": 1, "author_id": "", "tag_ids": ["a", ""]}, {"id": 2, "author_id": "bo", "tags": ""}]"#])
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                dumps/posts.json:1:25: error: Post 1 references Author "" (author), which no record provides; \
                onMissing: create cannot make it: 'handle' is "", which is not an id  [/0/author_id]

                """ + Self.failed(1))
        // `emptyAsNull` on the document: the author's `""` is no link, and no row.
        let nulls = Self.onMissingMapping.replacingOccurrences(of: "onMissing: create\n", with: "onMissing: create\nemptyAsNull: true\n")
        try scratch.write("mapping.yaml", nulls)
        let built = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--quiet"], in: scratch.root)
        #expect(built.status == 0)
        #expect(built.stderr == "")
        let rows = try await DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in
            try ["post", "author", "tag", "post_tags"].map { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid").map(\.description).joined(separator: " ")
            }
        }
        #expect(rows == [#"[id:1 author_id:NULL] [id:2 author_id:"bo"]"#, #"[handle:"bo"]"#, #"[slug:"a"]"#, #"[post_id:1 tag_id:"a"]"#])
        // A record whose identity is "" is one: a reference to it resolves.
        try scratch.write("mapping.yaml", Self.onMissingMapping + "\n  - { path: authors.json, entity: Author }\n")
        try scratch.write("dumps/authors.json", #"[{"handle": ""}]"#)
        let resolved = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--quiet"], in: scratch.root)
        #expect(resolved.status == 0)
        #expect(resolved.stderr == "")
    }

    /// A source `keyPath` that reaches nothing in a whole file is located at the first place that
    /// lacks it, as other errors in a dump are.
    @Test func aKeyPathThatReachesNothingIsLocatedInItsFile() async throws {
        let (run, _) = try await Self.build(
            """
            seeder: 1
            entities:
              Pod:
                attributes: { id: integer }
            sources:
              - { path: page.json, entity: Pod, keyPath: result }
              - { path: list.json, entity: Pod, keyPath: result }
              - { path: lines.ndjson, entity: Pod, keyPath: data.pods }
            """,
            [
                "page.json": "\n  {\"results\": [{\"id\": 1}]}", "list.json": #"[{"x": 1}, {"y": 2}]"#,
                "lines.ndjson": "{\"data\": {\"pod\": 1}}\n{\"data\": 7}\n",
            ])
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                dumps/page.json:2:3: error: keyPath 'result' reaches nothing in this file: no 'result' at /
                dumps/list.json:1:2: error: keyPath 'result' reaches nothing in this file: 2 places lack 'result', the first at /0
                dumps/lines.ndjson:1:10: error: keyPath 'data.pods' reaches nothing in this file: 2 places lack 'pods', the first at /data

                """ + Self.failed(3))
    }

    /// No warning about an entity whose records an error dropped with their parent's, nor about
    /// keys that bare ids (which hold none) did not match.
    @Test func noWarningThatAnErrorOrABareIdExplains() async throws {
        let (run, scratch) = try await Self.build(
            """
            seeder: 1
            entities:
              Project:
                attributes: { id: integer }
                relationships:
                  tasks: { to: Task, many: true }
              Task:
                attributes: { id: integer, title: string }
              Pod:
                attributes: { id: integer, name: string }
            sources:
              - { path: projects.json, entity: Project }
              - { path: pods.json, entity: Pod }
            """,
            [
                "projects.json": #"[{"id": 1, "tasks": {"id": 2, "title": "x"}}, [{"id": 3, "tasks": [{"id": 4, "title": "y"}]}]]"#,
                "pods.json": #"["a", "b"]"#,
            ])
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                dumps/projects.json:1:21: error: Project 1: 'tasks' is a to-many; expected an array, found an object  [/0/tasks]
                dumps/projects.json:1:47: error: expected a record (an object) for Project, found an array  [/1]
                dumps/pods.json:1:2: error: Pod: 'id' is "a", expected integer  [/0]
                dumps/pods.json:1:7: error: Pod: 'id' is "b", expected integer  [/1]

                """ + Self.failed(4))
        // Good bare ids: no warning either, even with --strict.
        try scratch.write("dumps/pods.json", "[1699, 1455]")
        try scratch.write("dumps/projects.json", #"[{"id": 1, "tasks": [{"id": 2, "title": "x"}]}]"#)
        let strict = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--quiet", "--strict"], in: scratch.root)
        #expect(strict.stderr == "")
        #expect(strict.status == 0)
    }
}
