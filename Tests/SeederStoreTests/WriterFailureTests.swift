import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// The write path failing part way through the load: an error of SQLite or of the spill file
/// comes out of the store as an error, and out of the build as its message, with no seed.
struct WriterFailureTests {
    static let mapping = """
        seeder: 1
        entities:
          User:
            attributes: { id: integer, name: string }
          Project:
            attributes: { id: integer, name: string }
            relationships:
              owner: { to: User }
              tasks: { to: Task, many: true, inverse: project, ordered: true }
          Task:
            attributes: { id: integer, name: string }
            relationships:
              project: { to: Project }
        sources:
          - path: projects.json
            entity: Project
        """

    /// Project `id` with its owner and ten tasks, as one line of JSON.
    static func project(_ id: Int) -> String {
        let tasks = (1...10).map { #"{"id": \#(id * 10 + $0), "name": "task \#(id * 10 + $0) of project \#(id)"}"# }
        let owner = #"{"id": \#(id % 7), "name": "user \#(id % 7)"}"#
        return #"{"id": \#(id), "name": "project \#(id)", "owner": \#(owner), "tasks": [\#(tasks.joined(separator: ", "))]}"#
    }

    /// A database that fills up while the store inserts (`max_page_count`, SQLite's own limit:
    /// no mount, no file size limit) makes `add` throw SQLite's error; nothing crashes, and the
    /// rows before it are in.
    @Test func aFullDatabaseMidLoadThrowsSQLitesError() throws {
        let harness = try StoreHarness(yaml: Self.mapping)
        try harness.withStore(
            prepare: { db in
                // The seed's tables as they are, and not one page more.
                let pages = try Int.fetchOne(db, sql: "PRAGMA main.page_count") ?? 0
                try db.execute(sql: "PRAGMA main.max_page_count = \(pages)")
            },
            body: { db, store in
                var added = 0
                let error = #expect(throws: DatabaseError.self) {
                    for id in 1...1000 {
                        try harness.add(Self.project(id), entity: 1, to: store)
                        added = id
                    }
                }
                #expect(error?.resultCode == .SQLITE_FULL)
                #expect(error?.message == "database or disk is full")
                // Part way: some projects went in before the database filled.
                #expect(added > 0 && added < 1000)
                let projects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM project") ?? 0
                #expect(projects >= added)
                #expect(harness.diagnostics.diagnostics.isEmpty)
            })
    }

    /// The spill file that side rows go to past `spillBytes` cannot be made (a directory is in
    /// its way, which the build's sweep of its temporary paths leaves): the build fails with the
    /// path and the system's reason, and leaves no seed.
    @Test func aSpillFileThatCannotBeWrittenFailsTheBuild() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.mapping)
        try workspace.write("dumps/projects.json", "[" + (1...5).map(Self.project).joined(separator: ",\n") + "]")
        let spill = Spill()
        let report = workspace.build { options in
            // Every side row through the spill file, from the first.
            options.sideRowBytesInMemory = 1
            options.willCreateTemporaries = { paths in
                let path = paths[3]
                #expect(path.hasSuffix("/.seed.sqlite.seeder-spill"))
                spill.path = path
                mkdir(path, 0o700)
            }
        }
        let path = try #require(spill.path)
        #expect(rmdir(path) == 0)
        #expect(report.outcome == .failed)
        #expect(report.messages(workspace) == ["error: cannot create .seed.sqlite.seeder-spill: Is a directory"])
        #expect(report.output == nil)
        #expect(workspace.files == ["dumps", "mapping.yaml"])
    }

    /// The spill path the build chose, as `willCreateTemporaries` saw it.
    private final class Spill: @unchecked Sendable {
        var path: String?
    }
}
