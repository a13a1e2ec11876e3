/// Fills a model with logical records: distinct identities, values (present, `null` or absent),
/// links to existing records, owned records of `identity: none` entities created where their
/// owner embeds them, and children handed to parents of inverse to-manys.
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
        }
        for index in model.entities.indices {
            if model.entities[index].identity == .none {
                for _ in 0..<random.int(0...2) { _ = createRecord(&model, entity: index, key: nil, owned: false) }
            } else {
                for position in model.records[index].indices {
                    _ = createRecord(&model, entity: index, key: model.records[index][position].key, owned: false, at: position)
                }
            }
        }
        assignChildren(&model)
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

    /// Makes (or, `at` a position, completes) a record of `entity` and the owned records it
    /// embeds; returns its key. `parent` is the inverse to-one an owning parent fills.
    @discardableResult
    private mutating func createRecord(
        _ model: inout RoundTripModel, entity index: Int, key: RecordKey?, owned: Bool,
        at position: Int? = nil, parent: (toOne: Int, key: RecordKey)? = nil
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
        var links: [[RecordKey]] = []
        for relationship in entity.relationships {
            let target = model.entities[relationship.target]
            if relationship.inverseOf != nil {
                links.append(parent.map { $0.toOne == links.count ? [$0.key] : [] } ?? [])
                continue
            }
            guard target.identity == .none else {
                let keys = model.records[relationship.target].map(\.key)
                if relationship.isToMany, case .joinTable = relationship.storage {
                    links.append(Array(random.shuffled(keys).prefix(random.int(0...3))))
                } else if !relationship.isToMany, !keys.isEmpty, random.chance(0.6) {
                    links.append([random.pick(keys)])
                } else {
                    links.append([])
                }
                continue
            }
            // Owned records: new rows where this record embeds them.
            var owned: [RecordKey] = []
            let count = relationship.isToMany ? random.int(0...2) : (random.chance(0.5) ? 1 : 0)
            for _ in 0..<count {
                let childParent: (Int, RecordKey)? = if case let .inverse(toOne, _) = relationship.storage { (toOne, key) } else { nil }
                owned.append(createRecord(&model, entity: relationship.target, key: nil, owned: true, parent: childParent))
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
    private mutating func assignChildren(_ model: inout RoundTripModel) {
        for (parentIndex, parentEntity) in model.entities.enumerated() {
            for (relationshipIndex, relationship) in parentEntity.relationships.enumerated() {
                guard case let .inverse(toOne, _) = relationship.storage,
                    model.entities[relationship.target].identity != .none
                else { continue }
                let parents = model.records[parentIndex].indices
                guard !parents.isEmpty else { continue }
                if !relationship.isOrdered, parentEntity.identity != .none {
                    for parent in parents where random.chance(0.5) { model.records[parentIndex][parent].unlisted.insert(relationshipIndex) }
                }
                for child in model.records[relationship.target].indices where random.chance(0.6) {
                    let parent = random.pick(Array(parents))
                    let parentKey = model.records[parentIndex][parent].key
                    model.records[relationship.target][child].links[toOne] = [parentKey]
                    var list = model.records[parentIndex][parent].links[relationshipIndex]
                    list.insert(model.records[relationship.target][child].key, at: random.int(0...list.count))
                    model.records[parentIndex][parent].links[relationshipIndex] = list
                }
            }
        }
    }
}
