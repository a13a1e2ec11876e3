import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// Occurrences of an entity whose identity is its table's rowid (one integer attribute) and
    /// that has no relationship and no position column: their rows are nothing but attributes, and
    /// nothing reads their table while the load runs but their own merges. They wait, up to
    /// `batch`, and go in by one `INSERT ... ON CONFLICT DO NOTHING` of as many rows (`InsertIfNew`;
    /// bench/README.md).
    /// Those whose identity had a row already then merge into theirs, in order, as they would have
    /// at once. One entity's occurrences wait at a time, and a message of the build, any other
    /// merge or an identity already waiting sends them first (`WaitingOccurrences`), so rows, rowids,
    /// merges and messages come in source order whether they waited or not.
    final class PendingRows {
        static var batch: Int { InsertIfNew.limit }

        /// Whether `layout`'s occurrences can wait here.
        static func canBatch(_ layout: RowLayout) -> Bool {
            InsertIfNew.identityIsRowid(layout) && layout.entity.relationships.isEmpty && layout.positionColumns.isEmpty
        }

        private let inserts: InsertIfNew
        /// The rows' last known values, once the entity has merged an occurrence.
        let states = RowStates()
        // The writing thread's only: no run-time exclusivity checks.
        @exclusivity(unchecked) private(set) var records: [Record] = []
        @exclusivity(unchecked) private(set) var rows: [RowEncoder.Encoded] = []
        @exclusivity(unchecked) private(set) var ids: [Int64] = []

        init(table: String, sideRows: SideRowLog, columns: [String], pool: StatementPool) {
            inserts = InsertIfNew(table: table, sideRows: sideRows, columns: columns, pool: pool)
            records.reserveCapacity(Self.batch)
            rows.reserveCapacity(Self.batch)
            ids.reserveCapacity(Self.batch)
        }

        func add(_ record: UnsafePointer<Record>, row: UnsafePointer<RowEncoder.Encoded>, id: Int64) {
            records.append(record.pointee)
            rows.append(row.pointee)
            ids.append(id)
        }

        func removeAll() {
            records.removeAll(keepingCapacity: true)
            rows.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
        }

        /// Inserts every waiting row in one statement, each unless its identity has one; returns
        /// the identities whose row was there before.
        func insertAll() throws -> Set<Int64> {
            try records.withUnsafeBufferPointer { records in
                try inserts.insert(ids) { binder in
                    for index in records.indices {
                        NewRow.bind(
                            records[index].fields, rows[index].foreignKeys, parentKey: nil, position: nil, positionColumns: 0,
                            &binder)
                    }
                }
            }
        }
    }
}
