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
        /// New rows that go without a side row, waiting to go in together (`NewRow`).
        let newRows: BatchedInsert<NewRow>?
        /// A row and its side row by identity, as `decode` reads them.
        let select: SideRowLog.Statement
        let update: PreparedOnUse
        let updateSide: SideRowLog.Statement
        /// Per to-one: the update of its foreign key by the row's key, once `setForeignKey` has
        /// needed it. Prepared when first needed: a big mapping has tens of thousands of to-ones,
        /// most never set this way, and each statement prepared is memory (bench/README.md, Big
        /// mappings).
        private var foreignKeyUpdates: [RawStatement?]
        private let layout: RowLayout
        /// Occurrences waiting to go in, or merge, together (`PendingRows`); `nil` unless the
        /// entity can (`PendingRows.canBatch`).
        let pending: PendingRows?
        /// Consecutive occurrences of one batch that go in together (`RowRun`); `nil` unless
        /// the entity can (`RowRun.canRun`).
        let run: RowRun?

        init(layout: RowLayout, spill: SpillFile, spillBytes: Int, db: Database) {
            let columns = layout.dataColumns + layout.positionColumns.map(\.column)
            insert = PreparedOnUse(db: db) { SQLText.insert(into: layout.table, columns) }
            insertIfNew = PreparedOnUse(db: db) { SQLText.insert(into: layout.table, columns) + " ON CONFLICT DO NOTHING" }
            let sideRows = SideRowLog(layout: layout, spill: spill, spillBytes: spillBytes, db: db)
            self.sideRows = sideRows
            let positionColumns = layout.positionColumns.count
            newRows =
                layout.mayGoWithoutSideRow && !layout.entity.relationships.contains(where: \.isToMany)
                ? BatchedInsert(table: layout.table, columns: columns, db: db) { $0.bind(&$1, positionColumns: positionColumns) } : nil
            let selected =
                layout.sideColumns.map { "s.\(SQLText.quote($0))" } + layout.dataColumns.map { "t.\(SQLText.quote($0))" }
                + ["t.\"rowid\""]
            select = sideRows.statement(db: db) { side in
                "SELECT \(selected.joined(separator: ", ")) FROM \(layout.joined(side)) WHERE \(layout.keyCondition("t"))"
            }
            update = PreparedOnUse(db: db) { "UPDATE \(layout.table) SET \(SQLText.assignments(layout.dataColumns)) WHERE \"rowid\" = ?" }
            let sideUpdated = layout.maskColumns + ["_fields"]
            updateSide = sideRows.statement(db: db) { side in
                "UPDATE \(side) SET \(SQLText.assignments(sideUpdated)) WHERE \"_row\" = ?"
            }
            self.layout = layout
            foreignKeyUpdates = layout.foreignKeyColumns.map { _ in nil }
            pending =
                PendingRows.canBatch(layout)
                ? PendingRows(table: layout.table, sideRows: sideRows, columns: columns, db: db) : nil
            run = RowRun.canRun(layout) ? RowRun(table: layout.table, sideRows: sideRows, columns: columns, db: db) : nil
        }

        /// The update of to-one `relationship`'s foreign key, bound with its values then the
        /// row's key; `nil` for a to-many.
        func setForeignKey(_ relationship: Int, db: Database) throws -> RawStatement? {
            let columns = layout.foreignKeyColumns[relationship]
            guard !columns.isEmpty else { return nil }
            if let statement = foreignKeyUpdates[relationship] { return statement }
            let statement = RawStatement(
                try db.makeStatement(sql: "UPDATE \(layout.table) SET \(SQLText.assignments(columns)) WHERE \(layout.keyCondition())"))
            foreignKeyUpdates[relationship] = statement
            return statement
        }

        /// Inserts a new row (`identity: none`) at once, after the new rows waiting to go in
        /// before it (`newRows`), so that rowids keep source order.
        func insertNew(_ bind: (inout RawStatement.Binder) -> Void) throws {
            try newRows?.flush()
            try insert.execute(bind)
        }
    }
}
