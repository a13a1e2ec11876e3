import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// The statements of one entity's rows (a class: the store reads them per record, and a
    /// struct of statements would retain and release each one).
    final class EntityStatements {
        /// A new row (`identity: none`), run through `insertNew`.
        private let insert: PreparedOnUse
        /// A row unless its identity has one.
        let insertIfNew: PreparedOnUse
        /// Side rows of rows inserted, logged until something reads their table.
        let sideRows: SideRowLog
        /// How the entity's occurrences go in, decided once from its layout.
        let path: InsertPath
        /// A row and its side row by identity, as `decode` reads them.
        let select: SideRowLog.Statement
        let update: PreparedOnUse
        let updateSide: SideRowLog.Statement
        /// Per to-one: the update of its foreign key by the row's key (`setForeignKey`); `nil`
        /// for a to-many. A big mapping has tens of thousands of to-ones, most never set this
        /// way.
        private let foreignKeyUpdates: [PreparedOnUse?]

        init(layout: RowLayout, spill: SpillFile, spillBytes: Int, pool: StatementPool) {
            let columns = layout.dataColumns + layout.positionColumns.map(\.column)
            insert = pool.statement { SQLText.insert(into: layout.table, columns) }
            insertIfNew = pool.statement { SQLText.insert(into: layout.table, columns) + " ON CONFLICT DO NOTHING" }
            let sideRows = SideRowLog(layout: layout, spill: spill, spillBytes: spillBytes, pool: pool)
            self.sideRows = sideRows
            path = InsertPath(layout: layout, columns: columns, sideRows: sideRows, pool: pool)
            // The SQL is made when the statement is prepared, from the layout: texts made now
            // and captured would be kept for every entity of a big mapping (bench/README.md).
            select = sideRows.statement(pool: pool) { side in
                let selected =
                    layout.sideColumns.map { "s.\(SQLText.quote($0))" } + layout.dataColumns.map { "t.\(SQLText.quote($0))" }
                    + ["t.\"rowid\""]
                return "SELECT \(selected.joined(separator: ", ")) FROM \(layout.joined(side)) WHERE \(layout.keyCondition("t"))"
            }
            update = pool.statement { "UPDATE \(layout.table) SET \(SQLText.assignments(layout.dataColumns)) WHERE \"rowid\" = ?" }
            let sideUpdated = layout.maskColumns + ["_fields"]
            updateSide = sideRows.statement(pool: pool) { side in
                "UPDATE \(side) SET \(SQLText.assignments(sideUpdated)) WHERE \"_row\" = ?"
            }
            foreignKeyUpdates = layout.foreignKeyColumns.map { columns in
                columns.isEmpty
                    ? nil
                    : pool.statement { "UPDATE \(layout.table) SET \(SQLText.assignments(columns)) WHERE \(layout.keyCondition())" }
            }
        }

        /// The new rows that wait to go in together, if the entity's do (`InsertPath.newRow`).
        var newRows: BatchedInsert<NewRow>? {
            if case let .newRow(newRows) = path { return newRows }
            return nil
        }

        /// The occurrences that wait in a `PendingRows`, if the entity's do.
        var pending: PendingRows? {
            if case let .pending(pending) = path { return pending }
            return nil
        }

        /// The occurrences that wait in a `RowRun`, if the entity's do.
        var run: RowRun? {
            if case let .run(run) = path { return run }
            return nil
        }

        /// The update of to-one `relationship`'s foreign key, bound with its values then the
        /// row's key; `nil` for a to-many.
        func setForeignKey(_ relationship: Int) -> PreparedOnUse? {
            foreignKeyUpdates[relationship]
        }

        /// Inserts a new row (`identity: none`) at once, after the new rows waiting to go in
        /// before it (`newRows`), so that rowids keep source order.
        func insertNew(_ bind: (inout RawStatement.Binder) -> Void) throws {
            try newRows?.flush()
            try insert.execute(bind)
        }
    }
}
