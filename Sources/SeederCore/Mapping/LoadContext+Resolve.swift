/// Resolution: identities, relationship targets and inverses, storage names; then the checks
/// on names (collisions after conversion, reserved names).
extension LoadContext {
    func resolve(_ drafts: [EntityDraft], naming: NamingStyle) -> [Entity] {
        var entities = drafts.map { draft in
            Entity(
                name: draft.name, table: draft.table?.name ?? naming.table(for: draft.name),
                identity: identity(of: draft),
                attributes: draft.attributes.map { attributeDraft in
                    var attribute = attributeDraft.attribute
                    attribute.column = attributeDraft.column?.name ?? naming.column(for: attribute.name)
                    attribute.namedColumn = attributeDraft.column?.node.location
                    return attribute
                },
                relationships: [], onConflict: draft.onConflict, nulls: draft.nulls, location: draft.nameNode.location,
                ignoredKeys: draft.ignoredKeys, search: draft.search, namedTable: draft.table?.node.location)
        }
        for index in entities.indices {
            for attribute in entities[index].identityAttributes {
                entities[index].attributes[attribute].isRequired = true
            }
        }
        let names = drafts.map(\.name)
        let indexByName = Self.indexes(of: names)
        for (owner, draft) in drafts.enumerated() {
            progress("relationships", owner, drafts.count)
            entities[owner].relationships.reserveCapacity(draft.relationships.count)
            for relationshipDraft in draft.relationships {
                guard let choice = relationshipDraft.target else { continue }
                var selector: EntitySelector?
                let targetIndex: Int
                switch choice {
                case let .entity(name, node):
                    guard let index = indexByName[name] else {
                        let suggestion = Wording.didYouMean(name, among: names)
                        error(.mappingUnknownName, "unknown entity '\(name)' in 'to'\(suggestion)", at: node)
                        continue
                    }
                    targetIndex = index
                case let .selector(draft):
                    guard let resolved = resolve(draft, names: names) else { continue }
                    selector = resolved
                    targetIndex = resolved.entities[0]
                }
                var relationship = Relationship(
                    name: relationshipDraft.name, target: targetIndex, isToMany: relationshipDraft.isToMany,
                    keyPath: relationshipDraft.keyPath, inverse: nil, isOrdered: relationshipDraft.isOrdered,
                    isRequired: relationshipDraft.isRequired, onMissing: relationshipDraft.onMissing,
                    storage: .foreignKey(columns: []), location: relationshipDraft.nameNode.location)
                relationship.selector = selector
                relationship.match = relationshipDraft.match
                if let keyedBy = relationshipDraft.keyedBy {
                    // Every entity a selector can choose has the attribute; the index is the first's.
                    let indexes = relationship.targets.map { keyedAttribute(keyedBy.name, at: keyedBy.node, of: entities[$0]) }
                    relationship.keyedBy = indexes.contains(nil) ? nil : indexes[0]
                }
                entities[owner].relationships.append(relationship)
            }
        }
        resolveOwnedIdentities(&entities, drafts: drafts, naming: naming)
        // Inverses, once every relationship exists.
        for (owner, draft) in drafts.enumerated() {
            for relationshipDraft in draft.relationships {
                guard let index = entities[owner].relationshipIndex(named: relationshipDraft.name) else { continue }
                let relationship = entities[owner].relationships[index]
                guard let inverse = relationshipDraft.inverse else {
                    if case let .selector(selector)? = relationshipDraft.target {
                        checkStoredSelector(selector, of: relationship.name, in: entities)
                    }
                    continue
                }
                var inverses: [Int] = []
                for target in relationship.targets {
                    guard let inverseIndex = inverseIndex(inverse, on: entities[target], owner: owner, ownerName: draft.name, relationship)
                    else {
                        break
                    }
                    inverses.append(inverseIndex)
                }
                guard inverses.count == relationship.targets.count else { continue }
                entities[owner].relationships[index].inverse = inverses[0]
                if relationship.selector != nil { entities[owner].relationships[index].caseInverses = inverses }
            }
        }
        // Storage names, once identities and tables are known.
        for owner in entities.indices {
            for index in entities[owner].relationships.indices {
                let relationship = entities[owner].relationships[index]
                let draft = drafts[owner].relationships.first { $0.name == relationship.name }
                entities[owner].relationships[index].storage = storage(
                    of: relationship, owner: entities[owner], target: entities[relationship.target],
                    column: draft?.column?.name, table: draft?.table?.name, naming: naming, entities: entities)
                entities[owner].relationships[index].namedColumn = draft?.column?.node.location
                entities[owner].relationships[index].namedTable = draft?.table?.node.location
            }
        }
        return entities
    }

    /// The index of the to-one `inverse` names on `target`, back to the owner; `nil` after an error.
    private func inverseIndex(
        _ inverse: (name: String, node: YAMLNode), on target: Entity, owner: Int, ownerName: String, _ relationship: Relationship
    ) -> Int? {
        // A selector needs the inverse on every entity it can choose: the messages say so.
        let every =
            relationship.selector == nil
            ? "" : "; a one-to-many to a selector needs the same 'inverse' on every entity the selector can choose"
        guard let inverseIndex = target.relationshipIndex(named: inverse.name) else {
            let suggestion =
                Wording.didYouMean(inverse.name, among: target.relationships.map(\.name))
            error(
                .mappingUnknownName,
                "inverse '\(inverse.name)' is not a relationship of \(target.name)\(suggestion); "
                    + "it must be a to-one from \(target.name) back to \(ownerName)\(every)",
                at: inverse.node)
            return nil
        }
        let candidate = target.relationships[inverseIndex]
        guard !candidate.isToMany, candidate.target == owner, candidate.selector == nil else {
            error(
                .mappingInvalid,
                "inverse '\(inverse.name)' is not a to-one relationship from \(target.name) back to \(ownerName)\(every)", at: inverse.node)
            return nil
        }
        return inverseIndex
    }

    private func identity(of draft: EntityDraft) -> Identity {
        let names = draft.attributes.map(\.attribute.name)
        guard let node = draft.identityNode else {
            if let id = names.firstIndex(of: "id") { return .attributes([id]) }
            if draft.declaredAttributeNames.contains("id") { return .none }  // declared with an error of its own
            error(
                .mappingInvalid,
                "entity '\(draft.name)' has no attribute 'id': name its identity ('identity: slug', or a list) or say 'identity: none'",
                at: draft.nameNode)
            return .none
        }
        if node.scalar == "none" { return .none }
        let items = node.items ?? [node]
        var indexes: [Int] = []
        var parts: [IdentityPart] = []
        for item in items {
            guard let name = item.scalar else {
                error(.mappingInvalid, "'identity' must name attributes, found \(item.kindDescription)", at: item)
                continue
            }
            guard let index = names.firstIndex(of: name) else {
                if draft.declaredAttributeNames.contains(name) { continue }  // declared with an error of its own
                if let relationship = draft.relationships.firstIndex(where: { $0.name == name }) {
                    // Checked once relationships are resolved (`resolveOwnedIdentities`); by its
                    // index among the drafts until then.
                    if parts.contains(.relationship(relationship)) {
                        error(.mappingInvalid, "identity names '\(name)' twice", at: item)
                    } else {
                        parts.append(.relationship(relationship))
                    }
                    continue
                }
                let suggestion = Wording.didYouMean(name, among: names + draft.relationships.map(\.name))
                let declared = draft.relationships.isEmpty ? "" : " or '\(draft.name).relationships'"
                error(
                    .mappingUnknownName,
                    "identity attribute '\(name)' is not declared in '\(draft.name).attributes'\(declared)\(suggestion)",
                    at: item)
                continue
            }
            if indexes.contains(index) {
                error(.mappingInvalid, "identity names '\(name)' twice", at: item)
                continue
            }
            let type = draft.attributes[index].attribute.type
            if type == .json || type == .data {
                error(.mappingInvalid, "identity attribute '\(name)' is \(type.rawValue); an identity must be a comparable value", at: item)
            }
            indexes.append(index)
            parts.append(.attribute(index))
        }
        if items.isEmpty { error(.mappingInvalid, "'identity' names no attribute", at: node) }
        return parts.contains { $0.relationship != nil } ? .owned(parts) : .attributes(indexes)
    }

    private func storage(
        of relationship: Relationship, owner: Entity, target: Entity, column: String?, table: String?, naming: NamingStyle,
        entities: [Entity]
    ) -> RelationshipStorage {
        func keyColumns(stem: String, of entity: Entity, explicit: String? = nil) -> [String] {
            Self.foreignKeyColumns(
                stem: stem, key: entity.identity == .none ? [] : entity.primaryKeyColumns, explicit: explicit, naming: naming)
        }
        // A selector's entity is stored beside its id (docs/mapping.md, Polymorphism).
        func typeColumn(stem: String) -> [String] { relationship.selector == nil ? [] : [naming.typeColumn(stem: stem)] }
        if !relationship.isToMany {
            let stem = naming.foreignKeyStem(for: relationship.name)
            return .foreignKey(columns: keyColumns(stem: stem, of: target, explicit: column) + typeColumn(stem: stem))
        }
        if let inverse = relationship.inverse {
            let inverseName = target.relationships[inverse].name
            return .inverse(positionColumn: relationship.isOrdered ? naming.positionColumn(inverse: inverseName) : nil)
        }
        let ownerStem = naming.joinOwnerStem(ownerTable: owner.table, ownerEntity: owner.name)
        let targetStem = naming.joinTargetStem(relationship: relationship.name)
        return .joinTable(
            JoinTable(
                name: table ?? naming.joinTable(ownerTable: owner.table, relationship: relationship.name),
                ownerColumns: keyColumns(stem: ownerStem, of: owner),
                targetColumns: keyColumns(stem: targetStem, of: target) + typeColumn(stem: targetStem),
                positionColumn: relationship.isOrdered ? "position" : nil))
    }

    // MARK: Names

    /// Reports tables and columns that collide after conversion (SQLite compares names without
    /// case) and reserved names.
    func checkNames(_ entities: inout [Entity], drafts: [EntityDraft], naming: NamingStyle) {
        var tables: [String: String] = [:]
        func claimTable(_ name: String, by owner: String, at node: YAMLNode) {
            checkReserved(name, what: "table", of: owner, at: node)
            if let other = tables[name.lowercased()] {
                let joins = owner.hasPrefix("the join table") && other.hasPrefix("the join table")
                error(
                    .mappingInvalid,
                    "\(owner) and \(other) both become table '\(name)'\(joins ? "; map one side of a many-to-many only" : "")", at: node)
            } else {
                tables[name.lowercased()] = owner
            }
        }
        for (index, entity) in entities.enumerated() {
            claimTable(entity.table, by: "entity '\(entity.name)'", at: drafts[index].table?.node ?? drafts[index].nameNode)
        }
        for (index, entity) in entities.enumerated() {
            for relationship in entity.relationships {
                guard let join = relationship.storage.joinTable else { continue }
                let node = relationshipNode(relationship.name, in: drafts[index])
                claimTable(join.name, by: "the join table of '\(entity.name).\(relationship.name)'", at: node)
                var columns: [String: String] = [:]
                for column in join.ownerColumns + join.targetColumns + [join.positionColumn].compactMap({ $0 }) {
                    checkReserved(column, what: "column", of: "join table '\(join.name)'", at: node)
                    if columns.updateValue(column, forKey: column.lowercased()) != nil {
                        error(
                            .mappingInvalid,
                            "the join table of '\(entity.name).\(relationship.name)' would have two columns '\(column)'; "
                                + "rename the relationship",
                            at: node)
                    }
                }
            }
        }
        checkSearchNames(entities, drafts: drafts) { claimTable($0, by: $1, at: $2) }
        // Columns of each entity's table, including those other entities' ordered inverses put there.
        var columnsByTable: [[(column: String, owner: String, node: YAMLNode)]] = entities.indices.map { _ in [] }
        for (index, entity) in entities.enumerated() {
            let draft = drafts[index]
            if entity.identity == .none {
                columnsByTable[index].append((Entity.syntheticKeyColumn, "the synthetic key of 'identity: none'", draft.nameNode))
            }
            for (attributeIndex, attribute) in entity.attributes.enumerated() {
                let attributeDraft = draft.attributes[attributeIndex]
                columnsByTable[index].append(
                    (attribute.column, "attribute '\(attribute.name)'", attributeDraft.column?.node ?? attributeDraft.nameNode))
            }
            for relationship in entity.relationships {
                let node = relationshipNode(relationship.name, in: draft)
                // A join table's columns are checked above.
                for column in relationship.storage.ownerColumns {
                    columnsByTable[index].append((column, "relationship '\(relationship.name)'", node))
                }
                if let position = relationship.storage.targetPositionColumn {
                    for target in relationship.targets {
                        columnsByTable[target].append((position, "the position of '\(entity.name).\(relationship.name)'", node))
                    }
                }
            }
        }
        // After another error an attribute may be missing for it: no knock-on report.
        for (index, columns) in columnsByTable.enumerated()
        where entities[index].identity == .none && columns.count == 1 && !diagnostics.hasErrors {
            error(
                .mappingInvalid,
                "entity '\(entities[index].name)' stores nothing: with 'identity: none' and no attribute or to-one, its rows "
                    + "would hold no value; give it an attribute, or leave it out", at: drafts[index].nameNode)
        }
        for (index, columns) in columnsByTable.enumerated() where columns.count > Self.maxColumns {
            error(
                .mappingInvalid,
                "entity '\(entities[index].name)' has \(Wording.grouped(columns.count)) columns in table '\(entities[index].table)'; SQLite "
                    + "allows \(Wording.grouped(Self.maxColumns)) a table: keep the keys you need as attributes and gather the others in one "
                    + "json attribute with 'from: \"@rest\"'", at: drafts[index].nameNode)
        }
        for (index, columns) in columnsByTable.enumerated() {
            var seen: [String: String] = [:]
            for (column, owner, node) in columns {
                checkReserved(
                    column, what: "column", of: "table '\(entities[index].table)'", at: node,
                    allowSynthetic: column == Entity.syntheticKeyColumn && owner.hasPrefix("the synthetic"))
                if let other = seen[column.lowercased()] {
                    // An attribute holding a to-one's key, to key the rows by it: the to-one
                    // itself can (docs/mapping.md, Merging (Identity)).
                    let instead =
                        owner.hasPrefix("relationship '") && other.hasPrefix("attribute '")
                        ? "; to key the rows by \(owner), name it in 'identity' instead of an attribute holding its key" : ""
                    error(
                        .mappingInvalid,
                        "\(owner) and \(other) both become column '\(column)' of table '\(entities[index].table)'\(instead)", at: node)
                } else {
                    seen[column.lowercased()] = owner
                }
            }
        }
    }

    /// SQLite's limit on a table's columns as built (`SQLITE_MAX_COLUMN`), in the apps' SQLite too.
    static let maxColumns = 2000

    private func checkReserved(_ name: String, what: String, of owner: String, at node: YAMLNode, allowSynthetic: Bool = false) {
        let lower = name.lowercased()
        if lower.hasPrefix("sqlite_") || lower.hasPrefix("seed_") {
            error(
                .mappingInvalid,
                "\(what) name '\(name)' of \(owner) is reserved: names starting with 'sqlite_' or 'seed_' belong to SQLite and seeder",
                at: node)
        } else if what == "column", ["rowid", "oid", "_rowid_"].contains(lower) {
            error(.mappingInvalid, "column name '\(name)' of \(owner) is reserved by SQLite", at: node)
        }
    }

    private func relationshipNode(_ name: String, in draft: EntityDraft) -> YAMLNode {
        draft.relationships.first { $0.name == name }?.nameNode ?? draft.nameNode
    }
}
