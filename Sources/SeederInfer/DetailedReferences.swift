import SeederCore
import SeederFiles

/// A reference to a record detailed elsewhere is that record (docs/commands.md, `seeder infer`,
/// rule `reference-to-detailed-kind`): PokéAPI's `{"name": "steel", "url": "/api/v2/type/9/"}`,
/// under `natural_gift_type` or `double_damage_from`, names a Type whose own record is in the
/// folder `type/`. Drafted as a kind of its own, each reference would be a row apart from the
/// Type it names; merged into Type, the reference and the record merge by identity into one row.
extension ShapeCatalog {
    /// Merges each observer of embedded objects only, whose `url`s all end in ids of one
    /// collection (`type`), into the source observer that collection names (`Type`), when that
    /// one's records hold every id in their `id` and every other key of the references.
    func mergeReferencesIntoDetailedKinds() {
        for observer in observers where observer.sourceRecords == 0 {
            guard let url = IdentityChoice.urlIdentityKey(of: observer), let ids = url.urlIDs, let collection = ids.sameCollection
            else { continue }
            let name = DraftNaming.entityName(fromWords: DraftNaming.words(of: Naming.singular(collection)))
            guard let target = observers.first(where: { $0.name == name && $0.sourceRecords > 0 }), target !== observer,
                let targetIDs = target.keys.first(where: { $0.key == "id" })?.values, targetIDs.containsAll(of: ids.ids),
                observer.keys.allSatisfy({ key in key.key == url.key || target.keys.contains { $0.key == key.key } })
            else { continue }
            let under = embeddingKeys(observer).map { "'\($0)'" }
            target.mergeNote =
                "one entity for its source's records and the references to them under " + Wording.list(under, conjunction: "and")
                + ": every '\(url.key)' ends in the id of one of them"
            replace(observer, by: target)
        }
    }
}
