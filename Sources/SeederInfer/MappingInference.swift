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
        catalog.mergeReferences()
        catalog.separateOwnedRecords()
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
        catalog.mergeKinds(keyedSources: keyedSources)
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
            let files = source.files == 1 ? "" : "\(Wording.grouped(source.files)) files, "
            result.sources.append(
                .init(
                    path: source.path, entity: observer.name, keyPath: source.keyPath,
                    keyedBy: source.keyed ? identity.attribute : nil,
                    evidence: "\(files)\(Wording.grouped(records)) \(records == 1 ? "record" : "records")"))
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
            for stats in observer.keys where Self.repeatedCopies(of: stats, in: observer) == nil {
                if flattened.flattens(stats) {
                    pending += flattened.recordKinds(under: stats)
                } else if let child = Self.nestedEntity(stats) {
                    pending.append(child)
                }
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
            child.ownership == nil, IdentityChoice(of: child, keyed: child.isKeyedRecords).key == nil
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
