import SeederCore
import SeederFiles

/// Drafts one entity from its observer: an attribute or a relationship per key, in the order
/// the keys were first seen (docs/commands.md, `seeder infer`).
struct EntityDrafting {
    typealias Entity = InferredMapping.Entity
    typealias Attribute = InferredMapping.Attribute
    typealias Relationship = InferredMapping.Relationship

    let observer: ShapeObserver
    let identities: [String: IdentityChoice]
    let entities: [ShapeObserver]
    let flattened: FlattenedObjects

    func entity() -> Entity {
        let identity = identities[observer.name]!
        let records = observer.records
        var entity = Entity(name: observer.name, identity: identity.key, identityEvidence: identity.evidence, records: records)
        entity.onConflictFirst = identity.conflicts > 0
        entity.keyAttribute = identity.attribute
        if let keys = identity.ownedKeys, let owner = observer.ownership?.owner {
            let drafting = EntityDrafting(observer: owner, identities: identities, entities: entities, flattened: flattened)
            entity.ownedIdentity = [drafting.backReferenceName(in: observer)] + keys
            // Keys seen unique in these dumps may repeat in another release (an entry listed
            // twice): the first is kept, as for a repeated record, and the draft still builds.
            entity.onConflictFirst = true
            entity.onConflictReason = "an entry repeated within one \(owner.name) (in another release): the first occurrence wins"
        }
        if let note = observer.mergeNote { entity.notes.append(note) }
        // What the member rules draft (`EntityDrafting+Rules.swift`), key after key.
        var members = DraftedMembers(entity: entity)
        for stats in observer.keys {
            if stats.key == ShapeObserver.recordKey {
                guard !identity.attributeIsField, let name = identity.attribute else { continue }
                let type: AttributeType
                if case let .scalar(scalar, nil, _) = stats.shape, scalar == .integer || scalar == .uuid {
                    type = scalar
                } else {
                    type = .string
                }
                members.entity.attributes.append(
                    Attribute(name: name, type: type, from: nil, evidence: "the keys of the object, \(Wording.grouped(stats.present))"))
                if identity.key != nil { members.entity.identity = name }
                continue
            }
            let evidence =
                "\(Wording.grouped(stats.present)) of \(Wording.grouped(records))"
                + (stats.nulls > 0 ? "; \(Wording.grouped(stats.nulls)) null" : "")
            if identity.fromURL, stats.key == identity.key {
                // The identity is the id the record's own URL ends in (docs/mapping.md, Values
                // inside text); the URL itself is what it holds, so the key is read for it only.
                members.entity.attributes.append(
                    Attribute(
                        name: "id", type: .integer, from: stats.key, match: stats.urlIDs?.matchPattern ?? URLIdentities.pattern,
                        evidence: evidence + "; the id at the end of each URL"))
                continue
            }
            let key = DraftedKey(
                name: DraftNaming.memberName(fromKey: stats.key), evidence: evidence,
                required: stats.present == records && stats.nulls == 0 && stats.key != identity.key, identity: identity)
            // The first rule that drafts the key wins.
            for rule in Self.rules where rule.draft(self, stats, key, &members) { break }
        }
        if let note = Self.valuelessNote(members.valueless) { members.entity.notes.append(note) }
        return members.entity
    }

    /// Drafts the relationship to `child`, the records under a key of objects or arrays of
    /// objects (rule `embedded-records`): to-one, or to-many through a list envelope, ordered with
    /// a back reference when the records have no identity; created when some are references only.
    func embed(_ child: ShapeObserver, stats: KeyStats, key: DraftedKey, into entity: inout Entity) {
        let target = identities[child.name]!
        var relationship = Relationship(name: key.name, target: child.name, from: stats.key, evidence: key.evidence)
        if case .arrayOfObjects = stats.shape {
            relationship.many = true
            relationship.through = stats.envelopeKey
            if let through = stats.envelopeKey {
                relationship.evidence += "; \(Wording.count(stats.elementObjects, "object")) in list envelopes, under '\(through)'"
                entity.notes.append(
                    "'\(stats.key)' is a list envelope: its records are under '\(through)', and its other keys, "
                        + "which say how the list was paged, are left out")
            } else {
                relationship.evidence += "; \(Wording.count(stats.elementObjects, "object")) in arrays"
            }
            if let keys = target.ownedKeys {
                relationship.inverse = backReferenceName(in: child)
                relationship.evidence += ", told apart by " + Wording.list(keys.map { "'\($0)'" }, conjunction: "and")
            } else if target.key == nil {
                relationship.inverse = backReferenceName(in: child)
                relationship.ordered = true
                relationship.evidence += ", each its own (identity: none)"
            }
        } else if target.key == nil {
            relationship.evidence += "; embedded, no identity"
        }
        relationship.createMissing(target, of: child)
        entity.relationships.append(relationship)
    }

    /// The entity's note on keys that never held a value (`valueless`, as they are to be named),
    /// drafted `json`; `nil` when there are none.
    static func valuelessNote(_ valueless: [String]) -> String? {
        guard !valueless.isEmpty else { return nil }
        return Wording.list(valueless.map { "'\($0)'" }, conjunction: "and")
            + " never held a value (null or [] in every record): json, so the first one builds, whatever it is; "
            + "give each its type once it has one"
    }

    /// The entity a `*_id` or `*_ids` key refers to: one named by the key's last words
    /// (`assigned_user_id` -> `AssignedUser`, then `User`), else this entity itself (`parent_id`),
    /// else the only entity of any name, whose identities hold every value of the key. With the
    /// key's stem (`assigned_user`).
    func referenceTarget(_ stats: KeyStats, plural: Bool) -> (String, String)? {
        guard let values = stats.values, !values.overflowed, values.count > 0 else { return nil }
        var words = DraftNaming.words(of: stats.key)
        guard words.count > 1, words.last!.lowercased() == (plural ? "ids" : "id") else { return nil }
        words.removeLast()
        let named = words.indices.map { DraftNaming.entityName(fromWords: Array(words[$0...])) }
        func holdsEveryValue(_ name: String) -> Bool {
            guard let identity = identities[name], identity.key != nil, let targetValues = identity.values else { return false }
            return !targetValues.overflowed && targetValues.containsAll(of: values)
        }
        if let name = named.first(where: holdsEveryValue) { return (name, words.joined(separator: "_")) }
        // A key that names an entity which does not hold its values (a `User` without identity)
        // is no reference to another: no guess.
        if named.contains(where: { identities[$0] != nil && $0 != observer.name }) { return nil }
        if holdsEveryValue(observer.name) { return (observer.name, words.joined(separator: "_")) }
        // Named otherwise (`repo_id` of a Repository): the one entity whose identities hold every
        // value; none when several do, which would be a guess.
        let holders = identities.keys.sorted().filter(holdsEveryValue)
        return holders.count == 1 ? (holders[0], words.joined(separator: "_")) : nil
    }

    /// The entity a key of URLs refers to (`"homeworld": "https://swapi.dev/api/planets/1/"`): the
    /// one the segment before the ids names (`planets` -> `Planet`), another than this one (a
    /// record's own URL is no reference), whose identities hold every id. With the ids.
    func urlReferenceTarget(_ stats: KeyStats) -> (String, ValueSet)? {
        guard let urls = stats.urlIDs, let collection = urls.sameCollection, urls.ids.count > 0, !urls.ids.overflowed else { return nil }
        let target = DraftNaming.entityName(ofCollection: collection)
        guard target != observer.name, let identity = identities[target], identity.key != nil, let values = identity.values,
            !values.overflowed, values.containsAll(of: urls.ids)
        else { return nil }
        return (target, urls.ids)
    }

    /// The name of a child's to-one back to this entity: `character` for Character, unless a
    /// key of the child's records would be read for it.
    func backReferenceName(in child: ShapeObserver) -> String {
        let base = DraftNaming.lowerFirst(observer.name)
        var name = base
        var suffix = 1
        while child.keys.contains(where: { [Naming.lookupKey(name), Naming.lookupKey(name + "Id")].contains(Naming.lookupKey($0.key)) }) {
            suffix += 1
            name = base + "\(suffix)"
        }
        return name
    }
}

extension InferredMapping.Relationship {
    /// `onMissing: create`, with why, when some occurrences of `child`'s records (of `identity`)
    /// held nothing but the identity and its records have more keys than that.
    mutating func createMissing(_ identity: IdentityChoice, of child: ShapeObserver) {
        guard identity.referencesOnly > 0, child.keys.count > 1 else { return }
        onMissingCreate = true
        let holds = identity.referencesOnly == 1 ? "holds" : "hold"
        evidence += "; \(Wording.grouped(identity.referencesOnly)) \(holds) only the identity: onMissing: create"
    }
}
