/// Identities that name a to-one (docs/mapping.md, Merging (Identity): a to-one in the
/// identity): which relationships may stand in one, and the key each entity's table then has.
extension LoadContext {
    /// Resolves the relationships that identities name (by their index among the drafts until
    /// now) to the entities' relationships, checks them, and sets each such entity's
    /// `ownedKey`.
    func resolveOwnedIdentities(_ entities: inout [Entity], drafts: [EntityDraft], naming: NamingStyle) {
        for (index, draft) in drafts.enumerated() {
            guard case let .owned(drafted) = entities[index].identity else { continue }
            var parts: [IdentityPart] = []
            for part in drafted {
                guard let draftIndex = part.relationship else {
                    parts.append(part)
                    continue
                }
                let name = draft.relationships[draftIndex].name
                // A relationship left out after an error of its own.
                guard let relationshipIndex = entities[index].relationshipIndex(named: name) else { continue }
                let relationship = entities[index].relationships[relationshipIndex]
                let node = identityItem(named: name, in: draft)
                let target = entities[relationship.target]
                if relationship.isToMany {
                    error(
                        .mappingInvalid,
                        "identity names '\(name)', a to-many; only a to-one can stand in an identity, for the one key it stores",
                        at: node)
                } else if relationship.selector != nil {
                    error(
                        .mappingInvalid,
                        "identity names '\(name)', a relationship to a selector; its key holds the chosen entity's name beside the "
                            + "id, which an identity cannot stand on: name a to-one to one entity", at: node)
                } else if target.identity == .none {
                    error(
                        .mappingInvalid,
                        "identity names '\(name)', but its target \(target.name) has 'identity: none': it has no key to stand for",
                        at: node)
                } else {
                    entities[index].relationships[relationshipIndex].isRequired = true
                    parts.append(.relationship(relationshipIndex))
                }
            }
            entities[index].identity =
                parts.contains { $0.relationship != nil } ? .owned(parts) : .attributes(parts.compactMap(\.attribute))
        }
        // A reference made into a row carries no owner's row to belong to (docs/mapping.md,
        // Missing references).
        for (index, entity) in entities.enumerated() {
            for relationship in entity.relationships where relationship.onMissing == .create {
                guard case .owned = entities[relationship.target].identity else { continue }
                let target = entities[relationship.target].name
                error(
                    .mappingInvalid,
                    "'\(entity.name).\(relationship.name)' has 'onMissing: create', but \(target)'s identity names a to-one: a row "
                        + "made from a reference would belong to no owner's row; use 'error' or 'null'",
                    at: drafts[index].relationships.first { $0.name == relationship.name }?.nameNode ?? drafts[index].nameNode)
            }
        }
        var keys: [[KeyColumn]?] = entities.map { _ in nil }
        var visiting: Set<Int> = []
        for index in entities.indices {
            guard case .owned = entities[index].identity else { continue }
            if let key = ownedKey(of: index, entities, drafts: drafts, naming: naming, keys: &keys, visiting: &visiting) {
                entities[index].ownedKey = key
            } else {
                entities[index].identity = .attributes(entities[index].identityAttributes)
            }
        }
    }

    /// The key of entity `index`: its identity's attributes, and for each to-one the target's key
    /// under the relationship's foreign-key columns (a composite key of composite keys when the
    /// target's identity names a to-one too); `nil` after an identity that names itself, through
    /// any chain of to-ones.
    private func ownedKey(
        of index: Int, _ entities: [Entity], drafts: [EntityDraft], naming: NamingStyle, keys: inout [[KeyColumn]?],
        visiting: inout Set<Int>
    ) -> [KeyColumn]? {
        if let key = keys[index] { return key }
        let entity = entities[index]
        guard case let .owned(parts) = entity.identity else {
            return entity.identityAttributes.map { KeyColumn(column: entity.attributes[$0].column, entity: index, attribute: $0) }
        }
        guard visiting.insert(index).inserted else {
            error(
                .mappingInvalid,
                "the identity of '\(entity.name)' names itself through its to-ones; an owner's key must not depend on its own rows",
                at: drafts[index].identityNode ?? drafts[index].nameNode)
            return nil
        }
        defer { visiting.remove(index) }
        var key: [KeyColumn] = []
        for part in parts {
            switch part {
            case let .attribute(attribute):
                key.append(KeyColumn(column: entity.attributes[attribute].column, entity: index, attribute: attribute))
            case let .relationship(relationshipIndex):
                let relationship = entity.relationships[relationshipIndex]
                guard
                    let targetKey = ownedKey(
                        of: relationship.target, entities, drafts: drafts, naming: naming, keys: &keys, visiting: &visiting)
                else { return nil }
                let explicit = drafts[index].relationships.first { $0.name == relationship.name }?.column?.name
                let columns = Self.foreignKeyColumns(
                    stem: naming.foreignKeyStem(for: relationship.name), key: targetKey.map(\.column), explicit: explicit,
                    naming: naming)
                for (column, target) in zip(columns, targetKey) {
                    key.append(KeyColumn(column: column, entity: target.entity, attribute: target.attribute))
                }
            }
        }
        keys[index] = key
        return key
    }

    /// The foreign-key columns of a reference to a table whose primary key is `key`: one
    /// `<stem>_id` (or `explicit`) for a key of one column, else `<stem>_<column>` per column.
    static func foreignKeyColumns(stem: String, key: [String], explicit: String?, naming: NamingStyle) -> [String] {
        guard key.count > 1 else { return [explicit ?? naming.idColumn(stem: stem)] }
        return key.map { naming.compositeColumn(stem: explicit ?? stem, column: $0) }
    }

    /// The node of `identity:` that names `name`.
    private func identityItem(named name: String, in draft: EntityDraft) -> YAMLNode {
        let node = draft.identityNode ?? draft.nameNode
        return (node.items ?? [node]).first { $0.scalar == name } ?? node
    }
}
