import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// A seed holds no free page (docs/seed.md): a file that has some when its rows are final goes
/// through a vacuumed copy, which is checked, and is the one published (`FinishedFile.compact`).
struct FinishedFileTests {
    static let mapping = """
        seeder: 1
        entities:
          Note:
            identity: id
            onConflict: last
            attributes: { id: integer, body: string }
        sources:
          - path: notes.json
            entity: Note

        """

    /// A long body, then the same note with a short one: the merge frees the long one's
    /// overflow pages.
    static let notes = """
        [{"id": 1, "body": "\(String(repeating: "long ", count: 40_000))"}, {"id": 2, "body": "kept"},
         {"id": 1, "body": "short"}]
        """

    static func expectFinal(_ workspace: Workspace, _ file: String = "seed.sqlite") throws {
        #expect(try workspace.rows("PRAGMA freelist_count", in: file) == ["[freelist_count:0]"])
        #expect(try workspace.rows("PRAGMA integrity_check", in: file) == ["[integrity_check:\"ok\"]"])
        // Small: the long body's pages did not come along.
        #expect(try workspace.rows("SELECT page_count < 20 FROM pragma_page_count", in: file) == ["[page_count < 20:1]"])
    }

    @Test func mergesThatFreePagesShipAVacuumedCopy() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.mapping)
        try workspace.write("dumps/notes.json", Self.notes)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(try workspace.rows("SELECT id, body FROM note ORDER BY id") == [#"[id:1 body:"short"]"#, #"[id:2 body:"kept"]"#])
        try Self.expectFinal(workspace)
        // Only the output is left: the unvacuumed file and the copy's spare are gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.root).sorted() == ["dumps", "mapping.yaml", "seed.sqlite"])
    }

    /// An app's template that holds free pages (its tables were filled and emptied) gives a
    /// seed that holds none.
    @Test func aTemplateWithFreePagesIsVacuumed() throws {
        let workspace = try Workspace.withDumps()
        let template = try DatabaseQueue(path: workspace.path("app.sqlite"))
        try template.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
            try db.execute(sql: "CREATE TABLE scratch (x TEXT)")
            try db.execute(sql: "INSERT INTO scratch VALUES (?)", arguments: [String(repeating: "x", count: 200_000)])
            try db.execute(sql: "DELETE FROM scratch")
            #expect(try Int.fetchOne(db, sql: "PRAGMA freelist_count")! > 20)
        }
        try template.close()
        try workspace.write(
            "mapping.yaml", Self.mapping.replacingOccurrences(of: "seeder: 1\n", with: "seeder: 1\nschema: { template: app.sqlite }\n"))
        try workspace.write("dumps/notes.json", #"[{"id": 1, "body": "one"}, {"id": 2, "body": "two"}]"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(try workspace.rows("SELECT id, body FROM note ORDER BY id") == [#"[id:1 body:"one"]"#, #"[id:2 body:"two"]"#])
        #expect(try workspace.rows("SELECT count(*) FROM seed_metadata") == ["[count(*):6]"])
        try Self.expectFinal(workspace)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: workspace.root).sorted() == [
                "app.sqlite", "dumps", "mapping.yaml", "seed.sqlite",
            ])
    }
}
