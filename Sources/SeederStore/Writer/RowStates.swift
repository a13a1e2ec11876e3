import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// The values of rows recently inserted or merged, by identity, in a table of 4,096 entries
    /// that a newer row takes over: an occurrence that would change nothing in its row (graph's
    /// owners, embedded again and again as they are) is counted as merged without reading the
    /// row back. Every insert and merge of the entity remembers its row's values, so they are
    /// the row's whenever no occurrence of the identity waits (`upsert` sends one that does
    /// before it looks).
    final class RowStates {
        private static var size: Int { 4096 }
        // The writing thread's only: no run-time exclusivity checks.
        @exclusivity(unchecked) private var ids = [Int64?](repeating: nil, count: RowStates.size)
        @exclusivity(unchecked) private var values = [[Record.Field]](repeating: [], count: RowStates.size)

        private func slot(_ id: Int64) -> Int {
            Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> 52)
        }

        func remember(_ id: Int64, _ fields: [Record.Field]) {
            let slot = slot(id)
            ids[slot] = id
            values[slot] = fields
        }

        /// Whether merging `occurrence` into the row of `id`, as last remembered, would change
        /// nothing: each of its values absent, or the row's own (docs/mapping.md, Merging).
        func changesNothing(_ id: Int64, _ occurrence: UnsafePointer<Record>) -> Bool {
            let slot = slot(id)
            guard ids[slot] == id else { return false }
            let row = values[slot]
            let incoming = occurrence.pointee.fields
            guard row.count == incoming.count else { return false }
            for index in incoming.indices {
                guard case let .value(value) = incoming[index].value else { continue }
                guard case let .value(kept) = row[index].value, kept == value else { return false }
            }
            return true
        }
    }
}
