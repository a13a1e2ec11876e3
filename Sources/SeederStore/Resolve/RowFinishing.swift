import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The resolver's fourth stage, per entity: defaults for attributes no occurrence had, and errors
/// for `required` values still missing (docs/mapping.md, Attributes).
extension ReferenceResolver {
    /// Defaults for attributes no occurrence had; errors for required ones still missing.
    func finishRows(_ layout: RowLayout) throws {
        // `default: null` leaves the column NULL: nothing to fill, and never required.
        for (index, attribute) in layout.entity.attributes.enumerated() where attribute.defaultValue != .null {
            // (Asked first: a query would put every side row in its table, `SideRowLog`.)
            guard tables.someSideRowMayLack(layout, slot: layout.slot(attribute: index)) else { continue }
            let (mask, bit) = layout.maskBit(layout.slot(attribute: index))
            if let defaultValue = attribute.defaultValue {
                try db.execute(
                    sql: """
                        UPDATE \(layout.table) SET \(SQLText.quote(layout.attributeColumns[index])) = ?
                        WHERE "rowid" IN (SELECT "_row" FROM \(try tables.sideTable(of: layout)) WHERE \(SQLText.quote(mask)) & \(bit) = 0)
                        """, arguments: [defaultValue.databaseValue])
            } else if attribute.isRequired, !layout.entity.identityAttributes.contains(index) {
                // (An identity attribute is on every row: a record without its identity makes
                // none; looking would scan every row and its side row.)
                try reportMissing(
                    layout, condition: "s.\(SQLText.quote(mask)) & \(bit) = 0", required: attribute.name, because: attribute.requiredBy,
                    unlessReportedAt: layout.slot(attribute: index))
            }
        }
        for (index, relationship) in layout.entity.relationships.enumerated() where relationship.isRequired && !relationship.isToMany {
            let columns = layout.foreignKeyColumns[index]
            let condition = columns.map { "t.\(SQLText.quote($0)) IS NULL" }.joined(separator: " OR ")
            try reportMissing(layout, condition: condition, required: relationship.name, because: relationship.requiredBy)
        }
    }

    /// Reports each row that `condition` finds lacking the `required` attribute or to-one: at its
    /// record, or for a row `onMissing: create` made (`CreatedRows`), at the reference it was made
    /// for, naming it. With `slot`, a row whose slot stands away from its record is left out: a
    /// value stood there and the mapper reported it (a `null`, a value of the wrong type), once
    /// (docs/mapping.md, Attributes).
    func reportMissing(
        _ layout: RowLayout, condition: String, required name: String, because reason: String? = nil, unlessReportedAt slot: Int? = nil
    ) throws {
        var keys = layout.keyColumns.map { "t.\(SQLText.quote($0))" }
        var joined = layout.joinedInRowOrder(try tables.sideTable(of: layout))
        keys += ["s.\"_file\"", "s.\"_offset\""]
        let created = tally.counts[layout.entityIndex].rowsCreated > 0 ? CreatedRows(layout, ownerKeyCount: ownerKeyCount) : nil
        if let created {
            joined += " LEFT JOIN \(created.table) AS c ON \(created.matches("t", "c"))"
            keys += created.referenceColumns
        }
        let fieldsColumn = keys.count
        if slot != nil { keys.append("s.\"_fields\"") }
        var rows = try Row.fetchAll(
            db, sql: "SELECT \(keys.joined(separator: ", ")) FROM \(joined) WHERE \(condition) ORDER BY \(RowLayout.firstSeen)")
        if let slot { rows.removeAll { !RowLayout.isRowOrigin(ofSlot: slot, in: [UInt8]((($0[fieldsColumn] as Data?) ?? Data()))) } }
        let count = layout.keyColumns.count
        let origins: [(file: Int, offset: Int)] = rows.map { ($0[count], $0[count + 1]) }
        let pointers = self.pointers.pointers(origins.map { (tables.files[$0.file], $0.offset) })
        for (index, row) in rows.enumerated() {
            let key = (0..<count).map { row[$0] as DatabaseValue }
            var message = "\(label(layout, key: key)): '\(name)' is required, but no occurrence has it"
            if created != nil, let reference = createdRowReference(layout, key: key, in: row, from: count + 2) {
                message =
                    "\(reference), which no record provides; the row onMissing: create makes holds only its identity, "
                    + "but '\(name)' is required"
            }
            if let reason { message += " (\(reason))" }
            diagnostics.error(
                .required, message, at: location(file: origins[index].file, offset: origins[index].offset), jsonPath: pointers[index])
        }
    }
}
