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
                    return attribute
                },
                relationships: [], onConflict: draft.onConflict, nulls: draft.nulls, location: draft.nameNode.location,
                ignoredKeys: draft.ignoredKeys)
        }
        for index in entities.indices {
            for attribute in entities[index].identityAttributes {
                entities[index].attributes[attribute].isRequired = true
            }
        }
        let names = drafts.map(\.name)
        for (owner, draft) in drafts.enumerated() {
            for relationshipDraft in draft.relationships {
                guard let target = relationshipDraft.target else { continue }
                guard let targetIndex = names.firstIndex(of: target.name) else {
                    let suggestion = closestMatch(to: target.name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
                    error("unknown entity '\(target.name)' in 'to'\(suggestion)", at: target.node)
                    continue
                }
                entities[owner].relationships.append(
                    Relationship(
                        name: relationshipDraft.name, target: targetIndex, isToMany: relationshipDraft.isToMany,
                        keyPath: relationshipDraft.keyPath, inverse: nil, isOrdered: relationshipDraft.isOrdered,
                        isRequired: relationshipDraft.isRequired, onMissing: relationshipDraft.onMissing,
                        storage: .foreignKey(columns: []), location: relationshipDraft.nameNode.location))
                if let keyedBy = relationshipDraft.keyedBy {
                    let index = entities[owner].relationships.count - 1
                    entities[owner].relationships[index].keyedBy = keyedAttribute(keyedBy.name, at: keyedBy.node, of: entities[targetIndex])
                }
            }
        }
        // Inverses, once every relationship exists.
        for (owner, draft) in drafts.enumerated() {
            for relationshipDraft in draft.relationships {
                guard let inverse = relationshipDraft.inverse,
                    let index = entities[owner].relationshipIndex(named: relationshipDraft.name)
                else { continue }
                let target = entities[owner].relationships[index].target
                let targetEntity = entities[target]
                guard let inverseIndex = targetEntity.relationshipIndex(named: inverse.name) else {
                    let suggestion =
                        closestMatch(to: inverse.name, in: targetEntity.relationships.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
                    error(
                        "inverse '\(inverse.name)' is not a relationship of \(targetEntity.name)\(suggestion); "
                            + "it must be a to-one from \(targetEntity.name) back to \(draft.name)",
                        at: inverse.node)
                    continue
                }
                let candidate = targetEntity.relationships[inverseIndex]
                guard !candidate.isToMany, candidate.target == owner else {
                    error(
                        "inverse '\(inverse.name)' is not a to-one relationship from \(targetEntity.name) back to \(draft.name)",
                        at: inverse.node)
                    continue
                }
                entities[owner].relationships[index].inverse = inverseIndex
            }
        }
        // Storage names, once identities and tables are known.
        for owner in entities.indices {
            for index in entities[owner].relationships.indices {
                let relationship = entities[owner].relationships[index]
                let draft = drafts[owner].relationships.first { $0.name == relationship.name }
                entities[owner].relationships[index].storage = storage(
                    of: relationship, owner: entities[owner], target: entities[relationship.target],
                    column: draft?.column?.name, naming: naming, entities: entities)
            }
        }
        return entities
    }

    private func identity(of draft: EntityDraft) -> Identity {
        let names = draft.attributes.map(\.attribute.name)
        guard let node = draft.identityNode else {
            if let id = names.firstIndex(of: "id") { return .attributes([id]) }
            if draft.declaredAttributeNames.contains("id") { return .none }  // declared with an error of its own
            error(
                "entity '\(draft.name)' has no attribute 'id': name its identity ('identity: slug', or a list) or say 'identity: none'",
                at: draft.nameNode)
            return .none
        }
        if node.scalar == "none" { return .none }
        let items = node.items ?? [node]
        var indexes: [Int] = []
        for item in items {
            guard let name = item.scalar else {
                error("'identity' must name attributes, found \(item.kindDescription)", at: item)
                continue
            }
            guard let index = names.firstIndex(of: name) else {
                if draft.declaredAttributeNames.contains(name) { continue }  // declared with an error of its own
                let suggestion = closestMatch(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
                error("identity attribute '\(name)' is not declared in '\(draft.name).attributes'\(suggestion)", at: item)
                continue
            }
            if indexes.contains(index) {
                error("identity names '\(name)' twice", at: item)
                continue
            }
            let type = draft.attributes[index].attribute.type
            if type == .json || type == .data {
                error("identity attribute '\(name)' is \(type.rawValue); an identity must be a comparable value", at: item)
            }
            indexes.append(index)
        }
        if items.isEmpty { error("'identity' names no attribute", at: node) }
        return .attributes(indexes)
    }

    private func storage(
        of relationship: Relationship, owner: Entity, target: Entity, column: String?, naming: NamingStyle, entities: [Entity]
    ) -> RelationshipStorage {
        func keyColumns(stem: String, of entity: Entity, explicit: String? = nil) -> [String] {
            let identity = entity.identityAttributes
            guard identity.count > 1 else { return [explicit ?? naming.idColumn(stem: stem)] }
            return identity.map { naming.compositeColumn(stem: explicit ?? stem, column: entity.attributes[$0].column) }
        }
        if !relationship.isToMany {
            return .foreignKey(columns: keyColumns(stem: naming.foreignKeyStem(for: relationship.name), of: target, explicit: column))
        }
        if let inverse = relationship.inverse {
            let inverseName = target.relationships[inverse].name
            return .inverse(positionColumn: relationship.isOrdered ? naming.positionColumn(inverse: inverseName) : nil)
        }
        let ownerStem = naming.joinOwnerStem(ownerTable: owner.table, ownerEntity: owner.name)
        return .joinTable(
            JoinTable(
                name: naming.joinTable(ownerTable: owner.table, relationship: relationship.name),
                ownerColumns: keyColumns(stem: ownerStem, of: owner),
                targetColumns: keyColumns(stem: naming.joinTargetStem(relationship: relationship.name), of: target),
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
                error("\(owner) and \(other) both become table '\(name)'", at: node)
            } else {
                tables[name.lowercased()] = owner
            }
        }
        for (index, entity) in entities.enumerated() {
            claimTable(entity.table, by: "entity '\(entity.name)'", at: drafts[index].table?.node ?? drafts[index].nameNode)
        }
        for (index, entity) in entities.enumerated() {
            for relationship in entity.relationships {
                guard case let .joinTable(join) = relationship.storage else { continue }
                let node = relationshipNode(relationship.name, in: drafts[index])
                claimTable(join.name, by: "the join table of '\(entity.name).\(relationship.name)'", at: node)
                var columns: [String: String] = [:]
                for column in join.ownerColumns + join.targetColumns + [join.positionColumn].compactMap({ $0 }) {
                    checkReserved(column, what: "column", of: "join table '\(join.name)'", at: node)
                    if columns.updateValue(column, forKey: column.lowercased()) != nil {
                        error(
                            "the join table of '\(entity.name).\(relationship.name)' would have two columns '\(column)'; "
                                + "rename the relationship",
                            at: node)
                    }
                }
            }
        }
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
                switch relationship.storage {
                case let .foreignKey(columns):
                    for column in columns { columnsByTable[index].append((column, "relationship '\(relationship.name)'", node)) }
                case let .inverse(positionColumn?):
                    columnsByTable[relationship.target].append(
                        (positionColumn, "the position of '\(entity.name).\(relationship.name)'", node))
                default:
                    break
                }
            }
        }
        for (index, columns) in columnsByTable.enumerated() {
            var seen: [String: String] = [:]
            for (column, owner, node) in columns {
                checkReserved(
                    column, what: "column", of: "table '\(entities[index].table)'", at: node,
                    allowSynthetic: column == Entity.syntheticKeyColumn && owner.hasPrefix("the synthetic"))
                if let other = seen[column.lowercased()] {
                    error("\(owner) and \(other) both become column '\(column)' of table '\(entities[index].table)'", at: node)
                } else {
                    seen[column.lowercased()] = owner
                }
            }
        }
    }

    private func checkReserved(_ name: String, what: String, of owner: String, at node: YAMLNode, allowSynthetic: Bool = false) {
        let lower = name.lowercased()
        if lower.hasPrefix("sqlite_") || lower.hasPrefix("seed_") {
            error(
                "\(what) name '\(name)' of \(owner) is reserved: names starting with 'sqlite_' or 'seed_' belong to SQLite and seeder",
                at: node)
        } else if what == "column", ["rowid", "oid", "_rowid_"].contains(lower) {
            error("column name '\(name)' of \(owner) is reserved by SQLite", at: node)
        }
    }

    private func relationshipNode(_ name: String, in draft: EntityDraft) -> YAMLNode {
        draft.relationships.first { $0.name == name }?.nameNode ?? draft.nameNode
    }
}
