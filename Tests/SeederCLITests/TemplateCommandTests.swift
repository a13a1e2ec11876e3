import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `schema: { template }` through the real binary (docs/mapping.md, Fitting the app's own
/// schema): exit 1 for what does not fit, 2 for a template that cannot be read; the template is
/// never the output; `inspect` and `diff` read the seed although it keeps the app's
/// application_id.
struct TemplateCommandTests {
    static let mapping = """
        seeder: 1
        schema: { template: app.sqlite }
        entities:
          Author:
            identity: remoteId
            attributes: { remoteId: string, name: { type: string, required: true }, born: { type: date, storage: unixepoch_ms } }
        sources:
          - path: authors.json
            entity: Author

        """

    static func scratch() throws -> Workspace {
        let scratch = try Workspace(directories: ["dumps"])
        let queue = try DatabaseQueue(path: scratch.path("app.sqlite"))
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE author (id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
                                         born INTEGER);
                    PRAGMA application_id = 42;
                    """)
        }
        try queue.close()
        try scratch.write("mapping.yaml", mapping)
        try scratch.write(
            "dumps/authors.json",
            #"[{"remoteId": "a9", "name": "Ursula", "born": "1929-10-21T00:00:00Z"}, {"remoteId": "a1", "name": "Iain"}]"#)
        return scratch
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func buildsInspectsAndDiffsASeedOfTheAppsSchema() async throws {
        let scratch = try Self.scratch()
        let built = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite", "--quiet"], in: scratch.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr == "")
        let rows = try await DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in
            (
                try Row.fetchAll(db, sql: "SELECT * FROM author ORDER BY id").map(\.description),
                try Int.fetchOne(db, sql: "PRAGMA application_id")
            )
        }
        #expect(rows.0 == [#"[id:1 remote_id:"a9" name:"Ursula" born:-1268524800000]"#, #"[id:2 remote_id:"a1" name:"Iain" born:NULL]"#])
        #expect(rows.1 == 42)

        let inspected = try await seeder(["inspect", "seed.sqlite"], in: scratch.root)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.hasSuffix("tables\n  table   rows  holds\n  author     2  Author\n"), "\(inspected.stdout)")

        // Iain first: each author's id changes, no record does.
        try scratch.write(
            "dumps/authors.json",
            #"[{"remoteId": "a1", "name": "Iain"}, {"remoteId": "a9", "name": "Ursula", "born": "1929-10-21T00:00:00Z"}]"#)
        #expect(try await seeder(["build", "mapping.yaml", "dumps", "-o", "again.sqlite", "--quiet"], in: scratch.root).status == 0)
        let same = try await seeder(["diff", "seed.sqlite", "again.sqlite"], in: scratch.root)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.hasSuffix("the seeds hold the same records\n"), "\(same.stdout)")
    }

    @Test func aMappingThatDoesNotFitExitsWith1() async throws {
        let scratch = try Self.scratch()
        try scratch.write("mapping.yaml", Self.mapping.replacingOccurrences(of: ", storage: unixepoch_ms", with: ""))
        let run = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                mapping.yaml:6:77: error: attribute 'born' is stored as TEXT, which does not suit column 'born' (INTEGER, INTEGER affinity) of table 'author': choose 'storage: unixepoch_ms' (milliseconds since 1970, as Room's converters store them)
                ...{ remoteId: string, name: { type: string, required: true }, born: { type: date } }
                                                                               ^
                build failed: 1 error, 0 warnings; nothing was written

                """)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("seed.sqlite")))
    }

    @Test func aMissingTemplateExitsWith2WithTheSystemsReason() async throws {
        let scratch = try Self.scratch()
        try scratch.write("mapping.yaml", Self.mapping.replacingOccurrences(of: "template: app.sqlite", with: "template: gone.sqlite"))
        let run = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr == """
                mapping.yaml:2:21: error: cannot read the template 'gone.sqlite': No such file or directory
                schema: { template: gone.sqlite }
                                    ^
                build failed: 1 error, 0 warnings; nothing was written

                """)
    }

    @Test func aTemplateThatIsNotSQLiteExitsWith1() async throws {
        let scratch = try Self.scratch()
        try scratch.write("app.sqlite", "CREATE TABLE author (id INTEGER);\n")
        let run = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "mapping.yaml:2:21: error: the template 'app.sqlite' is not a SQLite database: it does not begin with SQLite's header\n"))
    }

    /// A template whose text is UTF-16 cannot hold a seed built in UTF-8: an error at `schema:`,
    /// exit 1, not SQLite's unlocated refusal to attach it.
    @Test(arguments: ["UTF-16le", "UTF-16be"])
    func aTemplateInUTF16ExitsWith1(_ encoding: String) async throws {
        let scratch = try Self.scratch()
        try FileManager.default.removeItem(atPath: scratch.path("app.sqlite"))
        let queue = try DatabaseQueue(path: scratch.path("app.sqlite"))
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA encoding = '\(encoding)'")
            try db.execute(
                sql: "CREATE TABLE author (id INTEGER PRIMARY KEY AUTOINCREMENT, remote_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, "
                    + "born INTEGER)")
        }
        try queue.close()
        let run = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                mapping.yaml:2:21: error: the template 'app.sqlite' stores its text as \(encoding); seeder builds seeds in UTF-8, SQLite's default: make the template with PRAGMA encoding = 'UTF-8'
                schema: { template: app.sqlite }
                                    ^
                build failed: 1 error, 0 warnings; nothing was written

                """)
    }

    /// The output may not be the template, even with --force, whichever path names it.
    @Test(arguments: ["app.sqlite", "./app.sqlite", "link.sqlite"])
    func theTemplateIsNeverTheOutput(_ output: String) async throws {
        let scratch = try Self.scratch()
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.sqlite"), withDestinationPath: scratch.path("app.sqlite"))
        let before = try Self.bytes(scratch.path("app.sqlite"))
        let run = try await seeder(["build", "mapping.yaml", "dumps", "-o", output, "--force"], in: scratch.root)
        #expect(run.status == 2)
        #expect(
            run.stderr == """
                error: the output \(output) is the app's schema that the mapping's 'schema:' names
                build failed: 1 error, 0 warnings; nothing was written

                """)
        #expect(try Self.bytes(scratch.path("app.sqlite")) == before)
        #expect(scratch.files == ["app.sqlite", "dumps", "link.sqlite", "mapping.yaml"])
    }
}
