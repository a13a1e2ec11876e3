/// What the records had against what the mapping reads, once every input is mapped
/// (docs/mapping.md, Unmapped keys and keys that match nothing): typos must not pass silently.
extension Mapper {
    /// The records mapped for `entity` (objects, embedded ones included).
    public func recordCount(of entity: Int) -> Int {
        plans[entity].recordCount
    }

    /// Reports the warnings about keys to `diagnostics`, entity by entity in mapping order:
    ///
    /// - an entity that got no record: `Comment got no record from any source`, unless
    ///   `rowsCreated` says `onMissing: create` made rows of it, or an error was reported, which
    ///   may have dropped its records with a parent's (then nothing is said about it);
    /// - the keys its records had that nothing reads and `ignore:` does not list:
    ///   `2 keys are never mapped: Repository.node_id, Repository.owner` (the first
    ///   `listedKeys`, then `and 12 more`);
    /// - each attribute (without a `default`, not fed by a `keyedBy` nor, for an
    ///   identity, by bare ids) and relationship that found its key in no record (bare ids,
    ///   which hold no key, left out: none is said when every record was one), with the
    ///   nearest unmapped key: `Repository.stars: 'stargazer_count' matched no key in 12
    ///   records (did you mean 'stargazers_count'?)`; of a to-many with `inverse` and the to-one
    ///   it names, the two sides of one link, a side without `from` is exempt when the other side
    ///   found its key (the nesting fills the to-one; the children's keys fill the to-many);
    /// - each key of `ignore:` that no record had: `Repository: ignored key 'nod_id' occurs in
    ///   no record (did you mean 'node_id'?)` when a key the records had is near it, else the
    ///   same words without the suggestion as a note, which `--strict` does not promote.
    /// The most unmapped keys one warning names.
    static let listedKeys = 20

    public func reportCoverage(to diagnostics: DiagnosticSink, rowsCreated: [Int] = []) {
        var partners: [LinkSide: LinkSide] = [:]
        for (index, entity) in mapping.entities.enumerated() {
            for (relationshipIndex, relationship) in entity.relationships.enumerated() {
                let many = LinkSide(entity: index, relationship: relationshipIndex)
                for target in relationship.targets.reversed() {
                    guard let inverse = relationship.inverse(on: target) else { continue }
                    let one = LinkSide(entity: target, relationship: inverse)
                    (partners[many], partners[one]) = (one, many)
                }
            }
        }
        for (index, entity) in mapping.entities.enumerated() {
            let plan = plans[index]
            guard plan.recordCount > 0 else {
                if index < rowsCreated.count, rowsCreated[index] > 0 { continue }
                if diagnostics.hasErrors { continue }
                diagnostics.warning(.noRecord, "\(entity.name) got no record from any source", at: entity.location)
                continue
            }
            let unmapped = unmappedKeys(of: index)
            if !unmapped.isEmpty {
                // At most `listedKeys` named: the report (`unmappedKeys`) keeps them all.
                var names = unmapped.prefix(Self.listedKeys).map { "\(entity.name).\($0)" }.joined(separator: ", ")
                if unmapped.count > Self.listedKeys { names += " and \(unmapped.count - Self.listedKeys) more" }
                let keys = Wording.count(unmapped.count, "key is", plural: "keys are")
                diagnostics.warning(.unmappedKey, "\(keys) never mapped: \(names)", at: entity.location)
            }
            // Bare ids hold no key to look for (docs/mapping.md, Unmapped keys).
            let objects = plan.recordCount - plan.bareIdCount
            guard objects > 0 else { continue }
            let records = Wording.count(objects, "record")
            func noMatch(_ name: String, _ sought: Sought, at location: SourceLocation) {
                let suggestion = Wording.didYouMean(sought.nearest(among: unmapped))
                diagnostics.warning(
                    .noMatch, "\(entity.name).\(name): \(sought.description) matched no key in \(records)\(suggestion)", at: location)
            }
            for (attributeIndex, attribute) in entity.attributes.enumerated() {
                // Its keys found, its `@where` kept no element in any record: a value mistyped
                // (`language.name = eng`) leaves the column all null (docs/mapping.md, Picking entries).
                if plan.found(attribute: attributeIndex), plan.attributeFiltersPending[attributeIndex], let keyPath = attribute.keyPath {
                    diagnostics.warning(
                        .noMatch, "\(entity.name).\(attribute.name): '\(keyPath)' kept no element in \(records)", at: attribute.location)
                    continue
                }
                guard attribute.defaultValue == nil, !attribute.hasColumnDefault, !plan.found(attribute: attributeIndex) else { continue }
                // A `keyedBy` feeds it from the records' keys; a bare id, the identity.
                if mapping.sources?.contains(where: { source in
                    source.entity.map { keyedBy(source.keyedBy, from: $0, feeds: attributeIndex, of: index, source.selector) } ?? false
                }) == true {
                    continue
                }
                if keyedByRelationship(index, attributeIndex) { continue }
                if plan.bareIdCount > 0, entity.identityAttributes == [attributeIndex] { continue }
                let firstKeyFound = plan.attributeKeyPathSlots[attributeIndex].map { plan.foundSlots[$0] } ?? false
                noMatch(
                    attribute.name, Sought(name: attribute.name, keyPath: attribute.keyPath, firstKeyFound: firstKeyFound),
                    at: attribute.location)
            }
            for (relationshipIndex, relationship) in entity.relationships.enumerated() {
                guard !plan.found(relationship: relationshipIndex) else { continue }
                guard let keyPath = relationship.keyPath else {
                    if let partner = partners[LinkSide(entity: index, relationship: relationshipIndex)],
                        plans[partner.entity].found(relationship: partner.relationship)
                    {
                        continue
                    }
                    var conventions = [Naming.snakeCase(relationship.name) + "_id"]
                    if relationship.isToMany {
                        conventions = [Naming.snakeCase(Naming.singular(relationship.name)) + "_ids"]
                        if plan.pluralConventionSlots[relationshipIndex] != nil {
                            conventions.append(Naming.snakeCase(relationship.name) + "_ids")
                        }
                    }
                    noMatch(relationship.name, Sought(name: relationship.name, conventions: conventions), at: relationship.location)
                    continue
                }
                let firstKeyFound = plan.relationshipKeyPathSlots[relationshipIndex].map { plan.foundSlots[$0] } ?? false
                noMatch(
                    relationship.name, Sought(name: relationship.name, keyPath: keyPath, firstKeyFound: firstKeyFound),
                    at: relationship.location)
            }
            // A key near one the records had is a likely typo; a key near none is one another
            // release of the service has (docs/mapping.md, Unmapped keys): a note `--strict` keeps.
            let seen = plan.ignoredKeysSeen.contains(false) ? plan.seenKeys.sorted() : []
            for (ignoredIndex, ignored) in entity.ignoredKeys.enumerated() where !plan.ignoredKeysSeen[ignoredIndex] {
                let message = "\(entity.name): ignored key '\(ignored.key)' occurs in no record"
                if let near = closestMatch(to: ignored.key, in: seen) {
                    diagnostics.warning(.noMatch, message + ignoredEnding(near, entity: index), at: ignored.location)
                } else {
                    diagnostics.report(.note(.noMatch, message, at: ignored.location))
                }
            }
        }
    }
}

extension Mapper {
    /// How a warning about an ignored key that no record had ends, given the key `near` it that
    /// records of `entity` had: the suggestion when nothing reads that key; else that the entry
    /// is to go, not to fix, since a key the mapping reads or ignores already cannot be ignored.
    fileprivate func ignoredEnding(_ near: String, entity: Int) -> String {
        if unmapped[entity].contains(near) { return Wording.didYouMean(near) }
        let already = mapping.entities[entity].ignoredKeys.contains { $0.key == near } ? "is in 'ignore' already" : "is read by the mapping"
        return "; '\(near)', near it, \(already): remove the entry"
    }

    /// `true` when a relationship's `keyedBy` feeds attribute `attribute` of entity `entity`.
    fileprivate func keyedByRelationship(_ entity: Int, _ attribute: Int) -> Bool {
        mapping.entities.contains {
            $0.relationships.contains { keyedBy($0.keyedBy, from: $0.target, feeds: attribute, of: entity, $0.selector) }
        }
    }

    /// `true` when a `keyedBy` (an attribute's index on `first`, its target's or a selector's
    /// first entity) feeds attribute `attribute` of entity `entity`.
    fileprivate func keyedBy(_ keyedBy: Int?, from first: Int, feeds attribute: Int, of entity: Int, _ selector: EntitySelector?) -> Bool {
        guard let keyedBy, (selector?.entities ?? [first]).contains(entity) else { return false }
        return keyedAttribute(keyedBy, of: first, on: entity) == attribute
    }
}

/// A relationship, as one side of a link a to-many with `inverse` and its to-one declare together.
private struct LinkSide: Hashable {
    var entity: Int
    var relationship: Int
}

/// What an attribute or relationship looked for in the records, as a message names it.
private struct Sought: CustomStringConvertible {
    var name: String
    var keyPath: KeyPath?
    /// A relationship's id conventions (`owner_id`; `tag_ids`, `tags_ids`), read in order when the
    /// name is missing.
    var conventions: [String] = []
    /// For a key path: whether some record had its first key (then the path failed further on,
    /// where the unmapped keys, a record's own, cannot suggest anything).
    var firstKeyFound = false

    /// `'stars'`, `'owner' or 'owner_id'`, `'tags', 'tag_ids' or 'tags_ids'`, `'thumbnail.pth'`.
    var description: String {
        if let keyPath { return "'\(keyPath)'" }
        return Wording.list(([name] + conventions).map { "'\($0)'" })
    }

    /// The unmapped key nearest to what was looked for, as it would be written in `from`: by
    /// name ignoring case and underscores (as names are looked up), a key path's first key by
    /// edit distance, the rest of the path kept.
    func nearest(among unmapped: [String]) -> String? {
        if var keyPath {
            guard !firstKeyFound, let first = keyPath.keys.first, let key = closestMatch(to: first, in: unmapped) else { return nil }
            keyPath.keys[0] = key
            return keyPath.description
        }
        let lookups = unmapped.map(Naming.lookupKey)
        for sought in [name] + conventions {
            if let match = closestMatch(to: Naming.lookupKey(sought), in: lookups), let index = lookups.firstIndex(of: match) {
                return unmapped[index]
            }
        }
        return nil
    }
}
