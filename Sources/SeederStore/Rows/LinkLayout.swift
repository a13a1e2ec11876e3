import SeederCore

/// Where a to-many relationship's links wait: one row per (owner, target), first-seen order,
/// so repeating a link across occurrences unites rather than duplicates (docs/mapping.md, Merging).
/// The rows stand in the table of their shape (`LinkTable`), under the relationship's number.
/// A class: a big mapping's table of them (`all(for:)`) has a place per relationship, and a
/// to-one's `nil` takes a pointer's room, not a whole layout's.
final class LinkLayout: Sendable {
    let entityIndex: Int
    let relationshipIndex: Int
    let relationship: Relationship
    /// The relationship's number among the mapping's to-manys, its rows' `_rel` in `stored`.
    let number: Int
    let stored: LinkTable
    /// For one entity's view of the links of a relationship to a selector (`cases`), that
    /// entity's name: the view reads the rows that chose it.
    private let caseEntity: String?
    /// What the links are, from the relationship's storage.
    let kind: Kind

    // Derived when asked, once a relationship at each stage: a big mapping holds thousands of
    // layouts, and each string or array kept took an allocation of its own (bench/README.md).

    /// The links to read from: a query of `stored` for this relationship's rows (for a case's
    /// view, the rows that chose its entity); writers write `storedTable` under `number`.
    var table: String {
        var condition = Self.isRelationship(number)
        if let caseEntity {
            condition += " AND \(SQLText.quote(stored.targetColumns.last!)) = \(SQLText.literal(caseEntity))"
        }
        return "(SELECT * FROM \(storedTable) WHERE \(condition))"
    }
    var storedTable: String { stored.table }
    /// `true` for one entity's view of the links of a relationship to a selector (`cases`).
    var isCaseView: Bool { caseEntity != nil }
    var ownerColumns: [String] { stored.ownerColumns }
    /// The target's key; to a selector, then the chosen entity's name (docs/mapping.md,
    /// Polymorphism), except in a case's view of the links, which is keyed like its entity.
    var targetColumns: [String] { isCaseView ? Array(stored.targetColumns.dropLast()) : stored.targetColumns }

    /// Per entity, per relationship: the links of each to-many, `nil` for a to-one; numbered in
    /// mapping order.
    static func all(for mapping: Mapping) -> [[LinkLayout?]] {
        var number = 0
        return mapping.entities.indices.map { entity in
            mapping.entities[entity].relationships.indices.map { relationship in
                guard mapping.entities[entity].relationships[relationship].isToMany else { return nil }
                defer { number += 1 }
                return LinkLayout(entityIndex: entity, relationshipIndex: relationship, number: number, mapping: mapping)
            }
        }
    }

    /// What the resolver does with a relationship's links, decided once from its storage: the
    /// stages switch on it, so that a kind of storage they do not handle does not compile.
    enum Kind {
        /// A one-to-many's: each claims its child for the owner, setting the child's `inverse`
        /// (`ReferenceResolver.applyInverseLinks`). A view of one entity of a selector (`cases`)
        /// has that entity's inverse.
        case claims(inverse: Int)
        /// A many-to-many's: each must name a row (`ReferenceResolver.checkReferences`), then is
        /// a row of the join table (`SeedFinisher`).
        case joinRows
    }

    init(entityIndex: Int, relationshipIndex: Int, number: Int, mapping: Mapping) {
        self.entityIndex = entityIndex
        self.relationshipIndex = relationshipIndex
        self.number = number
        relationship = mapping.entities[entityIndex].relationships[relationshipIndex]
        switch relationship.storage {
        case .inverse: kind = .claims(inverse: relationship.inverse!)
        case .joinTable: kind = .joinRows
        case .foreignKey: preconditionFailure("a to-one has no links (`all(for:)`)")
        }
        stored = LinkTable(
            ownerWidth: mapping.entities[entityIndex].primaryKeyColumns.count,
            targetWidth: mapping.entities[relationship.target].primaryKeyColumns.count + (relationship.selector == nil ? 0 : 1))
        caseEntity = nil
    }

    private init(narrowing link: LinkLayout, to entity: Int, mapping: Mapping) {
        entityIndex = link.entityIndex
        relationshipIndex = link.relationshipIndex
        number = link.number
        stored = link.stored
        var relationship = link.relationship
        relationship.target = entity
        relationship.inverse = link.relationship.inverse(on: entity)
        switch link.kind {
        // Every entity of a selector has the inverse (docs/mapping.md, Polymorphism).
        case .claims: kind = .claims(inverse: relationship.inverse!)
        case .joinRows: kind = .joinRows
        }
        relationship.selector = nil
        relationship.caseInverses = []
        self.relationship = relationship
        caseEntity = mapping.entities[entity].name
    }

    /// `"_rel" = 3`: the rows of relationship number 3 in its table.
    private static func isRelationship(_ number: Int) -> String {
        "\(SQLText.quote(LinkTable.relationshipColumn)) = \(number)"
    }

    /// The links as the resolver takes them: one view per entity a selector can choose, each
    /// with the relationship narrowed to that entity, so that every stage reads one target table
    /// (docs/mapping.md, Polymorphism); else the links themselves.
    func cases(in mapping: Mapping) -> [LinkLayout] {
        guard let selector = relationship.selector else { return [self] }
        return selector.entities.map { LinkLayout(narrowing: self, to: $0, mapping: mapping) }
    }

    /// Links in source order: by where each stands, the file then the offset (a claim taken at
    /// insert and restored later, `ReferenceResolver.restoreClaims`, comes after in `_seq` but not
    /// here), then as they were inserted.
    static let sourceOrder = "\"_file\", \"_offset\", \"_seq\""
}
