import Foundation
import SeederCore
import SeederFiles

/// Where an entity's rows live while a build runs: their values in the entity's table of the
/// seed itself, from the first occurrence on (docs/seed.md's columns, merged in place), and the
/// bookkeeping in a side table of the working database, keyed by the seed row's rowid: presence
/// masks that keep absent apart from null, and each value's file and offset for messages (a
/// message's JSON Pointer is found from them, `PointerLocator`), once something reads them
/// (`SideRowLog`). Rows are never copied from a staging table: the seed file is written once
/// (bench/README.md).
///
/// A class, not a struct: the encoder reads one per record, and copying a struct of arrays
/// retains and releases each of them.
final class RowLayout: Sendable {
    /// Bits per presence column (an INTEGER holds 62 safely as a positive number).
    static let bitsPerMask = 62

    let entityIndex: Int
    let entity: Entity
    /// The seed table, qualified: `"main"."task"`.
    let table: String
    /// The side table in the working database, qualified: `"work"."s2"`.
    let sideTable: String
    /// Per attribute: its column.
    let attributeColumns: [String]
    /// Per relationship: its foreign-key columns (empty unless a to-one).
    let foreignKeyColumns: [[String]]
    /// Per relationship: the index in `dataColumns` of its first foreign-key column.
    let foreignKeyDataOffsets: [Int]
    /// The primary key: the identity's columns, or `_pk` for `identity: none`.
    let keyColumns: [String]
    /// Position columns that ordered one-to-many relationships of other entities put on this
    /// entity's rows: (owner entity, relationship, column).
    let positionColumns: [(owner: Int, relationship: Int, column: String)]
    /// Presence slots: attributes first, then relationships (only to-ones use theirs).
    let slotCount: Int
    /// The side table's presence columns.
    let maskColumns: [String]
    /// Rows of this entity may go without a side row when nothing after the load can name
    /// them: with `identity: none`, no occurrence merges into one and no link names one by
    /// identity, and with no `unique` attribute, no check lists one. Which rows do is decided
    /// per row (`RowEncoder`): a child inserted with its final parent, with no to-one of its own,
    /// and every attribute of `needsPresence` present. Such children are most rows of
    /// nested dumps (pages' urls).
    let mayGoWithoutSideRow: Bool
    /// Per attribute: whether finishing rows reads its presence (a default, or `required`).
    let needsPresence: [Bool]
    /// The to-one relationships.
    let toOneRelationships: [Int]
    /// Per relationship: whether it is to a selector, whose links store the chosen entity's
    /// name after its key (docs/mapping.md, Polymorphism).
    let hasSelector: [Bool]
    let hasAnySelector: Bool
    /// Per relationship: to-many, and ordered.
    let toMany: [Bool]
    let ordered: [Bool]

    /// The layout of every entity, in mapping order.
    static func all(for mapping: Mapping) -> [RowLayout] {
        let reaching = mapping.relationshipsByTarget()
        return mapping.entities.indices.map { RowLayout(entityIndex: $0, mapping: mapping, reachedBy: reaching[$0]) }
    }

    /// `reachedBy`: the relationships that can reach the entity (`Mapping.relationshipsByTarget`).
    init(entityIndex: Int, mapping: Mapping, reachedBy: [(owner: Int, relationship: Int)]) {
        self.entityIndex = entityIndex
        self.entity = mapping.entities[entityIndex]
        self.table = "\"main\"." + SQLText.quote(entity.table)
        self.sideTable = "\"work\".\"s\(entityIndex)\""
        attributeColumns = entity.attributes.map(\.column)
        foreignKeyColumns = entity.relationships.map(\.storage.ownerColumns)
        var offset = attributeColumns.count
        foreignKeyDataOffsets = foreignKeyColumns.map { columns in
            defer { offset += columns.count }
            return offset
        }
        dataColumns = attributeColumns + foreignKeyColumns.flatMap { $0 }
        slotCount = entity.attributes.count + entity.relationships.count
        maskColumns = (0..<max(1, (slotCount + Self.bitsPerMask - 1) / Self.bitsPerMask)).map { "_present\($0)" }
        sideColumns = maskColumns + Self.bookkeeping.map(\.name)
        keyColumns = entity.primaryKeyColumns
        let entity = entity
        mayGoWithoutSideRow = entity.identity == .none && !entity.attributes.contains { $0.isUnique }
        // (`default: null` leaves the column as it is: nothing to fill.)
        needsPresence = entity.attributes.map { ($0.defaultValue != nil && $0.defaultValue != .null) || $0.isRequired }
        toOneRelationships = entity.relationships.indices.filter { !entity.relationships[$0].isToMany }
        hasSelector = entity.relationships.map { $0.selector != nil }
        hasAnySelector = hasSelector.contains(true)
        toMany = entity.relationships.map(\.isToMany)
        ordered = entity.relationships.map(\.isOrdered)
        positionColumns = reachedBy.compactMap { owner, index in
            mapping.entities[owner].relationships[index].storage.targetPositionColumn.map { (owner, index, $0) }
        }
    }

    /// The slot of an attribute or relationship in the presence masks.
    func slot(attribute: Int) -> Int { attribute }
    func slot(relationship: Int) -> Int { entity.attributes.count + relationship }

    /// Where each slot's value came from, in a row's `_fields` blob: per slot in order, a varint
    /// of the zigzagged distance from the row's `_offset`, shifted left one bit, the bit set when
    /// a file index different from the row's `_file` follows as a varint. A field usually stands
    /// a few bytes after its record, in its record's file, so a slot takes one or two bytes
    /// rather than twelve (bench/README.md).
    static func appendOrigin(file: Int, offset: Int, rowFile: Int, rowOffset: Int, to fields: inout some OriginByteSink) {
        let otherFile = file != rowFile
        appendVarint((zigzag(Int64(offset - rowOffset)) << 1) | (otherFile ? 1 : 0), to: &fields)
        if otherFile { appendVarint(UInt64(file), to: &fields) }
    }

    /// The file index and offset of every slot in a `_fields` blob (`appendOrigin`).
    static func origins(in fields: [UInt8], rowFile: Int, rowOffset: Int) -> [(file: Int, offset: Int)] {
        var origins: [(file: Int, offset: Int)] = []
        var position = 0
        while position < fields.count {
            let word = readVarint(fields, at: &position)
            let distance = unzigzag(word >> 1)
            let file = word & 1 == 1 ? Int(readVarint(fields, at: &position)) : rowFile
            origins.append((file, rowOffset + Int(distance)))
        }
        return origins
    }

    /// The file index and offset a slot's value came from, in a `_fields` blob.
    static func origin(ofSlot slot: Int, in fields: [UInt8], rowFile: Int, rowOffset: Int) -> (file: Int, offset: Int) {
        let origins = origins(in: fields, rowFile: rowFile, rowOffset: rowOffset)
        return slot < origins.count ? origins[slot] : (rowFile, rowOffset)
    }

    /// A `_fields` blob with one slot's origin replaced.
    static func replacingOrigin(
        ofSlot slot: Int, in fields: [UInt8], rowFile: Int, rowOffset: Int, with origin: (file: Int, offset: Int)
    ) -> [UInt8] {
        var origins = origins(in: fields, rowFile: rowFile, rowOffset: rowOffset)
        while origins.count <= slot { origins.append((rowFile, rowOffset)) }
        origins[slot] = origin
        var replaced: [UInt8] = []
        for (file, offset) in origins { appendOrigin(file: file, offset: offset, rowFile: rowFile, rowOffset: rowOffset, to: &replaced) }
        return replaced
    }

    /// Whether a slot's value came from where its row's record starts: a claim a child took as
    /// it was inserted inside its parent (`LoadSummary.Relationship.claimsAtInsert`). A value the
    /// record holds itself stands after its `{`.
    static func isRowOrigin(ofSlot slot: Int, in fields: [UInt8]) -> Bool {
        let (file, offset) = origin(ofSlot: slot, in: fields, rowFile: -1, rowOffset: 0)
        return file == -1 && offset == 0
    }

    /// Appends `value` in seven-bit groups, least significant first, the high bit set on all
    /// but the last.
    static func appendVarint(_ value: UInt64, to bytes: inout some OriginByteSink) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A signed value as an unsigned one that is small when the value is near zero, either side:
    /// 0, -1, 1, -2 ... as 0, 1, 2, 3 ..., so that its varint is short.
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// The value `zigzag` made `encoded` of.
    static func unzigzag(_ encoded: UInt64) -> Int64 {
        Int64(bitPattern: encoded >> 1) ^ -Int64(bitPattern: encoded & 1)
    }

    /// Reads a varint of `appendVarint` at `position`, and moves past it.
    static func readVarint(_ bytes: [UInt8], at position: inout Int) -> UInt64 {
        bytes.withUnsafeBufferPointer { readVarint($0, at: &position) }
    }

    static func readVarint(_ bytes: UnsafeBufferPointer<UInt8>, at position: inout Int) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return value
    }

    /// The mask column and bit of a slot.
    func maskBit(_ slot: Int) -> (column: String, bit: Int64) {
        let (column, bit) = Self.maskIndex(slot)
        return (maskColumns[column], bit)
    }

    /// The index among the mask columns and the bit of a slot.
    static func maskIndex(_ slot: Int) -> (column: Int, bit: Int64) {
        (slot / bitsPerMask, Int64(1) << Int64(slot % bitsPerMask))
    }

    /// Every data column of the seed row in order: attributes, then foreign keys.
    let dataColumns: [String]
    /// The side table's columns after `_row`, as a row is written and read back: masks, then
    /// the bookkeeping.
    let sideColumns: [String]
    /// The side table's columns after the masks, with their types.
    private static let bookkeeping: [(name: String, type: String)] = [("_fields", "BLOB"), ("_file", "INTEGER"), ("_offset", "INTEGER")]

    /// The index in `positionColumns` of the position that `owner`'s ordered one-to-many
    /// `relationship` puts on these rows.
    func positionIndex(owner: Int, relationship: Int) -> Int? {
        positionColumns.firstIndex { $0.owner == owner && $0.relationship == relationship }
    }

    /// `"id" = ? AND "kind" = ?` over the key columns, qualified by `alias` when given.
    func keyCondition(_ alias: String? = nil) -> String {
        keyColumns.map { (alias.map { $0 + "." } ?? "") + "\(SQLText.quote($0)) = ?" }.joined(separator: " AND ")
    }

    /// `FROM` the seed table `t` joined with its side table `s`, named `side` (after the load,
    /// `RowStore.sideTable(of:)`, which puts the side rows in first).
    func joined(_ side: String) -> String { "\(table) AS t JOIN \(side) AS s ON s.\"_row\" = t.\"rowid\"" }

    /// The same for a scan of every row: in rowid order, so that the side rows are read in
    /// their order too. Given an index that covers what a scan needs (a foreign key's, which
    /// the reference checks build), SQLite walks the rows in the index's order instead, and the
    /// side table at random.
    func joinedInRowOrder(_ side: String) -> String { "\(table) AS t NOT INDEXED JOIN \(side) AS s ON s.\"_row\" = t.\"rowid\"" }

    /// `first-seen order`: the order rows were inserted in, which messages follow.
    static let firstSeen = "s.\"_file\", s.\"_offset\", s.\"_row\""

    var createStatements: [String] {
        let columns =
            ["\"_row\" INTEGER PRIMARY KEY"] + maskColumns.map { "\(SQLText.quote($0)) INTEGER NOT NULL" }
            + Self.bookkeeping.map { "\(SQLText.quote($0.name)) \($0.type) NOT NULL" }
        return ["CREATE TABLE \(sideTable) (\(columns.joined(separator: ", ")))"]
    }
}

/// Where `RowLayout.appendOrigin` writes a `_fields` blob: an array, or a row's `OriginBytes`.
protocol OriginByteSink {
    mutating func append(_ byte: UInt8)
}

extension Array: OriginByteSink where Element == UInt8 {}
extension OriginBytes: OriginByteSink {}
