import SeederCore
import SeederFiles

/// Records of an array that are unique within each record holding them belong to it
/// (docs/commands.md, `seeder infer`, rule `owned-identity`): a PokéAPI ability's `names`, one
/// per `language`, are drafted `AbilityName` with `identity: [ability, language]`, so that a name
/// added upstream is one row added, where `identity: none` would renumber every row after it.
/// The identity names the to-one to the owner, so records of one kind under several owners
/// (`names` of abilities, of moves, of types) are an entity per owner.
extension ShapeCatalog {
    /// Keeps apart the records of each owner's array whose `OwnedKeys` found keys unique within
    /// every array, when they have no identity of their own and their owner has one (or is kept
    /// apart in turn); every other owned observer rejoins the others of its name, as one
    /// observer would have counted them all. Top-down, from the records found by name.
    func separateOwnedRecords() {
        var pending = observers.filter { !$0.isOwned }.reversed() as [ShapeObserver]
        var apart = Set<ObjectIdentifier>()
        while let owner = pending.popLast() {
            guard owner.ownership != nil || IdentityChoice(of: owner, keyed: owner.isKeyedRecords).key != nil else { continue }
            for stats in owner.keys {
                guard let child = stats.child, child.isOwned, !apart.contains(ObjectIdentifier(child)), stats.objects == 0,
                    child.keyedData == nil, !child.isKeyedRecords, IdentityChoice(of: child, keyed: false).key == nil,
                    let keys = stats.owned.ranked.first(where: { canIdentify($0, in: child) })
                else { continue }
                child.ownership = (owner, keys)
                apart.insert(ObjectIdentifier(child))
                pending.append(child)
            }
        }
        // Named for the owner when others are of the same name: AbilityName beside MoveName.
        // Owners first (they were seen first), so that a chain reads `MoveEffectChangeEffectEntry`.
        let kept = observers.filter { apart.contains(ObjectIdentifier($0)) }
        let shared = Set(Dictionary(grouping: observers, by: \.name).filter { $0.value.count > 1 }.keys)
        for observer in kept where shared.contains(observer.name) {
            observer.name = observer.ownership!.owner.name + observer.name
        }
        for observer in Array(observers) where observer.isOwned && !apart.contains(ObjectIdentifier(observer)) {
            // The first of the name in first-seen order stays, so the draft keeps its order.
            let first = observers.first { $0.name == observer.name && !apart.contains(ObjectIdentifier($0)) }!
            if first === observer {
                if let registered = byName[observer.name], registered !== observer { replace(registered, by: observer) }
                register(observer)
            } else {
                replace(observer, by: first)
                register(first)
            }
        }
    }

    /// Whether each of `keys` of `child`'s records can stand in an identity: a scalar attribute,
    /// or a to-one to records that have an identity.
    private func canIdentify(_ keys: [String], in child: ShapeObserver) -> Bool {
        keys.allSatisfy { key in
            guard let stats = child.stats(key), stats.present == child.records, stats.nulls == 0 else { return false }
            if stats.objects == 0 { return stats.booleans + stats.fractions + stats.arrays == 0 }
            // A reference to detailed records, keyed by their `id` (`resolveDetailedReferences`).
            if stats.referenced != nil { return stats.arrays == 0 }
            guard stats.objects == stats.present, let target = MappingInference.nestedEntity(stats) else { return false }
            return IdentityChoice(of: target, keyed: target.isKeyedRecords).key != nil
        }
    }
}
