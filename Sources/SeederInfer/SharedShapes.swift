import SeederCore
import SeederFiles

/// One kind of record under several keys is one entity (docs/commands.md, `seeder infer`, Nested
/// records): a GitHub account is the `user` of an issue, its `assignee` and `closed_by`, the
/// `owner` of a repository and the `uploader` of an asset, and drafting an entity per key would
/// make each account a row of every table it appears in.
///
/// Records under different keys are one kind when they have the same keys, the same identity,
/// no identity under both with different records, and either some identity under both with the
/// same record or at least `distinctiveKeys` keys.
/// A source's records join them (`users.json` beside `author` copies), but two sources' do not.
/// Records that only look alike stay apart: other keys (a commit's `author`, with no `login`),
/// few keys whose identities never meet (`{"id", "name"}` of labels and of milestones), or
/// identities that collide with different contents.
extension ShapeCatalog {
    /// Records of this many keys, the same ones, are one kind even when no identity is under
    /// two of their keys (an organization only ever an `owner`, a person only ever a `user`):
    /// too many keys to share by chance, where `{"id", "name"}` is not.
    static let distinctiveKeys = 8

    /// Merges each group of observers of one kind into one: a source's own (the file names what
    /// it holds), else the one of the most records. Observers keyed by data, of records with
    /// fewer than two keys, without identity, or read by a keyed source are never merged. Every
    /// nested record's observer then points to the merged one, which `observer(named:)` finds by
    /// the other names too.
    func mergeSharedShapes(keyedSources: Set<ObjectIdentifier>) {
        struct Group {
            var members: [ShapeObserver]
            /// The members' identities together, and each member's: a group of one shares its
            /// member's set, and nothing is copied until a second joins.
            var values: ValueSet
            var memberValues: [ValueSet]
        }
        var groups: [String: [Group]] = [:]
        var order: [String] = []
        for observer in observers {
            guard !observer.isKeyedRecords, !keyedSources.contains(ObjectIdentifier(observer)), observer.keyedData == nil,
                (2...MappingInference.maxKeys).contains(observer.keys.count)
            else { continue }
            let identity = IdentityChoice(of: observer, keyed: false)
            guard let key = identity.key, let values = identity.values, !values.overflowed else { continue }
            let kind = ([key] + observer.keys.map(\.key).sorted()).joined(separator: "\u{0}")
            if groups[kind] == nil { order.append(kind) }
            let joined = groups[kind, default: []].firstIndex { group in
                // Two files name what they hold: their records stay apart, as without this merge,
                // unless one name is the other's last words (`related_artists.json` beside
                // `artists.json`, `top_tracks.json` beside `tracks.json`).
                if observer.sourceRecords > 0,
                    group.members.contains(where: { $0.sourceRecords > 0 && !Self.namesOneKind(observer.name, $0.name) })
                {
                    return false
                }
                let overlap = group.values.overlap(with: values)
                return (overlap.same > 0 || observer.keys.count >= Self.distinctiveKeys) && overlap.different == 0
            }
            if let joined {
                groups[kind]![joined].members.append(observer)
                groups[kind]![joined].values.add(values)
                groups[kind]![joined].memberValues.append(values)
            } else {
                groups[kind, default: []].append(Group(members: [observer], values: values, memberValues: [values]))
            }
        }
        for kind in order {
            for group in groups[kind]! where group.members.count > 1 {
                var holders: [UInt64: Int] = [:]
                for values in group.memberValues { for hash in values.contents.keys { holders[hash, default: 0] += 1 } }
                let shared = holders.values.filter { $0 > 1 }.count
                merge(group.members, shared: shared, identity: IdentityChoice(of: group.members[0], keyed: false).key!)
            }
        }
    }

    /// Whether one entity name is the other's last words (`Artist`, `RelatedArtist`): the same
    /// kind, as the longer name says.
    static func namesOneKind(_ one: String, _ other: String) -> Bool {
        let (short, long) = one.count <= other.count ? (one, other) : (other, one)
        let shortWords = DraftNaming.words(of: short), longWords = DraftNaming.words(of: long)
        return !shortWords.isEmpty && longWords.count > shortWords.count && Array(longWords.suffix(shortWords.count)) == shortWords
    }

    /// Sources of one kind of record under names that do not say so (`home-timeline.json`,
    /// `public-timeline.json`, `status-1.json`, each a page of statuses) are one entity: at least
    /// `distinctiveKeys` keys and the same identity, and either the same keys, or nine in ten of
    /// them in common and some identity in both. Their copies of one record may differ (recorded
    /// at other times): the first wins (`onConflict: first`), as for embedded copies.
    func mergeSourcesOfOneKind(keyedSources: Set<ObjectIdentifier>) {
        let candidates = observers.filter { observer in
            observer.sourceRecords > 0 && !observer.isKeyedRecords && !keyedSources.contains(ObjectIdentifier(observer))
                && observer.keyedData == nil && (Self.distinctiveKeys...MappingInference.maxKeys).contains(observer.keys.count)
        }
        var identities: [(observer: ShapeObserver, key: String, values: ValueSet, keys: Set<String>)] = []
        for observer in candidates {
            let identity = IdentityChoice(of: observer, keyed: false)
            guard let key = identity.key, let values = identity.values, !values.overflowed else { continue }
            identities.append((observer, key, values, Set(observer.keys.map(\.key))))
        }
        // Groups by any pair that meets, in the observers' order.
        var group = Array(identities.indices)
        func root(_ index: Int) -> Int { group[index] == index ? index : root(group[index]) }
        for this in identities.indices {
            for that in 0..<this {
                let (a, b) = (identities[this], identities[that])
                let overlap = b.values.overlap(with: a.values)
                let meet = overlap.same + overlap.different > 0
                guard a.key == b.key, a.keys == b.keys || (meet && a.keys.intersection(b.keys).count * 10 >= a.keys.union(b.keys).count * 9)
                else { continue }
                let (x, y) = (root(this), root(that))
                group[max(x, y)] = min(x, y)
            }
        }
        let groups = Dictionary(grouping: identities.indices, by: root).values.sorted { $0[0] < $1[0] }
        for group in groups where group.count > 1 {
            let members = group.map { identities[$0].observer }
            // The name the records' embedding keys give them (`account` -> Account), else the
            // source of the most records: `Me` and `FavouritedBy` are accounts.
            let embedded = members.filter { !embeddingKeys($0).isEmpty }
            let pool = embedded.isEmpty ? members : embedded
            let survivor = pool.reduce(pool[0]) { $1.records > $0.records ? $1 : $0 }
            let shared = group.flatMap { identities[$0].values.contents.keys }
            let repeated = Dictionary(shared.map { ($0, 1) }, uniquingKeysWith: +).values.filter { $0 > 1 }.count
            survivor.mergeNote =
                "one entity for the records of the sources named "
                + Wording.list(members.map(\.name).sorted(), conjunction: "and")
                + ": \(Wording.count(survivor.keys.count, "key")) or nearly, the same identity ('\(identities[group[0]].key)'), "
                + "\(Wording.count(repeated, "identity", plural: "identities")) in more than one of them"
            for other in members where other !== survivor { replace(other, by: survivor, asCopies: true) }
        }
    }

    /// Makes `survivor` hold `other`'s records and stand wherever it stood.
    func replace(_ other: ShapeObserver, by survivor: ShapeObserver, asCopies: Bool = false) {
        survivor.absorb(other, asCopies: asCopies)
        for observer in observers {
            for stats in observer.keys where stats.child === other { stats.child = survivor }
            if observer.keyedRecords === other { observer.keyedRecords = survivor }
        }
        observers.removeAll { $0 === other }
        byName[other.name] = survivor
        for (name, observer) in byName where observer === other { byName[name] = survivor }
    }

    private func merge(_ members: [ShapeObserver], shared: Int, identity: String) {
        // A source's own name (the file names what it holds), the shortest of two: `Artist`, not
        // `RelatedArtist`.
        let sources = members.filter { $0.sourceRecords > 0 }
        let survivor =
            sources.min { ($0.name.count, $0.name) < ($1.name.count, $1.name) }
            ?? members.reduce(members[0]) { $1.records > $0.records ? $1 : $0 }
        let under = members.flatMap(embeddingKeys)
        let files = sources.count > 1 ? ["its sources"] : sources.isEmpty ? [] : ["its source"]
        survivor.mergeNote =
            "one entity for the records under " + Wording.list((files + under.map { "'\($0)'" }).uniqued(), conjunction: "and")
            + ": the same \(Wording.count(survivor.keys.count, "key")) and identity ('\(identity)'), "
            + (shared > 0
                ? "\(Wording.count(shared, "identity", plural: "identities")) under more than one of them with the same record"
                : "no identity under two of them with different records")
        for other in members where other !== survivor { replace(other, by: survivor) }
    }

    /// The keys whose objects (or arrays' objects) `observer` counted, in first-seen order.
    func embeddingKeys(_ observer: ShapeObserver) -> [String] {
        observers.flatMap { parent in parent.keys.filter { $0.child === observer }.map(\.key) }
    }
}

extension Array where Element: Hashable {
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
