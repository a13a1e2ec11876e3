import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// What a run decides before its load about the file its rows go into (`Publication`): which of
/// the seed's indexes it gets, and whether its sync may begin once the rows are in
/// (`FileSync`).
struct PublicationTests {
    static let mapping = """
        seeder: 1
        entities:
          User:
            attributes: { id: integer, name: string }
          Task:
            attributes: { id: integer }
            relationships:
              user: { to: User }
        sources:
          - path: tasks.json
            entity: Task

        """

    /// A published seed gets every index of docs/seed.md; a validation, and rows copied into the
    /// app's own schema, none (nothing reads them there).
    @Test func onlyASeedPublishedAsItIsGetsItsIndexesAndAnEarlySync() throws {
        let workspace = try Workspace.withDumps()
        let template = try DatabaseQueue(path: workspace.path("app.sqlite"))
        try template.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE "user" ("id" INTEGER PRIMARY KEY, "name" TEXT);
                    CREATE TABLE "task" ("id" INTEGER PRIMARY KEY, "user_id" INTEGER REFERENCES "user"("id"));
                    CREATE INDEX "task_user" ON "task"("user_id");
                    """)
        }
        try template.close()
        let plain = try validMapping(Self.mapping)
        let layout = SeedLayout(mapping: plain)
        #expect(layout.schema.indexes.map(\.name) == ["task_user_id_index"])

        let built = Publication(layout: layout, fit: nil, writesOutput: true)
        // A to-one's index is built by the resolver, which checks its references through it;
        // the finish builds none again.
        #expect(built.checkedIndexes.values.map(\.name) == ["task_user_id_index"])
        #expect(built.finishedIndexes.isEmpty)
        #expect(built.earlySync != nil)
        let validated = Publication(layout: layout, fit: nil, writesOutput: false)
        #expect(validated.checkedIndexes.isEmpty && validated.finishedIndexes.isEmpty)
        #expect(validated.earlySync == nil)

        var fittedMapping = try validMapping(
            Self.mapping.replacingOccurrences(of: "seeder: 1\n", with: "seeder: 1\nschema: { template: app.sqlite }\n"))
        var options = BuildOptions(mapping: workspace.path("mapping.yaml"), dumps: workspace.path("dumps"))
        options.writesOutput = true
        let fit = try #require(try SeedBuilder.fitSchema(&fittedMapping, options: options, diagnostics: DiagnosticSink()))
        let fitted = Publication(layout: SeedLayout(mapping: fittedMapping), fit: fit, writesOutput: true)
        #expect(fitted.checkedIndexes.isEmpty && fitted.finishedIndexes.isEmpty)
        #expect(fitted.earlySync == nil)
    }
}

/// The sync begun once a seed's rows are in (`FileSync`): its failure is the build's, reported
/// by the checks that wait for it, with the path and the system's reason.
struct FileSyncTests {
    @Test func aFailedEarlySyncFailsTheChecks() throws {
        let workspace = try Workspace.withDumps()
        let queue = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: #"CREATE TABLE "note" ("id" INTEGER PRIMARY KEY, "body" TEXT)"#)
            try db.execute(sql: "BEGIN")
            try db.execute(sql: #"INSERT INTO "note" VALUES (1, 'one')"#)
            try RawSQLite.flushCache(db)
            let synced = FileSync(workspace.path("seed.sqlite"))
            try db.execute(sql: "COMMIT")
            #expect(throws: Never.self) { try SeedChecks.check(db, after: synced) }

            let missing = workspace.path("gone/seed.sqlite")
            let failed = FileSync(missing)
            do {
                try SeedChecks.check(db, after: failed)
                Issue.record("a failed sync passed the checks")
            } catch let error as OutputError {
                #expect(error.description == "cannot open \(missing): No such file or directory")
            }
        }
    }
}
