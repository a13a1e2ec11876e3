import SeederCore
import SeederFiles

/// Names that stay valid (docs/mapping.md, Names and keys): unique within the entity, as names
/// and as columns (compared without case, as SQLite does), never reserved; a member whose name
/// does not read its key by itself keeps `from:`.
extension EntityDrafting {
    static let reservedColumns: Set<String> = ["rowid", "oid", "_rowid_"]

    static func isReserved(_ column: String) -> Bool {
        let lower = column.lowercased()
        return lower.hasPrefix("sqlite_") || lower.hasPrefix("seed_") || reservedColumns.contains(lower)
    }

    /// Gives every attribute and relationship of `entity` a name of its own, and drops each
    /// `from:` that name lookup makes unnecessary. `keys` are the JSON keys of its records.
    static func resolveNames(_ entity: inout Entity, keys: [String]) {
        var names: Set<String> = ["none"]  // `identity: none` would not name an attribute `none`
        var columns = Set<String>()
        if entity.identity == nil { columns.insert(Entity.syntheticKeyColumn) }
        func claim(_ proposed: String, column: (String) -> String?) -> String {
            var base = proposed
            if isReserved(Naming.snakeCase(base)) || (column(base).map(isReserved) ?? false) {
                base = "field" + DraftNaming.capitalized(base)
            }
            var name = base
            var suffix = 1
            while names.contains(name.lowercased()) || column(name).map({ columns.contains($0.lowercased()) }) == true {
                suffix += 1
                name = base + "\(suffix)"
            }
            names.insert(name.lowercased())
            if let column = column(name) { columns.insert(column.lowercased()) }
            return name
        }
        // Back references first: the parent's `inverse:` names them.
        for index in entity.relationships.indices where entity.relationships[index].isBackReference {
            let name = entity.relationships[index].name
            names.insert(name.lowercased())
            columns.insert(Naming.snakeCase(name + "Id").lowercased())
            columns.insert(Naming.snakeCase(name + "Position").lowercased())
        }
        // The identity, and the attribute the keys of an object keyed by these records become,
        // name a key of the records (`from`) or an attribute of their own: both follow renaming.
        let identityKey = entity.identity
        let keyAttribute = entity.keyAttribute
        // The member each key of the records became, for an owned identity's keys.
        var memberOfKey: [String: String] = [:]
        for index in entity.attributes.indices {
            let attribute = entity.attributes[index]
            let name = claim(attribute.name) { Naming.snakeCase($0) }
            entity.attributes[index].name = name
            if attribute.parents.isEmpty { memberOfKey[attribute.from ?? attribute.name] = name }
            // A key of a flattened object is read through it: never an identity, always `from:`.
            guard attribute.parents.isEmpty else { continue }
            if (attribute.from ?? attribute.name) == identityKey { entity.identity = name }
            if (attribute.from ?? attribute.name) == keyAttribute { entity.keyAttribute = name }
            if let key = attribute.from, readsByName(name, key: key, among: keys) { entity.attributes[index].from = nil }
        }
        for index in entity.relationships.indices where !entity.relationships[index].isBackReference {
            let relationship = entity.relationships[index]
            let name = claim(relationship.name) { relationship.many ? nil : Naming.snakeCase($0 + "Id") }
            entity.relationships[index].name = name
            if relationship.path == nil, relationship.through == nil { memberOfKey[relationship.from ?? relationship.name] = name }
            guard let key = relationship.from, relationship.through == nil, relationship.path == nil else { continue }
            var conventions = [name]
            if relationship.many {
                conventions += [Naming.singular(name) + "_ids", name + "_ids"]
            } else {
                conventions.append(name + "_id")
            }
            let forms = conventions.map(Naming.lookupKey)
            let matching = keys.filter { forms.contains(Naming.lookupKey($0)) }
            let readFirst = keys.filter { Naming.lookupKey($0) == forms[0] }
            if matching == [key], readFirst.isEmpty || readFirst == [key] {
                entity.relationships[index].from = nil
                entity.relationships[index].key = key
            }
        }
        if let owned = entity.ownedIdentity {
            entity.ownedIdentity = [owned[0]] + owned.dropFirst().map { memberOfKey[$0] ?? $0 }
        }
    }

    /// Makes each `keyedBy` (of a to-many, of a source) name its entity's attribute as
    /// `resolveNames` named it.
    static func resolveKeyedBy(_ mapping: inout InferredMapping) {
        var keyAttributes: [String: String] = [:]
        for entity in mapping.entities { keyAttributes[entity.name] = entity.keyAttribute }
        for entity in mapping.entities.indices {
            for index in mapping.entities[entity].relationships.indices where mapping.entities[entity].relationships[index].keyedBy != nil {
                let target = mapping.entities[entity].relationships[index].target
                mapping.entities[entity].relationships[index].keyedBy = keyAttributes[target]
            }
        }
        for index in mapping.sources.indices where mapping.sources[index].keyedBy != nil {
            mapping.sources[index].keyedBy = keyAttributes[mapping.sources[index].entity]
        }
    }

    /// Whether an attribute named `name` reads `key` with no `from:`: exactly, or as the only
    /// key that matches ignoring case and underscores.
    static func readsByName(_ name: String, key: String, among keys: [String]) -> Bool {
        if name == key { return true }
        let form = Naming.lookupKey(name)
        guard Naming.lookupKey(key) == form, !keys.contains(name) else { return false }
        return keys.filter { Naming.lookupKey($0) == form }.count == 1
    }
}

extension InferredMapping.Entity {
    /// The column of `identity: none`'s synthetic key.
    static let syntheticKeyColumn = "_pk"
}
