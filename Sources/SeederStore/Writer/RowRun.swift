import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// Occurrences of an entity whose identity is its table's rowid that `PendingRows` cannot
    /// take (they have relationships or a position column), consecutive in one batch: graph's
    /// ten tasks of a project. They wait, up to `limit`, and go in by one `INSERT ... ON
    /// CONFLICT DO NOTHING` of as many rows, with their parents' keys and positions
    /// (`InsertIfNew`); those whose identity had a row already then merge into theirs, in
    /// order. Any other record of the batch, an identity already waiting, and the end of the
    /// batch send them first (`WaitingOccurrences`), so they go in and merge while the batch
    /// they name is at hand, and before the links of the batch are read: the store does what
    /// one insert or merge per occurrence would, in the same order, with fewer statements
    /// (bench/README.md).
    final class RowRun {
        static var limit: Int { InsertIfNew.limit }

        /// Whether `layout`'s occurrences can go in together.
        static func canRun(_ layout: RowLayout) -> Bool {
            InsertIfNew.identityIsRowid(layout) && !PendingRows.canBatch(layout)
        }

        private let inserts: InsertIfNew
        // The writing thread's only: no run-time exclusivity checks.
        /// The waiting occurrences, in order.
        @exclusivity(unchecked) private(set) var waiting: [Occurrence] = []

        /// A waiting occurrence: its index in the batch, its identity, and its parent's key,
        /// presence bit and position when it is a child (`RowStore.placement`). (A struct: an
        /// array of tuples was copied through the run time's generic tuple witnesses.)
        struct Occurrence {
            var index: Int
            var id: Int64
            var placement: Placement
        }

        init(table: String, sideRows: SideRowLog, columns: [String], pool: StatementPool) {
            inserts = InsertIfNew(table: table, sideRows: sideRows, columns: columns, pool: pool)
        }

        func add(_ index: Int, id: Int64, placement: Placement) {
            // Room for a whole run, made by the first occurrence that waits: an entity whose
            // occurrences never wait takes none.
            if waiting.capacity == 0 { waiting.reserveCapacity(Self.limit) }
            waiting.append(Occurrence(index: index, id: id, placement: placement))
        }

        func contains(_ id: Int64) -> Bool {
            waiting.contains { $0.id == id }
        }

        func removeAll() {
            waiting.removeAll(keepingCapacity: true)
        }

        /// Inserts every waiting row in one statement, each unless its identity has one; returns
        /// the identities whose row was there before.
        func insertAll(
            _ batch: UnsafeBufferPointer<Record>, encoded: UnsafeBufferPointer<RowEncoder.Encoded>, positionColumns: Int
        ) throws -> Set<Int64> {
            try inserts.insert(waiting.lazy.map(\.id)) { binder in
                for row in waiting.indices {
                    let index = waiting[row].index
                    NewRow.bind(
                        batch[index].fields, encoded[index].foreignKeys, parentKey: waiting[row].placement.parentKey,
                        position: waiting[row].placement.position, positionColumns: positionColumns, &binder)
                }
            }
        }
    }
}
