import Foundation
import SeederCore

/// Where an entity's occurrences wait in the working database while they merge: the staging
/// table's columns, by attribute and to-one relationship, plus the hidden bookkeeping.
///
/// Staging columns have positional names (`a0`, `r1_0`), so no mapping name can collide with
/// the bookkeeping columns (`_seq`, `_present0`, `_fields`, `_file`, `_offset`, `_pointer`).
/// A class, not a struct: the encoder reads one per record, and copying a struct of arrays
/// retains and releases each of them.
final class StagingLayout: Sendable {
    /// Bits per presence column (an INTEGER holds 62 safely as a positive number).
    static let bitsPerMask = 62

    let entityIndex: Int
    let entity: Entity
    let table: String
    /// Per attribute: its staging column.
    let attributeColumns: [String]
    /// Per relationship: its foreign-key staging columns (empty unless a to-one).
    let foreignKeyColumns: [[String]]
    /// Per relationship: the index in `dataColumns` of its first foreign-key column.
    let foreignKeyDataOffsets: [Int]
    /// The columns that identify a row: the identity's, or `_seq` for `identity: none`.
    let keyColumns: [String]
    /// Position columns that ordered one-to-many relationships of other entities put on this
    /// entity's rows: (owner entity, relationship, staging column).
    let positionColumns: [(owner: Int, relationship: Int, column: String)]
    /// Presence slots: attributes first, then relationships (only to-ones use theirs).
    let slotCount: Int
    let maskColumns: [String]

    /// The staging layout of every entity, in mapping order.
    static func all(for mapping: Mapping) -> [StagingLayout] {
        mapping.entities.indices.map { StagingLayout(entityIndex: $0, mapping: mapping) }
    }

    init(entityIndex: Int, mapping: Mapping) {
        self.entityIndex = entityIndex
        self.entity = mapping.entities[entityIndex]
        self.table = "s\(entityIndex)"
        attributeColumns = entity.attributes.indices.map { "a\($0)" }
        foreignKeyColumns = entity.relationships.enumerated().map { index, relationship in
            guard case let .foreignKey(columns) = relationship.storage else { return [] }
            return columns.indices.map { "r\(index)_\($0)" }
        }
        var offset = attributeColumns.count
        foreignKeyDataOffsets = foreignKeyColumns.map { columns in
            defer { offset += columns.count }
            return offset
        }
        dataColumns = attributeColumns + foreignKeyColumns.flatMap { $0 }
        slotCount = entity.attributes.count + entity.relationships.count
        maskColumns = (0..<max(1, (slotCount + Self.bitsPerMask - 1) / Self.bitsPerMask)).map { "_present\($0)" }
        keyColumns = entity.identity == .none ? ["_seq"] : entity.identityAttributes.map { "a\($0)" }
        var positions: [(Int, Int, String)] = []
        for (owner, ownerEntity) in mapping.entities.enumerated() {
            for (index, relationship) in ownerEntity.relationships.enumerated() where relationship.target == entityIndex {
                if case .inverse(positionColumn: _?) = relationship.storage { positions.append((owner, index, "p\(owner)_\(index)")) }
            }
        }
        positionColumns = positions
    }

    /// The slot of an attribute or relationship in the presence masks.
    func slot(attribute: Int) -> Int { attribute }
    func slot(relationship: Int) -> Int { entity.attributes.count + relationship }

    /// The file index and offset a slot's value came from, in a row's `_fields` blob.
    static func origin(ofSlot slot: Int, in fields: Data) -> (file: Int, offset: Int) {
        let base = fields.startIndex + slot * 12
        let file = fields[base..<(base + 4)].withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        let offset = fields[(base + 4)..<(base + 12)].withUnsafeBytes { Int(Int64(littleEndian: $0.loadUnaligned(as: Int64.self))) }
        return (file, offset)
    }

    /// The mask column and bit of a slot.
    func maskBit(_ slot: Int) -> (column: String, bit: Int64) {
        let (column, bit) = Self.maskIndex(slot)
        return ("_present\(column)", bit)
    }

    /// The index among the mask columns and the bit of a slot.
    static func maskIndex(_ slot: Int) -> (column: Int, bit: Int64) {
        (slot / bitsPerMask, Int64(1) << Int64(slot % bitsPerMask))
    }

    /// Every data column in order: attributes, then foreign keys.
    let dataColumns: [String]

    /// `"a0" = ? AND "a1" = ?` over the key columns.
    var keyCondition: String { keyColumns.map { "\(SQLText.quote($0)) = ?" }.joined(separator: " AND ") }

    var createStatements: [String] {
        var columns = ["\"_seq\" INTEGER PRIMARY KEY"] + maskColumns.map { "\(SQLText.quote($0)) INTEGER NOT NULL" }
        columns += ["\"_fields\" BLOB NOT NULL", "\"_file\" INTEGER NOT NULL", "\"_offset\" INTEGER NOT NULL", "\"_pointer\" TEXT NOT NULL"]
        columns += (dataColumns + positionColumns.map(\.column)).map(SQLText.quote)
        var statements = ["CREATE TABLE \(SQLText.quote(table)) (\(columns.joined(separator: ", ")))"]
        if entity.identity != .none {
            statements.append("CREATE UNIQUE INDEX \(SQLText.quote(table + "_identity")) ON \(SQLText.quote(table))(\(SQLText.list(keyColumns)))")
        }
        return statements
    }
}

/// Where a to-many relationship's links wait: one row per (owner, target), first-seen order,
/// so repeating a link across occurrences unites rather than duplicates (MAPPING.md, Identity).
/// The pair's index leads with the target, for finding a child that two owners claim.
struct LinkLayout: Sendable {
    let entityIndex: Int
    let relationshipIndex: Int
    let relationship: Relationship
    let table: String
    let ownerColumns: [String]
    let targetColumns: [String]

    /// Per entity, per relationship: the link table of each to-many, `nil` for a to-one.
    static func all(for mapping: Mapping) -> [[LinkLayout?]] {
        mapping.entities.indices.map { entity in
            mapping.entities[entity].relationships.indices.map { relationship in
                mapping.entities[entity].relationships[relationship].isToMany
                    ? LinkLayout(entityIndex: entity, relationshipIndex: relationship, mapping: mapping) : nil
            }
        }
    }

    init(entityIndex: Int, relationshipIndex: Int, mapping: Mapping) {
        self.entityIndex = entityIndex
        self.relationshipIndex = relationshipIndex
        relationship = mapping.entities[entityIndex].relationships[relationshipIndex]
        table = "l\(entityIndex)_\(relationshipIndex)"
        let ownerCount = max(1, mapping.entities[entityIndex].identityAttributes.count)
        let targetCount = max(1, mapping.entities[relationship.target].identityAttributes.count)
        ownerColumns = (0..<ownerCount).map { "o\($0)" }
        targetColumns = (0..<targetCount).map { "t\($0)" }
    }

    var createStatements: [String] {
        let columns = ["\"_seq\" INTEGER PRIMARY KEY"] + (ownerColumns + targetColumns).map(SQLText.quote)
            + ["\"_position\" INTEGER NOT NULL", "\"_file\" INTEGER NOT NULL", "\"_offset\" INTEGER NOT NULL"]
        return [
            "CREATE TABLE \(SQLText.quote(table)) (\(columns.joined(separator: ", ")))",
            "CREATE UNIQUE INDEX \(SQLText.quote(table + "_pair")) ON \(SQLText.quote(table))(\(SQLText.list(targetColumns + ownerColumns)))",
        ]
    }
}
