import SeederTestSupport

/// Fills a model with logical records: distinct identities, values (present, `null` or absent),
/// links to existing records, owned records of `identity: none` entities created where their
/// owner embeds them, children handed to parents of inverse to-manys, and records that only
/// references name, which `onMissing: create` makes.
struct RoundTripRecordGenerator {
    var random: SplitMix64
    private var nextSerial: Int64 = 1

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func fill(_ model: inout RoundTripModel) {
        model.records = model.entities.map { _ in [] }
        for (index, entity) in model.entities.enumerated() where entity.identity != .none {
            var seen: Set<String> = []
            for _ in 0..<random.int(0...5) {
                let key = identityValues(entity.identity)
                guard seen.insert(RoundTripExpectation.identityText(key)).inserted else { continue }
                model.records[index].append(RecordModel(key: .values(key), values: [], links: []))
            }
            // A record no dump provides: a reference through `onMissing: create` makes its row,
            // which a required attribute without a default would forbid. `""` is not an id.
            guard entity.attributes.dropFirst(entity.identityCount).allSatisfy({ !$0.isRequired }), random.chance(0.3) else { continue }
            let key = identityValues(entity.identity)
            guard !key.contains(.string("")), seen.insert(RoundTripExpectation.identityText(key)).inserted else { continue }
            var created = RecordModel(
                key: .values(key), values: entity.attributes.indices.map { $0 < key.count ? key[$0] : nil },
                links: entity.relationships.map { _ in [] })
            created.isCreated = true
            model.records[index].append(created)
        }
        for index in model.entities.indices {
            if model.entities[index].identity == .none {
                for _ in 0..<random.int(0...2) { _ = createRecord(&model, entity: index, key: nil, owned: false) }
            } else {
                for position in model.records[index].indices where !model.records[index][position].isCreated {
                    _ = createRecord(&model, entity: index, key: model.records[index][position].key, owned: false, at: position)
                }
            }
        }
        assignChildren(&model)
        dropUnreferenced(&model)
    }

    private mutating func identityValues(_ kind: IdentityKind) -> [LogicalValue] {
        switch kind {
        case .integer: return [.integer(RoundTripValues.integer(&random))]
        case .string: return [.string(RoundTripValues.string(&random))]
        case .uuid: return [.uuid(RoundTripValues.uuid(&random))]
        case .composite: return [.string(RoundTripValues.string(&random)), .integer(Int64(random.int(-2...2)))]
        case .none: return []
        }
    }

    /// Whether a missing reference through relationship `r` of `entity` makes a row: its own
    /// `onMissing`, else its entity's, else the document's (all `create` or unsaid here).
    static func creates(_ model: RoundTripModel, entity: Int, relationship r: Int) -> Bool {
        model.entities[entity].relationships[r].onMissingCreate || model.entities[entity].onMissingCreate || model.onMissingCreate
    }

    /// Makes (or, `at` a position, completes) a record of `entity` and the owned records it
    /// embeds; returns its key. `parent` is the inverse to-one an owning parent fills.
    @discardableResult
    private mutating func createRecord(
        _ model: inout RoundTripModel, entity index: Int, key: RecordKey?, owned: Bool,
        at position: Int? = nil, parent: (toOne: String, link: Link)? = nil
    ) -> RecordKey {
        let entity = model.entities[index]
        let key = key ?? .serial(nextSerialValue())
        var values: [LogicalValue?] = []
        for (attributeIndex, attribute) in entity.attributes.enumerated() {
            switch key {
            case let .values(identity) where attributeIndex < identity.count: values.append(identity[attributeIndex])
            case let .serial(serial) where attributeIndex == 0: values.append(.integer(serial))
            default:
                if attribute.isRequired || random.chance(0.65) {
                    values.append(RoundTripValues.value(&random, type: attribute.type))
                } else {
                    values.append(random.chance(0.3) ? .null : nil)
                }
            }
        }
        var links: [[Link]] = []
        for (r, relationship) in entity.relationships.enumerated() {
            let target = model.entities[relationship.target]
            if relationship.inverseOf != nil {
                links.append(parent.map { $0.toOne == relationship.name ? [$0.link] : [] } ?? [])
                continue
            }
            guard target.identity == .none else {
                let creates = Self.creates(model, entity: index, relationship: r)
                let candidates = relationship.targets.flatMap { entity in
                    model.records[entity].filter { creates || !$0.isCreated }.map { Link(entity: entity, key: $0.key) }
                }
                if relationship.isToMany, case .joinTable = relationship.storage {
                    links.append(Array(random.shuffled(candidates).prefix(random.int(0...3))))
                } else if !relationship.isToMany, !candidates.isEmpty, random.chance(0.6) {
                    links.append([random.pick(candidates)])
                } else {
                    links.append([])
                }
                continue
            }
            // Owned records: new rows where this record embeds them.
            var owned: [Link] = []
            let count = relationship.isToMany ? random.int(0...2) : (random.chance(0.5) ? 1 : 0)
            for _ in 0..<count {
                var childParent: (String, Link)?
                if case let .inverse(toOne, _) = relationship.storage { childParent = (toOne, Link(entity: index, key: key)) }
                let child = createRecord(&model, entity: relationship.target, key: nil, owned: true, parent: childParent)
                owned.append(Link(entity: relationship.target, key: child))
            }
            links.append(owned)
        }
        let record = RecordModel(key: key, values: values, links: links, isOwned: owned)
        if let position { model.records[index][position] = record } else { model.records[index].append(record) }
        return key
    }

    private mutating func nextSerialValue() -> Int64 {
        defer { nextSerial += 1 }
        return nextSerial
    }

    /// Children with an identity get a parent for each inverse to-many aimed at them: listed
    /// by the parent, or (unordered, parent with an identity) saying the parent themselves.
    /// A made child must be listed, through a relationship that makes it; a made parent is
    /// only said by its children, through a to-one that makes it.
    private mutating func assignChildren(_ model: inout RoundTripModel) {
        for (parentIndex, parentEntity) in model.entities.enumerated() {
            for (relationshipIndex, relationship) in parentEntity.relationships.enumerated() {
                guard case let .inverse(toOneName, _) = relationship.storage,
                    model.entities[relationship.target].identity != .none
                else { continue }
                let parents = model.records[parentIndex].indices
                guard !parents.isEmpty else { continue }
                if !relationship.isOrdered, parentEntity.identity != .none {
                    for parent in parents where model.records[parentIndex][parent].isCreated || random.chance(0.5) {
                        model.records[parentIndex][parent].unlisted.insert(relationshipIndex)
                    }
                }
                let listingCreates = Self.creates(model, entity: parentIndex, relationship: relationshipIndex)
                for childEntity in relationship.targets {
                    let toOne = model.relationshipIndex(toOneName, of: childEntity)
                    let childCreates = Self.creates(model, entity: childEntity, relationship: toOne)
                    for child in model.records[childEntity].indices where random.chance(0.6) {
                        let childIsCreated = model.records[childEntity][child].isCreated
                        let candidates = parents.filter { parent in
                            let record = model.records[parentIndex][parent]
                            let listed = !record.unlisted.contains(relationshipIndex)
                            if childIsCreated { return listed && listingCreates && !record.isCreated }
                            return !record.isCreated || (childCreates && !listed)
                        }
                        guard !candidates.isEmpty else { continue }
                        let parent = random.pick(candidates)
                        let parentKey = model.records[parentIndex][parent].key
                        model.records[childEntity][child].links[toOne] = [Link(entity: parentIndex, key: parentKey)]
                        var list = model.records[parentIndex][parent].links[relationshipIndex]
                        list.insert(Link(entity: childEntity, key: model.records[childEntity][child].key), at: random.int(0...list.count))
                        model.records[parentIndex][parent].links[relationshipIndex] = list
                    }
                }
            }
        }
    }

    /// Made records that no written reference names have no row: they leave the model.
    private func dropUnreferenced(_ model: inout RoundTripModel) {
        var named: Set<Link> = []
        for record in model.records.joined() where !record.isCreated {
            for (r, links) in record.links.enumerated() where !record.unlisted.contains(r) { named.formUnion(links) }
        }
        for index in model.records.indices {
            model.records[index].removeAll { $0.isCreated && !named.contains(Link(entity: index, key: $0.key)) }
        }
    }
}
