import Foundation
import GRDB
import SeederFiles
import SeederStore
import SeederTestSupport
import Testing

/// `seeder diff` and `seeder inspect` (docs/commands.md) on seeds built by the real binary from the examples
/// and from changed copies of their dumps in `Fixtures/diff/`.
struct DiffCommandTests {
    static let fixtures = repository + "/Tests/SeederCLITests/Fixtures/diff"

    /// A scratch directory holding `name.sqlite` for each build `(name, mapping, dumps, epoch)`.
    static func seeds(_ builds: [(String, String, String, String)]) async throws -> Workspace {
        let scratch = try Workspace()
        for (name, mapping, dumps, epoch) in builds {
            let run = try await seeder(
                ["build", mapping, dumps, "-o", scratch.root + "/\(name).sqlite", "--quiet"], environment: ["SOURCE_DATE_EPOCH": epoch])
            #expect(run.status == 0, "\(run.stderr)")
        }
        return scratch
    }

    /// The tasklist example as released (`v1`), rebuilt later (`v1-again`), and with changed dumps (`v2`).
    static func tasklistSeeds() async throws -> Workspace {
        try await seeds([
            ("v1", "mappings/tasklist.yaml", "seeds/tasklist", "1700000000"),
            ("v1-again", "mappings/tasklist.yaml", "seeds/tasklist", "1800000000"),
            ("v2", "mappings/tasklist.yaml", "seeds/tasklist-v2", "1700000000"),
        ])
    }

    @Test func listsChangedAddedAndRemovedRecordsAsText() async throws {
        let scratch = try await Self.tasklistSeeds()
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stderr == "")
        #expect(
            run.stdout == """
                entity   added  removed  changed  unchanged
                User         1        0        1          2
                Project      0        0        3          0
                Task         1        1        2          4

                User: 1 added, 1 changed
                  ~ User 3: name "Rachit Shukla"
                      email: null -> "rachit@restkit.org"
                  + User 4: name "Sam Ritchie"

                Project: 3 changed
                  ~ Project 123: name "Produce RestKit Sample Code"
                      task_count: 4 -> 3
                  ~ Project 456: name "Document Object Mapper"
                      description: "The object mapper could really use docs!" -> "The object mapper could really use docs, and a guide that wa…"
                  ~ Project 789: name "Wash the Cat"
                      task_count: 0 -> 1

                Task: 1 added, 1 removed, 2 changed
                  ~ Task 5: name "Write the code"
                      completed: 0 -> 1
                  - Task 7: name "Update the mailing list", completed 0, project_id 123, …
                  ~ Task 9
                      name: "Generate docs" -> "Generate the docs"
                      assigned_user_id: 2 -> 4
                  + Task 11: name "Buy shampoo", due_at "2011-08-01T00:00:00.000Z", completed 0, …

                sources
                  ~ task_list.json: contents changed; bytes 1,260 -> 1,353
                  ~ users.json: contents changed; bytes 188 -> 255, records 3 -> 4

                metadata
                  ~ inputs_sha256: 63cc717b8791c222f5c2ea51283f84c3efa8915360c9d9426fed73d029d2ae83 -> 3d8c3f4aa30e074721487852e50608109e958384e595009afe9fb04b1e3423c6

                the seeds differ: 2 added, 1 removed, 6 changed records

                """)
        #expect(try Self.documentedOutput(of: "seeder diff v1.sqlite v2.sqlite") == run.stdout, "docs/commands.md's example")
    }

    /// The output docs/commands.md shows after `$ command` in a code block, so that its examples
    /// are what the command prints.
    static func documentedOutput(of command: String) throws -> String {
        let docs = try String(contentsOfFile: repository + "/docs/commands.md", encoding: .utf8)
        let start = try #require(docs.range(of: "```console\n$ \(command)\n"), "no example of '\(command)'").upperBound
        let end = try #require(docs.range(of: "\n```\n", range: start..<docs.endIndex)).lowerBound
        return String(docs[start..<end]) + "\n"
    }

    @Test func printsOneJSONDocumentWithFullValues() async throws {
        let scratch = try await Self.tasklistSeeds()
        let run = try await seeder(
            ["diff", "v1.sqlite", "v2.sqlite", "--format", "json", "--entity", "Task", "--limit", "3"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                {"seeder":"\(SeedBuilder.version)","format":1,"command":"diff","old":"v1.sqlite","new":"v2.sqlite","same":false,
                "schema":[],"schemaNotListed":0,
                "metadata":[{"key":"inputs_sha256","old":"63cc717b8791c222f5c2ea51283f84c3efa8915360c9d9426fed73d029d2ae83","new":"3d8c3f4aa30e074721487852e50608109e958384e595009afe9fb04b1e3423c6"}],"metadataNotListed":0,
                "sources":[],"sourcesNotListed":2,
                "tables":[
                {"table":"task","name":"Task","role":"entity","pairing":"identity","reason":null,"key":["id"],"added":1,"removed":1,"changed":2,"unchanged":4,"records":[
                {"change":"changed","key":[5],"fields":{"completed":{"old":0,"new":1}}},
                {"change":"removed","key":[7],"fields":{"name":"Update the mailing list","due_at":null,"completed":0,"project_id":123,"assigned_user_id":3,"project_position":3}},
                {"change":"changed","key":[9],"fields":{"name":{"old":"Generate docs","new":"Generate the docs"},"assigned_user_id":{"old":2,"new":4}}}],"notListed":1}
                ]}

                """)
        // The example shows the version of its day.
        #expect(
            try Self.documentedOutput(of: "seeder diff v1.sqlite v2.sqlite --format json --entity Task --limit 3")
                == run.stdout.replacingOccurrences(of: #""seeder":"\#(SeedBuilder.version)""#, with: #""seeder":"0.1.0""#),
            "docs/commands.md's example")
        // One document that a JSON parser reads.
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(document["same"] as? Bool == false)
    }

    @Test func writesAMarkdownCommentWithCollapsedDetails() async throws {
        let scratch = try await Self.tasklistSeeds()
        let run = try await seeder(
            ["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown", "--entity", "User", "--entity", "Project", "--limit", "1"],
            in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                ### seeder diff: 1 added, 0 removed, 4 changed records

                `v1.sqlite` → `v2.sqlite`

                | entity | added | removed | changed | unchanged |
                |:--|--:|--:|--:|--:|
                | `User` | 1 | 0 | 1 | 2 |
                | `Project` | 0 | 0 | 3 | 0 |

                <details><summary><code>User</code>: 1 added, 1 changed</summary>

                - changed `User` `3` (`name` `"Rachit Shukla"`): `email` `null` → `"rachit@restkit.org"`
                - … 1 more not listed

                </details>

                <details><summary><code>Project</code>: 3 changed</summary>

                - changed `Project` `123` (`name` `"Produce RestKit Sample Code"`): `task_count` `4` → `3`
                - … 2 more not listed

                </details>

                **Sources**

                2 changed, not listed with --entity (sources are the whole seed's)

                **Metadata**

                - `inputs_sha256`: `63cc717b8791c222f5c2ea51283f84c3efa8915360c9d9426fed73d029d2ae83 -> 3d8c3f4aa30e074721487852e50608109e958384e595009afe9fb04b1e3423c6`

                """)
    }

    @Test func exitsZeroWhenOnlyTheMetadataDiffers() async throws {
        let scratch = try await Self.tasklistSeeds()
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: scratch.root + "/v1.sqlite"))
                != Data(contentsOf: URL(fileURLWithPath: scratch.root + "/v1-again.sqlite")))
        let run = try await seeder(["diff", "v1.sqlite", "v1-again.sqlite"], in: scratch.root)
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                entity   added  removed  changed  unchanged
                User         0        0        0          3
                Project      0        0        0          3
                Task         0        0        0          7

                metadata
                  ~ built_at: 2023-11-14T22:13:20Z -> 2027-01-15T08:00:00Z

                the seeds hold the same records

                """)
        let markdown = try await seeder(["diff", "v1.sqlite", "v1-again.sqlite", "--format", "markdown"], in: scratch.root)
        #expect(markdown.status == 0 && markdown.stdout.hasPrefix("### seeder diff: the seeds hold the same records\n"))
        let json = try await seeder(["diff", "v1.sqlite", "v1.sqlite", "--format", "json"], in: scratch.root)
        #expect(
            json.status == 0
                && json.stdout.hasPrefix(
                    #"{"seeder":"\#(SeedBuilder.version)","format":1,"command":"diff","old":"v1.sqlite","new":"v1.sqlite","same":true,"#
                        + "\n\"schema\":[],\"schemaNotListed\":0,\n\"metadata\":[],")
        )
    }

    @Test func exitsTwoWhenTheSeedsCannotBeCompared() async throws {
        let scratch = try await Self.tasklistSeeds()
        try "not a database".write(toFile: scratch.root + "/notes.sqlite", atomically: true, encoding: .utf8)
        let missing = try await seeder(["diff", "v1.sqlite", "v3.sqlite"], in: scratch.root)
        #expect(
            missing.status == 2 && missing.stdout == ""
                && missing.stderr == "v3.sqlite: error: cannot read this file: No such file or directory\n")
        let text = try await seeder(["diff", "notes.sqlite", "v1.sqlite"], in: scratch.root)
        #expect(text.status == 2 && text.stderr == "notes.sqlite: error: not an SQLite database\n")
        let directory = try await seeder(["diff", "v1.sqlite", "."], in: scratch.root)
        #expect(directory.status == 2 && directory.stderr == ".: error: cannot read this file: it is a directory, not a regular file\n")
        let entity = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--entity", "Usr"], in: scratch.root)
        #expect(entity.status == 64 && entity.stderr == "error: no entity or table named 'Usr' in either seed (did you mean 'User'?)\n")
        #expect(try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "yaml"], in: scratch.root).status == 64)
    }

    @Test func reportsSchemaChangesAbsentColumnsAndLinks() async throws {
        let scratch = try await Self.seeds([
            ("v1", "mappings/catalog.yaml", "seeds/catalog", "1700000000"),
            ("v2", Self.fixtures + "/catalog-v2.yaml", Self.fixtures + "/catalog-v2", "1700000000"),
        ])
        let run = try await seeder(["diff", "v1.sqlite", "v2.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        try assertSnapshot(run.stdout, named: "diff-catalog")
        let markdown = try await seeder(["diff", "v1.sqlite", "v2.sqlite", "--format", "markdown"], in: scratch.root)
        try assertSnapshot(markdown.stdout, named: "diff-catalog-markdown")
    }

    @Test func comparesAnySQLiteFileByPrimaryKeyOrAsRows() async throws {
        let scratch = try Workspace()
        for (name, sql) in [
            (
                "a",
                """
                CREATE TABLE t(a TEXT PRIMARY KEY, b);
                INSERT INTO t VALUES ('x', 1), ('y', 2), ('z', x'00ff'), (3, 'number key');
                CREATE TABLE log(m, n);
                INSERT INTO log VALUES ('a', 1), ('a', 1), ('b', 2);
                CREATE TABLE w(k INTEGER, j TEXT, v, PRIMARY KEY (k, j)) WITHOUT ROWID;
                INSERT INTO w VALUES (1, 'a', 1.5), (2, 'b', NULL);
                CREATE TABLE gone(id INTEGER PRIMARY KEY);
                INSERT INTO gone VALUES (1);
                """
            ),
            (
                "b",
                """
                CREATE TABLE t(a TEXT PRIMARY KEY, b, c);
                INSERT INTO t VALUES ('x', 1, NULL), ('y', 3, 'new'), ('z', x'00fe', NULL), ('Z', 4, NULL), (3, 'number key', NULL);
                CREATE TABLE log(m, n);
                INSERT INTO log VALUES ('a', 1), ('b', 2), ('c', 3);
                CREATE TABLE w(k INTEGER, j TEXT, v, PRIMARY KEY (k, j)) WITHOUT ROWID;
                INSERT INTO w VALUES (1, 'a', 1.5), (2, 'b', 2), (0, 'c', 0);
                """
            ),
        ] {
            let queue = try DatabaseQueue(path: scratch.root + "/\(name).db")
            try await queue.write { try $0.execute(sql: sql) }
        }
        let run = try await seeder(["diff", "a.db", "b.db"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                schema
                  - table gone
                  + column t.c

                entity  added  removed  changed  unchanged
                gone        0        1        0          0
                log         1        1        0          2
                t           1        0        2          2
                w           1        0        1          1

                gone: 1 removed
                  - gone 1

                log: 1 added, 1 removed (compared as whole rows: no primary key)
                  - row: m "a", n 1
                  + row: m "c", n 3

                t: 1 added, 2 changed
                  + t Z: b 4
                  ~ t y
                      b: 2 -> 3
                      c: absent -> "new"
                  ~ t z
                      b: <2 bytes, sha256 06eb7d6a69ee> -> <2 bytes, sha256 dcc3494d4980>

                w: 1 added, 1 changed
                  + w (0, c): v 0
                  ~ w (2, b)
                      v: null -> 2

                the seeds differ: 3 added, 2 removed, 3 changed records; 2 schema changes

                """)
    }

    @Test func inspectsASeed() async throws {
        let scratch = try await Self.seeds([("catalog", "mappings/catalog.yaml", "seeds/catalog", "1700000000")])
        let text = try await seeder(["inspect", "catalog.sqlite"], in: scratch.root)
        #expect(text.status == 0 && text.stderr == "")
        try assertSnapshot(
            text.stdout.replacingOccurrences(of: "sqlite_version  \(try sqliteVersion())", with: "sqlite_version  …"),
            named: "inspect-catalog")
        let json = try await seeder(["inspect", "catalog.sqlite", "--json"], in: scratch.root)
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["userVersion"] as? Int == 1 && document["applicationId"] as? Int == 0x5345_4544)
        let tables = try #require(document["tables"] as? [[String: Any]])
        #expect(
            tables.map { "\($0["name"]!) \($0["rows"]!) \($0["holds"]!)" } == [
                "category 2 Category", "image 3 Image", "product 3 Product", "product_related_products 2 Product.relatedProducts",
                "product_review 2 ProductReview", "product_review_products 3 ProductReview.products",
            ])
        let mapping = try #require(document["mapping"] as? [String: Any])
        #expect((mapping["entities"] as? [Any])?.count == 4)
        try assertSnapshot(
            json.stdout.replacingOccurrences(of: "\"sqlite_version\":\"\(try sqliteVersion())\"", with: "\"sqlite_version\":\"…\"")
                .replacingOccurrences(of: "{\"seeder\":\"\(SeedBuilder.version)\",", with: "{\"seeder\":\"…\","),
            named: "inspect-catalog-json")
    }

    @Test func refusesToInspectWhatIsNoSeed() async throws {
        let scratch = try Workspace()
        let queue = try DatabaseQueue(path: scratch.root + "/plain.db")
        try await queue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        let plain = try await seeder(["inspect", "plain.db"], in: scratch.root)
        #expect(plain.status == 2)
        #expect(
            plain.stderr
                == "plain.db: error: not a seed (application_id is 0x00000000, not 0x53454544 'SEED', and there is no seed_metadata)\n")
        let missing = try await seeder(["inspect", "none.sqlite"], in: scratch.root)
        #expect(missing.status == 2 && missing.stderr == "none.sqlite: error: cannot read this file: No such file or directory\n")
        // A seed's application_id without its seed_metadata: said as it is.
        let stripped = try DatabaseQueue(path: scratch.root + "/stripped.db")
        try await stripped.write { try $0.execute(sql: "PRAGMA application_id = 0x53454544; CREATE TABLE t(a)") }
        try stripped.close()
        let run = try await seeder(["inspect", "stripped.db"], in: scratch.root)
        #expect(run.status == 2)
        #expect(run.stderr == "stripped.db: error: not a seed (there is no seed_metadata)\n")
    }

    /// The SQLite library's version, which a seed records.
    func sqliteVersion() throws -> String {
        try DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") ?? "" }
    }
}
