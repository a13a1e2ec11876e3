import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The resolver's last stage, per entity after its rows are finished: `unique` attributes.
extension ReferenceResolver {
    /// `unique` attributes: each value on one row at most.
    func checkUnique(_ layout: RowLayout) throws {
        for (index, attribute) in layout.entity.attributes.enumerated() where attribute.isUnique {
            let column = SQLText.quote(layout.attributeColumns[index])
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT t.\(column), \(layout.keyColumns.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")),
                           s."_fields", s."_file", s."_offset"
                    FROM \(layout.joinedInRowOrder(try tables.sideTable(of: layout)))
                    WHERE t.\(column) IS NOT NULL AND t.\(column) IN (
                        SELECT \(column) FROM \(layout.table) WHERE \(column) IS NOT NULL GROUP BY \(column) HAVING COUNT(*) > 1)
                    ORDER BY t.\(column), \(RowLayout.firstSeen)
                    """)
            var first: [DatabaseValue: (String, SourceLocation)] = [:]
            for row in rows {
                let value = row[0] as DatabaseValue
                let key = layout.keyColumns.indices.map { row[1 + $0] as DatabaseValue }
                let here = origin(ofSlot: layout.slot(attribute: index), in: row, from: 1 + layout.keyColumns.count)
                if let (other, otherLocation) = first[value] {
                    let message = "\(label(layout, key: key)): '\(attribute.name)' \(SQLValue(value)) is not unique; \(other) has it too"
                    var diagnostic = Diagnostic.error(.unique, message, at: here)
                    diagnostic.relatedLocation = otherLocation
                    diagnostics.report(diagnostic)
                } else {
                    first[value] = (label(layout, key: key), here)
                }
            }
        }
    }
}
