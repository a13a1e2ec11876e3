import SeederCore
import SeederFiles

/// Records as rows (`RowLayout`): the seed row's foreign keys, and the side row's presence masks
/// and each slot's file and offset. Pure, so either thread may encode a batch: the reader while
/// the writer is behind, else the writer (`DumpReader.encodesHere`).
struct RowEncoder: Sendable {
    /// A record's columns, ready to bind with the record's own attribute values
    /// (`forEachDataValue`). The values are not copied, and the first mask column is inline:
    /// each array here is an allocation per record.
    struct Encoded: Sendable {
        /// The first presence column (`RowLayout.maskColumns`), and any more.
        var mask: Int64
        var moreMasks: [Int64]
        /// The `_fields` blob (`RowLayout.appendOrigin`).
        var fields: OriginBytes
        /// The foreign-key columns of every to-one, in order (`RowLayout.dataColumns` after the
        /// attributes); empty for an entity with none.
        var foreignKeys: [SQLValue]
        /// The index of the record's file.
        var file: Int
        /// The record that embeds this one, when the child takes its parent as it is inserted.
        var parent: Parent?
        /// `false` for a row no later stage can name (`RowLayout.mayGoWithoutSideRow`): it gets
        /// no side row, and `fields` is left empty.
        var hasSide = true

        /// Presence column `column` (`RowLayout.maskColumns`): the first is `mask`.
        func mask(_ column: Int) -> Int64 {
            column == 0 ? mask : moreMasks[column - 1]
        }
    }

    /// The record that embeds a child through a one-to-many with `inverse`, at a position; the
    /// child is inserted with its parent's key and position (`RowStore`).
    struct Parent: Sendable {
        var owner: Int
        var relationship: Int
        var position: Int
        /// The link is final as the child is inserted, with no link row: a child with `identity:
        /// none` is a new row that no other parent can name. A child with an identity is
        /// inserted with its parent's key and position, which are final too when the row is new
        /// and the relationship `claimsAtInsert` (`LoadSummary`); otherwise they are what the link
        /// row will most likely settle (`ReferenceResolver.applyInverse`), so that update changes
        /// no row's size and the seed's pages stay full.
        var isFinal: Bool
    }

    let layouts: [RowLayout]
    /// Dump file names by index, as `_file` columns store them (`RowStore.files`).
    let fileIndexes: [String: Int]
    /// Per entity: its one-to-many relationships with `inverse`, whose embedded children are
    /// inserted with their parent's key (`parents(in:)`), each with the inverse's index on
    /// every entity it can target (one entry unless it is to a selector). Read per batch, so the
    /// `Relationship` is not copied.
    private let inverses: [[InverseLink]]
    /// Per entity, per one of its `inverses` to a selector (`InverseLink.selected`): the inverse's
    /// index on each entity, by the entity's index (-1 where there is none).
    private let selectedInverses: [[[Int]]]

    /// A one-to-many with `inverse` of an entity: the relationship's index, the inverse's on its
    /// target (a selector's first entity), and for a selector its row of `selectedInverses`.
    /// Plain integers: the loop over them runs for every record.
    private struct InverseLink {
        var relationship: Int
        var inverse: Int
        var selected: Int
    }

    init(layouts: [RowLayout], fileIndexes: [String: Int]) {
        self.layouts = layouts
        self.fileIndexes = fileIndexes
        var inverses: [[InverseLink]] = []
        var selectedInverses: [[[Int]]] = []
        for layout in layouts {
            var links: [InverseLink] = []
            var selected: [[Int]] = []
            for (index, relationship) in layout.entity.relationships.enumerated() where relationship.isToMany {
                guard let inverse = relationship.inverse else { continue }
                links.append(
                    InverseLink(relationship: index, inverse: inverse, selected: relationship.selector == nil ? -1 : selected.count))
                if relationship.selector != nil { selected.append(layouts.indices.map { relationship.inverse(on: $0) ?? -1 }) }
            }
            inverses.append(links)
            selectedInverses.append(selected)
        }
        self.inverses = inverses
        self.selectedInverses = selectedInverses
    }

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

    /// The rows of a mapper's batch, in order, onto the end of `rows`: all from the dump file of
    /// index `file` (`fileIndex(_:)`, looked up once per file: hashing its path per record was a
    /// twentieth of encoding); embedded targets with an identity are named by it.
    func encode(batch: UnsafeBufferPointer<Record>, file: Int, appendingTo rows: inout [Encoded]) {
        let parents = parents(in: batch)
        for index in batch.indices {
            rows.append(encode(batch.baseAddress! + index, file: file, batch: batch, parent: parents?[index]))
        }
    }

    /// The embedded children of `batch` that are inserted with their inverse foreign key and
    /// position: those that do not name a parent themselves. `nil` when none.
    private func parents(in batch: UnsafeBufferPointer<Record>) -> [Parent?]? {
        var parents: [Parent?]?
        for index in batch.indices {
            let entity = batch[index].entity
            for link in inverses[entity] {
                let relationshipIndex = link.relationship
                guard case let .many(targets) = batch[index].links[relationshipIndex] else { continue }
                for (position, target) in targets.enumerated() {
                    guard case let .embedded(child) = target else { continue }
                    // Each entity a selector chooses names the inverse the same, at its own index.
                    let inverse = link.selected < 0 ? link.inverse : selectedInverses[entity][link.selected][batch[child].entity]
                    guard case .absent = batch[child].links[inverse] else { continue }
                    if parents == nil { parents = Array(repeating: nil, count: batch.count) }
                    parents?[child] = Parent(
                        owner: index, relationship: relationshipIndex, position: position,
                        // Through a selector, every child has a link row: an owner's positions
                        // are numbered across the entities' tables from the links
                        // (`ReferenceResolver.renumberLinks`).
                        isFinal: batch[child].identity == nil && link.selected < 0)
                }
            }
        }
        return parents
    }

    /// A record as columns. Links to records of `batch` name them by their identity
    /// (`RecordReference.naming(in:)`, without copying the record); `file` is the index of
    /// `record.origin.file`, looked up when `nil`. The record is read through a pointer: passed
    /// by value out of a buffer, it was copied, each of its arrays and strings retained and
    /// released.
    func encode(
        _ record: UnsafePointer<Record>, file recordFile: Int?, batch: UnsafeBufferPointer<Record>, parent: Parent? = nil
    ) -> Encoded {
        let layout = layouts[record.pointee.entity]
        if let parent, parent.isFinal, let recordFile,
            let row = withoutSideRow(record, layout: layout, parent: parent, batch: batch, file: recordFile)
        {
            return row
        }
        // Reserved and appended, as every array here: `Array(repeating:count:)` looks up its
        // storage type at run time.
        var mask: Int64 = 0
        var moreMasks: [Int64] = []
        if layout.maskColumns.count > 1 {
            moreMasks.reserveCapacity(layout.maskColumns.count - 1)
            for _ in 1..<layout.maskColumns.count { moreMasks.append(0) }
        }
        let recordFile = recordFile ?? fileIndexes[record.pointee.origin.file] ?? 0
        var fields = OriginBytes()
        var foreignKeys: [SQLValue] = []
        let foreignKeyCount = layout.dataColumns.count - layout.attributeColumns.count
        if foreignKeyCount > 0 { foreignKeys.reserveCapacity(foreignKeyCount) }
        // Slots are marked in order: attributes, then relationships.
        func mark(_ slot: Int, present: Bool, file: Int, offset: Int) {
            if present {
                let (column, bit) = RowLayout.maskIndex(slot)
                if column == 0 { mask |= bit } else { moreMasks[column - 1] |= bit }
            }
            RowLayout.appendOrigin(file: file, offset: offset, rowFile: recordFile, rowOffset: record.pointee.origin.offset, to: &fields)
        }
        // By index, not by element: a field copied out of the array retained and released its
        // text.
        let values = record.pointee.fields
        for index in values.indices {
            let file = record.pointee.fieldFiles.map { fileIndexes[$0[index]] ?? 0 } ?? recordFile
            mark(layout.slot(attribute: index), present: values[index].isPresent, file: file, offset: values[index].offset)
        }
        for (index, link) in record.pointee.links.enumerated() {
            let columns = layout.foreignKeyColumns[index]
            var present = false
            var offset = record.pointee.origin.offset
            var key: [SQLValue]?
            switch link {
            case .absent: break
            case .null: present = true
            case let .one(reference):
                present = true
                // An embedded target with no identity keeps null columns: `RowStore` sets them.
                if case let .identity(identity, at) = reference.naming(in: batch) {
                    offset = at
                    if identity.values.count == columns.count {
                        key = identity.values
                    } else if case let .embedded(target) = reference, layout.hasSelector[index] {
                        key = selectedKey(identity, of: batch[target].entity)
                    }
                }
            case .many: present = true
            }
            mark(layout.slot(relationship: index), present: present, file: recordFile, offset: offset)
            if let key { foreignKeys.append(contentsOf: key) } else { for _ in columns { foreignKeys.append(.null) } }
        }
        return Encoded(mask: mask, moreMasks: moreMasks, fields: fields, foreignKeys: foreignKeys, file: recordFile, parent: parent)
    }

    /// The key of a record a selector chose: its identity, then its entity's name. Not inlined:
    /// `encode` runs for every record, and most builds have no selector.
    @inline(never)
    private func selectedKey(_ identity: IdentityKey, of entity: Int) -> [SQLValue] {
        identity.values + [.text(layouts[entity].entity.name)]
    }

    /// The row of a final child that no later stage can name (`RowLayout.mayGoWithoutSideRow`):
    /// one whose own to-ones are all absent, whose only required to-one is the inverse its parent
    /// sets, and whose attributes with a default or `required` are all present. Its values only:
    /// no origins, no side row. `nil` for any other row.
    private func withoutSideRow(
        _ record: UnsafePointer<Record>, layout: RowLayout, parent: Parent, batch: UnsafeBufferPointer<Record>, file: Int
    ) -> Encoded? {
        guard layout.mayGoWithoutSideRow else { return nil }
        let inverse = layouts[batch[parent.owner].entity].entity.relationships[parent.relationship].inverse
        for relationship in layout.toOneRelationships {
            guard case .absent = record.pointee.links[relationship] else { return nil }
            if layout.entity.relationships[relationship].isRequired, relationship != inverse { return nil }
        }
        for (index, field) in record.pointee.fields.enumerated() where layout.needsPresence[index] {
            if case .absent = field.value { return nil }
        }
        var foreignKeys: [SQLValue] = []
        let foreignKeyCount = layout.dataColumns.count - layout.attributeColumns.count
        if foreignKeyCount > 0 {
            foreignKeys.reserveCapacity(foreignKeyCount)
            for _ in 0..<foreignKeyCount { foreignKeys.append(.null) }
        }
        return Encoded(mask: 0, moreMasks: [], fields: OriginBytes(), foreignKeys: foreignKeys, file: file, parent: parent, hasSide: false)
    }

    /// The seed row's values in `RowLayout.dataColumns` order: a record's `fields` (`NULL`
    /// when absent), then its encoded `foreignKeys`, the columns from `replacing.start` taking
    /// `replacing.values` instead (a child's parent key).
    static func forEachDataValue(
        _ fields: [Record.Field], _ foreignKeys: [SQLValue], replacing: (start: Int, values: [SQLValue])?,
        _ body: (SQLValue) -> Void
    ) {
        fields.withUnsafeBufferPointer { fields in
            for field in fields {
                if case let .value(value) = field.value { body(value) } else { body(.null) }
            }
            foreignKeys.withUnsafeBufferPointer { keys in
                guard let (start, values) = replacing else {
                    for value in keys { body(value) }
                    return
                }
                let first = start - fields.count
                for index in 0..<first { body(keys[index]) }
                for value in values { body(value) }
                for index in (first + values.count)..<keys.count { body(keys[index]) }
            }
        }
    }

    /// Every presence column of a row, in order (`Encoded.mask(_:)`).
    static func forEachMask(_ encoded: Encoded, _ body: (Int64) -> Void) {
        body(encoded.mask)
        for mask in encoded.moreMasks { body(mask) }
    }
}

/// A row's `_fields` blob as the encoder makes it: up to 40 bytes held inline, more in an array.
/// A slot's origin takes a byte or two, so a row of twenty slots needs no allocation (an array
/// per record was one, and a retain and a release for each copy of its row).
struct OriginBytes: Sendable {
    private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    private var inlineCount: UInt8 = 0
    private var spilled: [UInt8]?
    private static var inlineCapacity: Int { 40 }

    init() {}

    mutating func append(_ byte: UInt8) {
        if spilled != nil {
            spilled!.append(byte)
        } else if Int(inlineCount) < Self.inlineCapacity {
            withUnsafeMutableBytes(of: &inline) { $0[Int(inlineCount)] = byte }
            inlineCount += 1
        } else {
            var bytes = withUnsafeBytes { Array($0) }
            bytes.append(byte)
            spilled = bytes
        }
    }

    /// Calls `body` with the bytes, valid only inside it.
    func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let spilled { return try spilled.withUnsafeBufferPointer(body) }
        var inline = inline
        let count = Int(inlineCount)
        return try Swift.withUnsafeBytes(of: &inline) { try body(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<count])) }
    }
}
