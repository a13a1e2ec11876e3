import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Synchronization
import Testing

@testable import SeederStore

/// A seed of hundreds of tables (bench/README.md, Big mappings): its tables made without their
/// constraints, which SQLite walks at every `CREATE`, and given them once the indexes are made;
/// the indexes counted as they are made.
struct BigSchemaTests {
    @Test func aSeedOfHundredsOfTablesGetsEveryConstraintAndCountsItsIndexes() throws {
        let workspace = try Workspace.withDumps()
        let count = 300
        try workspace.write("mapping.yaml", WorkingPageSizeTests.chain(count, joined: true))
        for index in 0..<count {
            let next = index + 1 < count ? #", "next_id": \#(index + 1), "later_ids": [\#(index + 1)]"# : ""
            try workspace.write("dumps/k\(index).json", #"[{"id": \#(index), "name": "k\#(index)"\#(next)}]"#)
        }
        let indexing = Mutex<[BuildProgress.Parts?]>([])
        let report = workspace.build { options in
            options.progress = { progress in
                if progress.phase == .indexing { indexing.withLock { $0.append(progress.parts) } }
            }
        }
        #expect(report.outcome == .success)
        #expect(report.messages(workspace) == [])

        // Every table's text is what the mapping lays out, constraints and all.
        let layout = SeedLayout(mapping: try validMapping(WorkingPageSizeTests.chain(count, joined: true)))
        let seed = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        let made = try seed.read { db in
            try Row.fetchAll(db, sql: #"SELECT "name", "sql" FROM "sqlite_schema" WHERE "type" = 'table' AND "name" LIKE 'k%'"#)
                .map { [$0[0] as String, $0[1] as String] }
        }
        #expect(made.count == layout.schema.tables.count)
        #expect(Set(made) == Set(layout.schema.tables.map { [$0.name, SeedSchema.createTable($0)] }))
        #expect(made.first { $0[0] == "k0" }?[1].contains(#"FOREIGN KEY ("next_id") REFERENCES "k1"("id")"#) == true)
        #expect(made.first { $0[0] == "k0" }?[1].contains(#""name" TEXT NOT NULL"#) == true)
        #expect(try workspace.rows(#"SELECT * FROM "k0_later""#) == ["[k0_id:0 later_id:1]"])

        // The indexes the finish makes, the join tables', counted every 256 after the phase began.
        let finished = count - 1
        let counted = indexing.withLock { $0.map { $0.map { "\($0.done) of \($0.total) \($0.plural)" } } }
        #expect(counted == [nil, "256 of \(finished) indexes"])
        let indexes = try workspace.rows(#"SELECT COUNT(*) FROM "sqlite_schema" WHERE "type" = 'index' AND "sql" IS NOT NULL"#)
        #expect(indexes == ["[COUNT(*):\(layout.schema.indexes.count)]"])
    }
}
