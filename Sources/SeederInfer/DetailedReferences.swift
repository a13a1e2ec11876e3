import SeederCore
import SeederFiles

/// A reference to a record detailed elsewhere is that record (docs/commands.md, `seeder infer`,
/// rule `reference-to-detailed-kind`): PokéAPI's `{"name": "steel", "url": "/api/v2/type/9/"}`,
/// under `natural_gift_type` or `double_damage_from`, names the Type whose own record is
/// `type/9.json`. Read as records, the references would be rows of their own, or rows merged
/// with the Type by `name` (which the detailed record has, but a reference holds without the
/// `id`); read as the id their URL ends in (`from: natural_gift_type.url`, `match:`), they are
/// links to the Type keyed by its `id`, which every detailed record has.
extension ShapeCatalog {
    /// Resolves each key's `KeyStats.references`: when every object under the key was one, and
    /// their URLs all end in ids of one collection (`type`) whose source records (`Type`) hold
    /// every id in their `id` and every other key of the references, the key refers to those
    /// records (`KeyStats.referenced`). Any other references are records of the key's kind
    /// again, as if observed with the others.
    func resolveDetailedReferences() {
        for observer in Array(observers) {
            for stats in observer.keys {
                guard let references = stats.references else { continue }
                stats.references = nil
                if stats.child == nil, stats.objects == 0 || stats.arrays == 0, let url = detailedKey(of: references) {
                    stats.referenced = url
                    observers.removeAll { $0 === references }
                } else if stats.child == nil {
                    stats.child = references
                }
                // Else the references rejoin the others of their name (`separateOwnedRecords`).
            }
        }
    }

    /// Renames each kind of record that no source reads and whose identity is the id its URL
    /// ends in, all of one collection, for that collection (`learned_by_pokemon` -> `Pokemon`
    /// for `/api/v2/pokemon/25/`): the key it sat under names a use, the URL the kind. A name
    /// another kind has stays that kind's.
    func nameByURLKind() {
        for observer in observers where observer.sourceRecords == 0 && !observer.isKeyedRecords && !observer.isOwned {
            guard let collection = IdentityChoice.urlIdentityKey(of: observer)?.urlIDs?.sameCollection else { continue }
            let name = DraftNaming.entityName(ofCollection: collection)
            guard name != observer.name, byName[name] == nil || byName[name] === observer else { continue }
            observer.name = name
            byName[name] = observer
        }
    }

    /// The source records `references` name by the ids their URL ends in, and the key of it.
    private func detailedKey(of references: ShapeObserver) -> (target: ShapeObserver, urlKey: String)? {
        // (A negative id is left to the records' own identity: `detailedReference` reads digits.)
        guard let url = IdentityChoice.urlIdentityKey(of: references), let ids = url.urlIDs, let collection = ids.sameCollection,
            !ids.negative
        else { return nil }
        let name = DraftNaming.entityName(ofCollection: collection)
        guard let target = byName[name], target.sourceRecords > 0,
            let targetIDs = target.keys.first(where: { $0.key == "id" }), targetIDs.present == target.records,
            let values = targetIDs.values, values.containsAll(of: ids.ids),
            references.keys.allSatisfy({ key in key.key == url.key || target.keys.contains { $0.key == key.key } })
        else { return nil }
        return (target, url.key)
    }
}

extension InferredMapping.Relationship {
    /// A relationship read from the URLs of references to `target`'s detailed records, under the
    /// keys `path` (`["type"]`, or `["damage_relations", "double_damage_from"]` through an
    /// object flattened into its owner): `from: type.url`, `match:` the id the URL ends in.
    static func detailedReference(name: String, to target: String, many: Bool, path: [String], urlKey: String, evidence: String) -> Self {
        var relationship = Self(
            name: name, target: target, many: many, from: path[0],
            evidence: evidence + "; the id at the end of each '\(urlKey)', an id of \(target)")
        relationship.path = path + [urlKey]
        relationship.match = URLIdentities.pattern
        return relationship
    }
}
