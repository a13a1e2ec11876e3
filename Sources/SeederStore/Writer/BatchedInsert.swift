import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// Rows that go in `batch` at a time, by one `INSERT` of that many rows: SQLite's work per
    /// statement run (binding aside) is paid once per batch instead of once per row
    /// (bench/README.md). A waiting row must be in its table before anything reads the table or inserts into it otherwise: `flush`.
    final class BatchedInsert<Row> {
        static var batch: Int { 32 }
        private let many: PreparedOnUse
        private let one: PreparedOnUse
        private let bind: (Row, inout RawStatement.Binder) -> Void
        // Used by the writing thread only: no run-time exclusivity checks.
        @exclusivity(unchecked) private var waiting: [Row] = []

        /// Inserts into `table`'s `columns`, each row's values bound by `bind`.
        init(table: String, columns: [String], pool: StatementPool, bind: @escaping (Row, inout RawStatement.Binder) -> Void) {
            many = pool.statement { SQLText.insert(into: table, columns, rows: Self.batch) }
            one = pool.statement { SQLText.insert(into: table, columns) }
            self.bind = bind
        }

        func add(_ row: Row) throws {
            waiting.append(row)
            guard waiting.count == Self.batch else { return }
            try many.execute { binder in
                for index in waiting.indices { bind(waiting[index], &binder) }
            }
            waiting.removeAll(keepingCapacity: true)
        }

        /// Inserts every waiting row.
        func flush() throws {
            guard !waiting.isEmpty else { return }
            for index in waiting.indices {
                try one.execute { bind(waiting[index], &$0) }
            }
            waiting.removeAll(keepingCapacity: true)
        }
    }
}
