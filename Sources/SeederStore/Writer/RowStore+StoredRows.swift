import Foundation
import GRDB
import SeederCore
import SeederFiles

extension RowStore {
    /// The row of an identity and its rowid, as a record the merger can take.
    func storedRecord(_ layout: RowLayout, key: [SQLValue], identity: IdentityKey?) throws -> (Record, Int64)? {
        var found: (Record, Int64)?
        try statements[layout.entityIndex].select.forEachRow(
            { binder in
                for value in key { binder.bind(value) }
            },
            { row in
                found = (decode(row, layout: layout, identity: identity), row.int64(layout.sideColumns.count + layout.dataColumns.count))
            })
        return found
    }

    /// Decodes a row selected as `masks, _fields, _file, _offset, data...`.
    private func decode(_ row: RawStatement.RawRow, layout: RowLayout, identity: IdentityKey?) -> Record {
        let maskCount = layout.maskColumns.count
        let masks: [Int64] = (0..<maskCount).map { row.int64($0) }
        let rowFile = Int(row.int64(maskCount + 1))
        let rowOffset = Int(row.int64(maskCount + 2))
        let file = files[rowFile]
        let origin = Record.Origin(file: file, offset: rowOffset)
        let origins = RowLayout.origins(in: row.bytes(maskCount), rowFile: rowFile, rowOffset: rowOffset)
        func slot(_ slot: Int) -> (present: Bool, file: Int, offset: Int) {
            let (column, bit) = RowLayout.maskIndex(slot)
            let (fileIndex, offset) = slot < origins.count ? origins[slot] : (rowFile, rowOffset)
            return (masks[column] & bit != 0, fileIndex, offset)
        }
        var column = maskCount + 3
        var fields: [Record.Field] = []
        var fieldFiles: [String] = []
        for index in layout.entity.attributes.indices {
            let (present, fileIndex, offset) = slot(layout.slot(attribute: index))
            fields.append(Record.Field(value: present ? .value(row.value(column)) : .absent, offset: offset))
            fieldFiles.append(files[fileIndex])
            column += 1
        }
        var links: [Link] = []
        for (index, relationship) in layout.entity.relationships.enumerated() {
            let columns = layout.foreignKeyColumns[index]
            let (present, _, offset) = slot(layout.slot(relationship: index))
            let values = columns.indices.map { row.value(column + $0) }
            column += columns.count
            if relationship.isToMany || !present {
                links.append(.absent)
            } else if values.allSatisfy({ $0 == .null }) {
                links.append(.null)
            } else {
                links.append(.one(.identity(IdentityKey(values), offset: offset)))
            }
        }
        var record = Record(entity: layout.entityIndex, identity: identity, fields: fields, links: links, origin: origin)
        if fieldFiles.contains(where: { $0 != file }) { record.fieldFiles = fieldFiles }
        return record
    }

    /// Writes a merged row back: its values into the row of `rowid`, its presence bits and
    /// origins into its side row.
    func update(_ record: Record, rowid: Int64, batch: UnsafeBufferPointer<Record>) throws {
        let encoded = withUnsafePointer(to: record) { encoder.encode($0, file: nil, batch: batch) }
        let statements = statements[record.entity]
        try statements.update.execute { binder in
            RowEncoder.forEachDataValue(record.fields, encoded.foreignKeys, replacing: nil) { binder.bind($0) }
            binder.bind(rowid)
        }
        try statements.updateSide.execute { binder in
            RowEncoder.forEachMask(encoded) { binder.bind($0) }
            encoded.fields.withUnsafeBytes { binder.bind(blob: $0) }
            binder.bind(rowid)
        }
    }
}
