import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// A row's values as bound: the record's, with its parent's key and its position when it
    /// is a child inserted with them. New rows of an entity with `identity: none` and no
    /// to-many that go without a side row (`RowEncoder.Encoded.hasSide`), nested dumps' leaf
    /// children like pages' urls, wait in a `BatchedInsert`: nothing reads their key. Any other
    /// insert into their table sends them first, so rowids keep source order.
    struct NewRow {
        var record: Record
        var encoded: RowEncoder.Encoded
        var parentKey: (start: Int, values: [SQLValue])?
        var position: (column: Int, value: Int)?

        func bind(_ binder: inout RawStatement.Binder, positionColumns: Int) {
            Self.bind(
                record.fields, encoded.foreignKeys, parentKey: parentKey, position: position, positionColumns: positionColumns,
                &binder)
        }

        /// Binds a row's values, from its record's fields and its encoded foreign keys, without
        /// making it a `NewRow`: a copy of the record would retain and release each of its arrays
        /// and strings.
        static func bind(
            _ fields: [Record.Field], _ foreignKeys: [SQLValue], parentKey: (start: Int, values: [SQLValue])?,
            position: (column: Int, value: Int)?, positionColumns: Int, _ binder: inout RawStatement.Binder
        ) {
            RowEncoder.forEachDataValue(fields, foreignKeys, replacing: parentKey) { binder.bind($0) }
            for column in 0..<positionColumns {
                if let position, position.column == column { binder.bind(Int64(position.value)) } else { binder.bind(SQLValue.null) }
            }
        }
    }
}
