/// An entity's `ignore:`, the JSON keys known and unwanted (docs/mapping.md, Unmapped keys and
/// keys that match nothing).
extension LoadContext {
    /// The keys of an `ignore:` list, each a string as written in the dumps, listed once, and
    /// read by no attribute or relationship of the entity: a key both ignored and read is a
    /// contradiction, reported at the listed key.
    func ignoredKeys(_ node: YAMLNode, of draft: EntityDraft) -> [IgnoredKey] {
        guard let items = node.items else {
            error(
                .mappingInvalid, "'ignore' of entity '\(draft.name)' must be a list of JSON keys, found \(node.kindDescription)", at: node)
            return []
        }
        var keys: [IgnoredKey] = []
        for item in items {
            guard let key = string(item, key: "ignore") else { continue }
            if keys.contains(where: { $0.key == key }) {
                error(.mappingInvalid, "'\(key)' is listed twice in 'ignore' of entity '\(draft.name)'", at: item)
                continue
            }
            if let reader = reader(of: key, in: draft) {
                error(.mappingInvalid, "'\(key)' is in 'ignore' of entity '\(draft.name)', but \(reader) reads it", at: item)
                continue
            }
            keys.append(IgnoredKey(key: key, location: item.location))
        }
        return keys
    }

    /// The attribute or relationship that reads `key` in every record that has it: by its `from`
    /// key path's first key (exactly), or by its name (ignoring case and underscores). An id
    /// convention (`user_id` beside `user`) is read only when the name is missing, so ignoring
    /// it is no contradiction.
    private func reader(of key: String, in draft: EntityDraft) -> String? {
        let lookup = Naming.lookupKey(key)
        func reads(_ name: String, _ keyPath: KeyPath?) -> Bool {
            if let keyPath { return keyPath.keys.first == key }
            return Naming.lookupKey(name) == lookup
        }
        if let attribute = draft.attributes.first(where: { reads($0.attribute.name, $0.attribute.keyPath) }) {
            return "attribute '\(attribute.attribute.name)'"
        }
        if let relationship = draft.relationships.first(where: { reads($0.name, $0.keyPath) }) {
            return "relationship '\(relationship.name)'"
        }
        return nil
    }
}
