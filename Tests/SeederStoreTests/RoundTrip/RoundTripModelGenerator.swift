import SeederTestSupport

/// Makes a random mapping model and its logical records for one case: two to four entities with
/// every identity kind, attributes of every type read by name or nested key path, and
/// relationships of every storage, by id and embedded.
struct RoundTripModelGenerator {
    var random: SplitMix64

    static let entityNames = ["Account", "Project", "Task", "Label", "Note", "Card"]
    /// Attribute names and their snake_case columns; none of them matches another, or a
    /// relationship, ignoring case and underscores.
    static let attributeNames = [
        ("title", "title"), ("bodyText", "body_text"), ("createdAt", "created_at"), ("score", "score"), ("ratio", "ratio"),
        ("price", "price"), ("flag", "flag"), ("payload", "payload"), ("website", "website"), ("token", "token"),
        ("picture", "picture"), ("rank", "rank"), ("weight", "weight"), ("startsOn", "starts_on"), ("summary", "summary"),
    ]
    static let toOneNames = ["owner", "parent", "origin", "buddy", "holder"]
    /// To-many names and the English singulars of their id conventions and join columns.
    static let toManyNames = [
        ("tags", "tag"), ("items", "item"), ("members", "member"), ("children", "child"),
        ("people", "person"), ("entries", "entry"),
    ]

    mutating func model() -> RoundTripModel {
        let names = Array(random.shuffled(Self.entityNames).prefix(random.int(2...4)))
        var entities = names.map { entity(named: $0) }
        for index in entities.indices { addRelationships(from: index, to: &entities) }
        for index in entities.indices { entities[index].onMissingCreate = random.chance(0.1) }
        var model = RoundTripModel(dates: random.pick(DateStorageChoice.allCases), entities: entities, records: [])
        model.onMissingCreate = random.chance(0.1)
        var records = RoundTripRecordGenerator(seed: random.next())
        records.fill(&model)
        return model
    }

    // MARK: Entities and attributes

    mutating func entity(named name: String) -> EntityModel {
        let kind = random.pick([IdentityKind.integer, .integer, .integer, .string, .uuid, .composite, .none])
        var attributes: [AttributeModel] = []
        switch kind {
        case .integer: attributes = [identity("id", .integer)]
        case .string: attributes = [identity("slug", .string)]
        case .uuid: attributes = [identity("id", .uuid)]
        case .composite: attributes = [identity("code", .string), identity("num", .integer)]
        case .none:
            var serial = identity(EntityModel.serialAttribute, .integer)
            serial.isRequired = true
            attributes = [serial]
        }
        let identityCount = kind == .none ? 0 : attributes.count
        for (attributeName, column) in random.shuffled(Self.attributeNames).prefix(random.int(1...6)) {
            attributes.append(attribute(attributeName, column: column))
        }
        return EntityModel(
            name: name, table: name.lowercased(), identity: kind, attributes: attributes, relationships: [],
            identityCount: identityCount)
    }

    private func identity(_ name: String, _ type: ValueType) -> AttributeModel {
        AttributeModel(name: name, column: name, type: type, source: .name(spellings: [name]))
    }

    mutating func attribute(_ name: String, column: String) -> AttributeModel {
        let type = valueType()
        var spellings = [name, column, name.prefix(1).uppercased() + name.dropFirst(), column.uppercased()]
        spellings = spellings.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        var source = KeySource.name(spellings: spellings)
        switch random.int(0...9) {
        case 0: source = .dotted(["meta", column])
        case 1: source = .dotted(["meta", "inner", column])
        case 2: source = .literal(["x.y", column])
        default: break
        }
        var attribute = AttributeModel(name: name, column: column, type: type, source: source)
        // A pattern without `Z` is read in its zone, which only UTC keeps fixed over every year.
        if case let .date(format, _) = type, format != .pattern("MM/dd/yyyy", hasTime: false),
            format != .pattern("dd.MM.yyyy HH:mm:ss", hasTime: true)
        {
            attribute.zone = random.pick(DateZone.all)
        }
        attribute.isRequired = random.chance(0.15)
        attribute.isIndexed = random.chance(0.15)
        if !attribute.isRequired, random.chance(0.25) {
            switch type {
            case .integer: attribute.defaultValue = .integer(random.pick([-7, 0, 42, Int64.max]))
            case .boolean: attribute.defaultValue = .boolean(random.chance(0.5))
            case .string: attribute.defaultValue = .string(random.pick(["untitled", "", "n/a"]))
            default: break
            }
        }
        return attribute
    }

    mutating func valueType() -> ValueType {
        switch random.int(0...10) {
        case 0: return .integer
        case 1: return .real
        case 2: return .decimal
        case 3: return .boolean
        case 4: return .string
        case 5: return .url
        case 6: return .uuid
        case 7: return .data
        case 8: return .json
        default:
            let format = random.pick([
                DateFormatChoice.iso8601, .iso8601, .unix, .unixMilliseconds, .unixMicroseconds, .unixNanoseconds,
                .pattern("yyyy-MM-dd HH:mm:ss Z", hasTime: true), .pattern("MM/dd/yyyy", hasTime: false),
                .pattern("dd.MM.yyyy HH:mm:ss", hasTime: true),
            ])
            return .date(format: format, storage: random.chance(0.5) ? random.pick(DateStorageChoice.allCases) : nil)
        }
    }

    // MARK: Relationships

    /// Zero to three relationships of `owner`. Embedding only points to later entities, so
    /// records nest finitely; ids point anywhere an identity is. Some relationships choose
    /// their target by a selector (docs/mapping.md, Polymorphism), read a keyed object
    /// (`keyedBy`) or make the rows of missing references (`onMissing: create`).
    mutating func addRelationships(from owner: Int, to entities: inout [EntityModel]) {
        for _ in 0..<random.int(0...3) {
            let target = random.int(0...(entities.count - 1))
            let later = target > owner
            let targetHasIdentity = entities[target].identity != .none
            guard later || targetHasIdentity else { continue }
            let taken = Set(entities[owner].relationships.map(\.name))
            var relationship: RelationshipModel
            switch random.int(0...2) {
            case 0:
                guard let name = Self.toOneNames.first(where: { !taken.contains($0) }) else { continue }
                let key: LinkKey = random.chance(0.2) ? .path(["refs", name]) : .conventional(name: name, idKeys: [name + "_id"])
                let columns = foreignKeyColumns(stem: name, target: entities[target])
                relationship = RelationshipModel(
                    name: name, target: target, isToMany: false, storage: .foreignKey(columns), key: key)
                if let selector = selector(name, first: target, in: entities, owner: nil) {
                    relationship.selector = selector
                    relationship.typeColumn = name + "_type"
                }
            case 1 where later && !entities[target].relationships.contains { $0.inverseOf?.entity == owner }:
                guard let (name, _) = Self.toManyNames.first(where: { !taken.contains($0.0) }) else { continue }
                let ordered = random.chance(0.5)
                // The child's to-one, named after the parent (`project`, stored as `project_id`).
                let toOneName = entities[owner].name.lowercased()
                relationship = RelationshipModel(
                    name: name, target: target, isToMany: true, isOrdered: ordered,
                    storage: .inverse(toOne: toOneName, position: ordered ? toOneName + "_position" : nil),
                    key: .conventional(name: name, idKeys: []))
                // A selector's cases each have that to-one, at the same index.
                if let selector = selector(name, first: target, in: entities, owner: owner) {
                    relationship.selector = selector
                }
                for child in relationship.targets {
                    let parent = entities[owner]
                    entities[child].relationships.append(
                        RelationshipModel(
                            name: toOneName, target: owner, isToMany: false,
                            storage: .foreignKey(foreignKeyColumns(stem: toOneName, target: parent)),
                            key: .conventional(name: toOneName, idKeys: [toOneName + "_id"]),
                            inverseOf: (owner, parent.relationships.count)))
                }
            default:
                guard let (name, singular) = Self.toManyNames.first(where: { !taken.contains($0.0) }) else { continue }
                let ordered = random.chance(0.5)
                let ownerTable = entities[owner].table
                let join = LinkStorage.joinTable(
                    name: ownerTable + "_" + name,
                    owner: foreignKeyColumns(stem: ownerTable, target: entities[owner]),
                    target: foreignKeyColumns(stem: singular, target: entities[target]),
                    position: ordered ? "position" : nil)
                // Sync's `<name>_ids` is read when neither `<name>` nor `<singular>_ids` is there.
                let key: LinkKey =
                    random.chance(0.2) ? .path(["refs", name]) : .conventional(name: name, idKeys: [singular + "_ids", name + "_ids"])
                relationship = RelationshipModel(
                    name: name, target: target, isToMany: true, isOrdered: ordered, storage: join, key: key)
                if let selector = selector(name, first: target, in: entities, owner: nil) {
                    relationship.selector = selector
                    relationship.typeColumn = singular + "_type"
                }
            }
            if relationship.isToMany, random.chance(0.25),
                let attribute = entities[relationship.target].attributes.first?.name,
                relationship.targets.allSatisfy({ entities[$0].identityCount == 1 && entities[$0].attributes[0].name == attribute })
            {
                relationship.keyedBy = attribute
            }
            relationship.onMissingCreate = random.chance(0.15)
            entities[owner].relationships.append(relationship)
        }
    }

    /// Sometimes a selector `{ by: <name>_type, cases }` over `first` and another entity with an
    /// identity of the same size (later than `owner`, for a one-to-many, which embeds).
    mutating func selector(
        _ name: String, first: Int, in entities: [EntityModel], owner: Int?
    ) -> (by: String, cases: [SelectorCase])? {
        // One-to-manys find a second case less often (later, no inverse yet): asked more often.
        guard entities[first].identity != .none, random.chance(owner == nil ? 0.3 : 0.7) else { return nil }
        let others = entities.indices.filter { other in
            other != first && entities[other].identity != .none && entities[other].identityCount == entities[first].identityCount
                && (owner.map { parent in other > parent && !entities[other].relationships.contains { $0.inverseOf?.entity == parent } }
                    ?? true)
        }
        guard !others.isEmpty else { return nil }
        let cases = [first, random.pick(others)].map { entity in
            SelectorCase(value: random.pick([entities[entity].name.lowercased(), entities[entity].name, "k\(entity)"]), entity: entity)
        }
        return (name + "_type", cases)
    }

    /// `<stem>_id`, or for a composite identity `<stem>_<column>` per identity column
    /// (docs/mapping.md, Names and keys).
    func foreignKeyColumns(stem: String, target: EntityModel) -> [String] {
        target.identity == .composite ? target.attributes.prefix(2).map { stem + "_" + $0.column } : [stem + "_id"]
    }
}
