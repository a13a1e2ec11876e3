import SeederCore
import SeederFiles

/// The rules that turn what `ShapeObserver`s saw into an `InferredMapping` (docs/commands.md,
/// `seeder infer`): which records are entities, each one's identity, attributes and their
/// types, relationships, and the sources.
///
///     let mapping = MappingInference(catalog: catalog, sources: observed).mapping()
public struct MappingInference {
    /// Where one source's records were found, as the reader saw them.
    public struct ObservedSource: Sendable {
        /// A file, or a glob for a numbered group of files, relative to the dumps directory.
        public var path: String
        /// The observer (`ShapeCatalog`) its records went to.
        public var observer: String
        public var keyPath: [String]
        /// Whether the key path reaches an object keyed by its records.
        public var keyed: Bool
        public var files: Int
        /// The records read from it.
        public var records: Int

        public init(path: String, observer: String, keyPath: [String], keyed: Bool, files: Int, records: Int) {
            self.path = path
            self.observer = observer
            self.keyPath = keyPath
            self.keyed = keyed
            self.files = files
            self.records = records
        }
    }

    /// Objects with more keys than this are data, not a schema: `json`.
    static let maxKeys = 64

    let catalog: ShapeCatalog
    let observed: [ObservedSource]

    public init(catalog: ShapeCatalog, sources: [ObservedSource]) {
        self.catalog = catalog
        self.observed = sources
    }

    /// The draft: entities in the order their records were first seen.
    public func mapping() -> InferredMapping {
        var result = InferredMapping()
        catalog.settle()
        // Sources, their wrapping keys unwrapped: `[{"project": {...}}]` is Project records.
        var sourceObservers: [(ObservedSource, ShapeObserver)] = []
        for var source in observed {
            var observer = catalog.observer(named: source.observer)
            if !source.keyed, observer.keys.count == 1, observer.maxKeys == 1, let only = observer.keys.first,
                only.present == observer.records, only.objects == only.present, let child = only.child
            {
                source.keyPath.append(only.key)
                observer = child
            }
            sourceObservers.append((source, observer))
        }
        let keyedSources = Set(sourceObservers.filter(\.0.keyed).map { ObjectIdentifier($0.1) })
        catalog.mergeSharedShapes(keyedSources: keyedSources)
        catalog.mergeReferencesIntoDetailedKinds()
        catalog.mergeSourcesOfOneKind(keyedSources: keyedSources)
        sourceObservers = sourceObservers.map { ($0.0, catalog.observer(named: $0.1.name)) }
        let flattened = FlattenedObjects(catalog: catalog, sources: sourceObservers.map(\.1))
        let entities = reachableEntities(from: sourceObservers.map(\.1), flattened: flattened)
        Self.nameApart(entities)
        let identities = Dictionary(
            uniqueKeysWithValues: entities.map {
                ($0.name, IdentityChoice(of: $0, keyed: $0.isKeyedRecords || keyedObservers(sourceObservers).contains($0.name)))
            })
        var drafts: [String: InferredMapping.Entity] = [:]
        for observer in entities {
            drafts[observer.name] = EntityDrafting(observer: observer, identities: identities, entities: entities, flattened: flattened)
                .entity()
        }
        // The back references of one-to-many relationships, on their children.
        for observer in entities {
            for relationship in drafts[observer.name]!.relationships {
                guard let inverse = relationship.inverse else { continue }
                drafts[relationship.target]!.relationships.append(
                    .init(
                        name: inverse, target: observer.name, isBackReference: true,
                        evidence: "the owner of \(observer.name).\(relationship.name)"))
            }
        }
        for observer in entities {
            var entity = drafts[observer.name]!
            WideRecords.gather(&entity)
            EntityDrafting.resolveNames(&entity, keys: observer.keys.map(\.key))
            result.entities.append(entity)
        }
        Self.foldWrappers(&result.entities, sources: Set(sourceObservers.map(\.1.name)))
        // An entity with nothing to store (a file of no records, of empty objects) would be
        // rows of nothing: left out, with its sources, and said why.
        let empty = Set(result.entities.filter { $0.attributes.isEmpty && $0.relationships.isEmpty }.map(\.name))
        result.entities.removeAll { empty.contains($0.name) }
        for index in result.entities.indices { result.entities[index].relationships.removeAll { empty.contains($0.target) } }
        for (source, observer) in sourceObservers where empty.contains(observer.name) {
            result.notes.append(
                "\(source.path): left out, " + (source.records == 0 ? "it holds no records" : "its records hold no value to map"))
        }
        for (source, observer) in sourceObservers where !empty.contains(observer.name) {
            let identity = identities[observer.name]!
            let records = source.records
            let files = source.files == 1 ? "" : "\(grouped(source.files)) files, "
            result.sources.append(
                .init(
                    path: source.path, entity: observer.name, keyPath: source.keyPath,
                    keyedBy: source.keyed ? identity.attribute : nil,
                    evidence: "\(files)\(grouped(records)) \(records == 1 ? "record" : "records")"))
        }
        EntityDrafting.resolveKeyedBy(&result)
        result.sources = Self.ordered(result.sources, embedding: entities)
        return result
    }

    /// Embedded records with no identity that store nothing of their own (no attribute, no
    /// to-one: only arrays of other records, as `{"items": [...]}` or GraphQL's
    /// `{"edges": [...]}` wrap them) would be rows of nothing: their key is `json` on the records
    /// that hold them, and the records inside, reached through them only, are left out.
    static func foldWrappers(_ entities: inout [InferredMapping.Entity], sources: Set<String>) {
        while true {
            let wrappers = Set(
                entities.filter { entity in
                    entity.identity == nil && entity.attributes.isEmpty && !sources.contains(entity.name)
                        && !entity.relationships.contains { !$0.many && !$0.isBackReference }
                }.map(\.name))
            guard !wrappers.isEmpty else { break }
            for index in entities.indices {
                var entity = entities[index]
                for relationship in entity.relationships where wrappers.contains(relationship.target) && !relationship.isBackReference {
                    let holds = "its objects hold only other records, nothing of their own to store"
                    // The key as the records spell it (`damage_relations`), never the name.
                    let key = relationship.from ?? relationship.key ?? relationship.name
                    entity.attributes.append(
                        .init(name: relationship.name, type: .json, from: key, evidence: relationship.evidence + "; json: " + holds))
                    entity.notes.append("'\(key)' is json: \(holds)")
                }
                entity.relationships.removeAll { wrappers.contains($0.target) }
                entities[index] = entity
            }
            entities.removeAll { wrappers.contains($0.name) }
            // What only the wrappers led to goes with them.
            var reached = sources
            var pending = Array(sources)
            while let name = pending.popLast() {
                for relationship in entities.first(where: { $0.name == name })?.relationships ?? [] where !relationship.isBackReference {
                    if reached.insert(relationship.target).inserted { pending.append(relationship.target) }
                }
            }
            entities.removeAll { !reached.contains($0.name) }
            for index in entities.indices { entities[index].relationships.removeAll { !reached.contains($0.target) } }
        }
    }

    private func keyedObservers(_ sources: [(ObservedSource, ShapeObserver)]) -> Set<String> {
        Set(sources.filter { $0.0.keyed }.map { $0.1.name })
    }

    /// The entities: every source's records, and the records nested in them that are not
    /// left as `json` or flattened into their owner, in first-seen order.
    func reachableEntities(from roots: [ShapeObserver], flattened: FlattenedObjects) -> [ShapeObserver] {
        var reached = Set<ObjectIdentifier>()
        var pending = roots
        while let observer = pending.popLast() {
            guard reached.insert(ObjectIdentifier(observer)).inserted else { continue }
            for stats in observer.keys where !flattened.flattens(stats) && Self.repeatedCopies(of: stats, in: observer) == nil {
                if let child = Self.nestedEntity(stats) { pending.append(child) }
            }
        }
        return catalog.observers.filter { reached.contains(ObjectIdentifier($0)) }
    }

    /// Gives records keyed by data a name of their own when records of that name are an entity
    /// too (`members.json` beside `{"members": {"rachit": {...}}}`): `Member2`.
    static func nameApart(_ entities: [ShapeObserver]) {
        var names = Set(entities.filter { !$0.isKeyedRecords }.map(\.name))
        for observer in entities where observer.isKeyedRecords {
            let base = observer.name
            var suffix = 1
            while names.contains(observer.name) {
                suffix += 1
                observer.name = base + "\(suffix)"
            }
            names.insert(observer.name)
        }
    }

    /// The repeated occurrences of `owner`'s records, when `stats` holds arrays of records
    /// without identity: each occurrence's would be rows of their own (docs/mapping.md, Merging),
    /// so a repeated owner's would be there once per copy. `nil` when nothing would repeat.
    static func repeatedCopies(of stats: KeyStats, in owner: ShapeObserver) -> Int? {
        guard case .arrayOfObjects = stats.shape, let child = nestedEntity(stats), child !== owner,
            IdentityChoice(of: child, keyed: child.isKeyedRecords).key == nil
        else { return nil }
        let identity = IdentityChoice(of: owner, keyed: owner.isKeyedRecords)
        // Held by no more records than there are identities: the other occurrences are
        // references without the key (`{"name", "url"}` beside the detailed record), no copies.
        guard identity.key != nil, let values = identity.values, owner.records > values.count, stats.present > values.count else {
            return nil
        }
        return owner.records - values.count
    }

    /// The entity a key's objects (or arrays of objects) are, when they are one: for objects
    /// keyed by data, the records they hold (with their key, one more key than the records).
    static func nestedEntity(_ stats: KeyStats) -> ShapeObserver? {
        guard let child = stats.child else { return nil }
        switch stats.shape {
        case .object:
            switch child.keyedData {
            case let .records(records, _)?: return records.keys.count <= maxKeys + 1 ? records : nil
            case .other?: return nil
            case nil: break
            }
        case .arrayOfObjects: break
        default: return nil
        }
        return child.keys.count <= maxKeys && child.keys.count > 0 ? child : nil
    }
}

/// Which key of an entity's records is its identity (docs/commands.md, `seeder infer`): `id`
/// when every record has it, non-null, and no two records hold it with different contents;
/// else the first such key named like an identity; else `identity: none`.
struct IdentityChoice: Sendable {
    /// The identity key, as the records spell it; `nil` for none.
    var key: String?
    /// The attribute the keys of an object keyed by its records become (`keyedBy`): the
    /// identity, unless a key held different records.
    var attribute: String?
    /// Whether `attribute` is a key of the records (which repeat their key in it), not one of its own.
    var attributeIsField = false
    /// Repeated identities whose records differ, among embedded occurrences.
    var conflicts = 0
    /// Occurrences that held nothing but the identity (references, not records).
    var referencesOnly = 0
    var evidence: String
    /// The values of the identity, for `*_id` references.
    var values: ValueSet?
    /// `true` when the identity is the id at the end of the URL at `key` (`url`), read with
    /// `match:`: records without an `id` of their own, as SWAPI's.
    var fromURL = false

    /// Keys tried, in order, after `id`, then `<entity>_id`, `<entity>_uuid` and `<entity>_key`
    /// (and the same of the name's last word)
    /// (any spelling `Naming.lookupKey` folds to them: `userUuid`, `UserKey`).
    static let names = ["uuid", "guid", "key", "slug", "handle", "username", "login", "name"]

    /// The keys tried, in order, as `Naming.lookupKey` folds them, for an entity named `entity`:
    /// its name's last word too (`group_key` of a `NotificationGroup`).
    static func order(for entity: String) -> [String] {
        let last = DraftNaming.words(of: entity).last ?? entity
        let stems = last == entity ? [entity] : [entity, last]
        return ["id"] + stems.flatMap { stem in ["id", "uuid", "key"].map { Naming.lookupKey(stem + $0) } } + names
    }

    init(of observer: ShapeObserver, keyed: Bool) {
        let records = observer.records
        if keyed, let keyStats = observer.stats(ShapeObserver.recordKey), let keyValues = keyStats.values {
            // The keys are the identity unless one key held different records (`rachit` in two
            // teams): then each record is its own, and the key only an attribute.
            let own = observer.keysEqualToRecordKey?.first
            let repeats = keyValues.sourceConflicts + keyValues.embeddedConflicts
            let unique = repeats == 0 && !keyValues.overflowed
            attribute = own ?? Self.keyAttribute(of: observer, preferring: unique ? ["id", "key"] : ["key", "id"])
            attributeIsField = own != nil
            let keyedBy =
                own.map { "keyed by '\($0)': every record's key is its '\($0)'" } ?? "keyed by '\(attribute!)': the keys of the object"
            guard unique else {
                evidence =
                    keyedBy + "; no identity: "
                    + (keyValues.overflowed ? "more than \(counted(ValueSet.limit, "key")), not checked" : Self.repeating(repeats, "key"))
                return
            }
            key = own ?? ShapeObserver.recordKey
            values = keyValues
            evidence = keyedBy
            return
        }
        var rejected: [String] = []
        for name in Self.order(for: observer.name) {
            // After `id` and the entity's own id keys, before names and slugs: the id in the
            // record's own URL, which is what the service keys it by.
            if name == Self.names.first, let stats = Self.urlIdentityKey(of: observer) {
                key = stats.key
                fromURL = true
                values = stats.urlIDs!.ids
                referencesOnly = stats.soleKey
                evidence =
                    "the id at the end of '\(stats.key)': \(counted(values!.count, "distinct id")) in \(counted(records, "record"))"
                    + (rejected.isEmpty ? "" : "; " + rejected.joined(separator: "; "))
                return
            }
            guard let stats = observer.keys.first(where: { Naming.lookupKey($0.key) == name }) else { continue }
            guard let values = stats.values else { continue }
            // Records both detailed (with their `id`) and referenced (`{"name", "url"}`, without
            // it): a key other than `id` that repeats only between records of other keys is their
            // identity still (rule `referenced-and-detailed`).
            let ids = observer.keys.first { Naming.lookupKey($0.key) == "id" }?.present ?? 0
            let detailed = Naming.lookupKey(stats.key) != "id" && ids > 0 && ids < records ? values.detailedConflicts : 0
            var why: String?
            if stats.present < records {
                why = "missing in \(counted(records - stats.present, "record"))"
            } else if stats.nulls > 0 {
                why = "null in \(counted(stats.nulls, "record"))"
            } else if stats.booleans + stats.fractions + stats.objects + stats.arrays > 0 {
                why = "not always an integer or a string"
            } else if values.overflowed {
                why = "more than \(grouped(ValueSet.limit)) values, not checked"
            } else if values.sourceConflicts + values.embeddedConflicts > detailed, values.sourceConflicts > 0 {
                why = "not unique: \(Self.repeating(values.sourceConflicts))"
            } else if observer.sourceRecords == 0, values.sameKeysConflicts > 0 {
                // Only ever embedded, and two records of the same keys share a value: unique
                // within each parent (an order's line 1), not across them. Merging would lose one.
                why = "unique only within each parent: \(Self.repeating(values.sameKeysConflicts))"
            } else if stats.key != "id", values.embeddedConflicts > 0, values.sourceConflicts + values.embeddedConflicts > detailed {
                why = Self.repeating(values.embeddedConflicts)
            }
            if let why {
                rejected.append("'\(stats.key)' \(why)")
                continue
            }
            key = stats.key
            // A reference may differ from its record in more than its keys (a stale copy): the
            // first occurrence wins, as for any embedded copy.
            conflicts = values.embeddedConflicts
            referencesOnly = stats.soleKey
            self.values = values
            let repeats = records - values.count
            if detailed > 0 {
                rejected.append(
                    "\(counted(detailed, "record")) both detailed and referenced (other keys, same '\(stats.key)'): they merge")
            }
            evidence =
                "'\(stats.key)': \(counted(values.count, "distinct value")) in \(counted(records, "record"))"
                + (repeats > 0 ? " (\(counted(repeats, "repeated occurrence")) \(repeats == 1 ? "merges" : "merge"))" : "")
                + (rejected.isEmpty ? "" : "; " + rejected.joined(separator: "; "))
            return
        }
        evidence =
            "no key named like an identity is in every record and unique"
            + (rejected.isEmpty ? "" : ": " + rejected.joined(separator: "; "))
    }

    /// The key named `url` whose every value is a URL ending in an id (`URLIdentities`), of one
    /// collection and unique across the records, in records with no `id` key of their own; else
    /// `nil`.
    static func urlIdentityKey(of observer: ShapeObserver) -> KeyStats? {
        guard !observer.keys.contains(where: { Naming.lookupKey($0.key) == "id" }),
            let stats = observer.keys.first(where: { Naming.lookupKey($0.key) == "url" }), let urls = stats.urlIDs,
            stats.present == observer.records, stats.nulls == 0, stats.strings == stats.present
        else { return nil }
        let ids = urls.ids
        guard urls.sameCollection != nil, ids.count > 0, !ids.overflowed, ids.sourceConflicts == 0, ids.embeddedConflicts == 0 else {
            return nil
        }
        return stats
    }

    /// `1 value repeats with other records`, `3 values repeat with other records`.
    private static func repeating(_ values: Int, _ noun: String = "value") -> String {
        "\(counted(values, noun)) \(values == 1 ? "repeats" : "repeat") with other records"
    }

    /// The name of the attribute the keys become: the first of `names`, then `recordKey`, that
    /// reads no key of the records (`recordKey2`... past them all).
    static func keyAttribute(of observer: ShapeObserver, preferring names: [String]) -> String {
        let taken = Set(observer.keys.map { Naming.lookupKey($0.key) })
        if let free = (names + ["recordKey"]).first(where: { !taken.contains(Naming.lookupKey($0)) }) { return free }
        var suffix = 2
        while taken.contains("recordkey\(suffix)") { suffix += 1 }
        return "recordKey\(suffix)"
    }
}
