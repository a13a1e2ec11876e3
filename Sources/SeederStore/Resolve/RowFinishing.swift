import Foundation
import GRDB
import SeederCore

/// The resolver's fourth stage, per entity: defaults for attributes no occurrence had, and errors
/// for `required` values still missing (docs/mapping.md, Attributes).
extension ReferenceResolver {
    /// Defaults for attributes no occurrence had; errors for required ones still missing.
    func finishRows(_ layout: RowLayout) throws {
        for (index, attribute) in layout.entity.attributes.enumerated() {
            // (Asked first: a query would put every side row in its table, `SideRowLog`.)
            guard store.someSideRowMayLack(layout, slot: layout.slot(attribute: index)) else { continue }
            let (mask, bit) = layout.maskBit(layout.slot(attribute: index))
            if let defaultValue = attribute.defaultValue {
                try db.execute(
                    sql: """
                        UPDATE \(layout.table) SET \(SQLText.quote(layout.attributeColumns[index])) = ?
                        WHERE "rowid" IN (SELECT "_row" FROM \(try store.sideTable(of: layout)) WHERE \(SQLText.quote(mask)) & \(bit) = 0)
                        """, arguments: [defaultValue.databaseValue])
            } else if attribute.isRequired, !layout.entity.identityAttributes.contains(index) {
                // (An identity attribute is on every row: a record without its identity makes
                // none; looking would scan every row and its side row.)
                try reportMissing(
                    layout, condition: "s.\(SQLText.quote(mask)) & \(bit) = 0",
                    what: "'\(attribute.name)' is required, but no occurrence has it")
            }
        }
        for (index, relationship) in layout.entity.relationships.enumerated() where relationship.isRequired && !relationship.isToMany {
            let columns = layout.foreignKeyColumns[index]
            let condition = columns.map { "t.\(SQLText.quote($0)) IS NULL" }.joined(separator: " OR ")
            try reportMissing(layout, condition: condition, what: "'\(relationship.name)' is required, but no occurrence has it")
        }
    }

    func reportMissing(_ layout: RowLayout, condition: String, what: String) throws {
        let keys = layout.keyColumns.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT \(keys), s."_file", s."_offset" FROM \(layout.joinedInRowOrder(try store.sideTable(of: layout)))
                WHERE \(condition) ORDER BY \(RowLayout.firstSeen)
                """)
        let count = layout.keyColumns.count
        let origins: [(file: Int, offset: Int)] = rows.map { ($0[count], $0[count + 1]) }
        let pointers = self.pointers.pointers(origins.map { (store.files[$0.file], $0.offset) })
        for (index, row) in rows.enumerated() {
            let key = (0..<count).map { row[$0] as DatabaseValue }
            diagnostics.error(
                "\(label(layout, key: key)): \(what)", at: location(file: origins[index].file, offset: origins[index].offset),
                jsonPath: pointers[index])
        }
    }
}
