import GRDB

extension RowStore {
    /// How an entity's occurrences go in (a batch is one top-level record and the records
    /// embedded in it), decided once per entity from its identity, relationships and position
    /// columns; each queue of waiting rows sends what it holds when `WaitingOccurrences` says so.
    enum InsertPath {
        /// `identity: none`: a new row. One that needs no side row, of an entity with no
        /// to-many, waits with others in the `BatchedInsert` (`NewRow`); any other goes in at
        /// once, its key the rowid SQLite gives it. (`nil`: the entity's never wait.)
        case newRow(BatchedInsert<NewRow>?)
        /// One integer attribute, the table's rowid, and no relationship or position column
        /// (`PendingRows.canBatch`): waits in `PendingRows`, one entity at a time, and goes in
        /// with up to 31 others by one statement (`InsertIfNew`); those whose identity had a row
        /// then merge. One that repeats its row's last known values is only counted
        /// (`RowStates`). Its rows name no record, so it can wait across batches.
        case pending(PendingRows)
        /// The rowid otherwise (`RowRun.canRun`): consecutive occurrences of one batch wait in a
        /// `RowRun` and go in the same way. They stay in their batch because their merges and
        /// links name the batch's other records (a top-level record alone is a run of one).
        case run(RowRun)
        /// Any other identity: one `INSERT ... ON CONFLICT DO NOTHING`, and a merge when the
        /// identity had a row.
        case upsert

        init(layout: RowLayout, columns: [String], sideRows: SideRowLog, pool: StatementPool) {
            if layout.entity.identity == .none {
                let positionColumns = layout.positionColumns.count
                let batches = layout.mayGoWithoutSideRow && !layout.entity.relationships.contains(where: \.isToMany)
                self = .newRow(
                    batches
                        ? BatchedInsert(table: layout.table, columns: columns, pool: pool) {
                            $0.bind(&$1, positionColumns: positionColumns)
                        }
                        : nil)
            } else if PendingRows.canBatch(layout) {
                self = .pending(PendingRows(table: layout.table, sideRows: sideRows, columns: columns, pool: pool))
            } else if RowRun.canRun(layout) {
                self = .run(RowRun(table: layout.table, sideRows: sideRows, columns: columns, pool: pool))
            } else {
                self = .upsert
            }
        }
    }
}
