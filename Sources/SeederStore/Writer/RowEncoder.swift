import SeederCore

/// Records as rows (`RowLayout`): the seed row's values, and the side row's presence masks and
/// each slot's file and offset. Pure, so the reading thread encodes while the writing thread
/// inserts.
struct RowEncoder: Sendable {
    /// A record's columns, ready to bind.
    struct Encoded: Sendable {
        var masks: [Int64]
        var fields: [UInt8]
        var data: [SQLValue]
        /// The index of the record's file.
        var file: Int
        /// The record's JSON Pointer, as text.
        var pointer: String
    }

    let layouts: [RowLayout]
    /// Dump file names by index, as `_file` columns store them (`RowStore.files`).
    let fileIndexes: [String: Int]

    /// Indexes for `files`, in order, a repeated name keeping its first index.
    static func fileIndexes(_ files: [String]) -> [String: Int] {
        var indexes: [String: Int] = [:]
        for file in files where indexes[file] == nil { indexes[file] = indexes.count }
        return indexes
    }

    /// The index of a dump file, as `_file` columns store it.
    func fileIndex(_ file: String) -> Int {
        fileIndexes[file] ?? 0
    }

    /// The rows of a mapper's batch, all from the dump file of index `file` (`fileIndex(_:)`,
    /// looked up once per file: hashing its path per record was a twentieth of encoding);
    /// embedded targets with an identity are named by it.
    func encode(batch: [Record], file: Int) -> [Encoded] {
        // Through the buffer: binding a record from the array would copy it.
        return batch.withUnsafeBufferPointer { records in records.indices.map { encode(records[$0], file: file, batch: records) } }
    }

    /// A record as columns. Links to records of `batch` name them by their identity
    /// (`RecordReference.naming(in:)`, without copying the record); `file` is the index of
    /// `record.origin.file`, looked up when `nil`.
    func encode(_ record: Record, file recordFile: Int?, batch: UnsafeBufferPointer<Record>) -> Encoded {
        let layout = layouts[record.entity]
        var masks = [Int64](repeating: 0, count: layout.maskColumns.count)
        let recordFile = recordFile ?? fileIndexes[record.origin.file] ?? 0
        var fields: [UInt8] = []
        fields.reserveCapacity(layout.slotCount * 2)
        var data: [SQLValue] = []
        data.reserveCapacity(layout.dataColumns.count)
        // Slots are marked in order: attributes, then relationships.
        func mark(_ slot: Int, present: Bool, file: Int, offset: Int) {
            if present {
                let (column, bit) = RowLayout.maskIndex(slot)
                masks[column] |= bit
            }
            RowLayout.appendOrigin(file: file, offset: offset, rowFile: recordFile, rowOffset: record.origin.offset, to: &fields)
        }
        for (index, field) in record.fields.enumerated() {
            let file = record.fieldFiles.map { fileIndexes[$0[index]] ?? 0 } ?? recordFile
            switch field.value {
            case .absent:
                mark(layout.slot(attribute: index), present: false, file: file, offset: field.offset)
                data.append(.null)
            case let .value(value):
                mark(layout.slot(attribute: index), present: true, file: file, offset: field.offset)
                data.append(value)
            }
        }
        for (index, link) in record.links.enumerated() {
            let columns = layout.foreignKeyColumns[index]
            var present = false
            var offset = record.origin.offset
            var values = [SQLValue](repeating: .null, count: columns.count)
            switch link {
            case .absent: break
            case .null: present = true
            case let .one(reference):
                present = true
                // An embedded target with no identity keeps null columns: `RowStore` sets them.
                if case let .identity(key, at) = reference.naming(in: batch) {
                    offset = at
                    if key.values.count == columns.count { values = key.values }
                }
            case .many: present = true
            }
            mark(layout.slot(relationship: index), present: present, file: recordFile, offset: offset)
            data += values
        }
        return Encoded(masks: masks, fields: fields, data: data, file: recordFile, pointer: record.origin.pointer.description)
    }
}
