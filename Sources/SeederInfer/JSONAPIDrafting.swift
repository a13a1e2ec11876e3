import SeederCore
import SeederFiles

/// Drafts the entities and sources of JSON:API documents (docs/commands.md, JSON:API): an
/// entity per resource `type`, identified by `id`; its `attributes` and `links` read through
/// those objects; its relationships' resource linkage (`relationships.NAME.data`) as
/// relationships to the entities of the types linked to; and a source per place of resources,
/// choosing the entity by `type`.
///
///     let (entities, sources) = JSONAPIDrafting(observation: observation, sources: observed, taken: []).draft()
public struct JSONAPIDrafting {
    public typealias Entity = InferredMapping.Entity
    public typealias Attribute = InferredMapping.Attribute
    public typealias Relationship = InferredMapping.Relationship

    /// The resources at one place (`data` or `included`) of a file, or of a group of files.
    public struct ObservedSource: Sendable {
        public var path: String
        public var place: String
        /// The types of its resources, in first-seen order.
        public var types: [String]
        public var files: Int
        public var records: Int

        public init(path: String, place: String, types: [String], files: Int, records: Int) {
            self.path = path
            self.place = place
            self.types = types
            self.files = files
            self.records = records
        }
    }

    let observation: JSONAPIObservation
    let observed: [ObservedSource]
    /// The entity of each type.
    let names: [String: String]

    /// `taken`: entity names other dumps' entities have.
    public init(observation: JSONAPIObservation, sources: [ObservedSource], taken: Set<String>) {
        self.observation = observation
        self.observed = sources
        var names: [String: String] = [:]
        var used = Set(taken.map { $0.lowercased() })
        for resources in observation.types {
            let base = DraftNaming.entityName(fromWords: DraftNaming.words(of: resources.type))
            var name = base
            var suffix = 1
            while used.contains(name.lowercased()) {
                suffix += 1
                name = base + "\(suffix)"
            }
            used.insert(name.lowercased())
            names[resources.type] = name
        }
        self.names = names
    }

    public func draft() -> (entities: [Entity], sources: [InferredMapping.Source]) {
        var entities = observation.types.map(entity)
        // A row `onMissing: create` makes holds only its identity: nothing of its entity is required.
        let created = Set(
            entities.flatMap { entity in
                entity.relationships.filter(\.onMissingCreate).flatMap { $0.selector?.cases.map(\.entity) ?? [$0.target] }
            })
        for index in entities.indices where created.contains(entities[index].name) {
            for attribute in entities[index].attributes.indices where entities[index].attributes[attribute].required {
                entities[index].attributes[attribute].required = false
                entities[index].attributes[attribute].evidence += "; not required: some rows are made from a link alone"
            }
        }
        let sources = observed.map { source in
            let cases = source.types.map { (value: $0, entity: names[$0]!) }
            let files = source.files == 1 ? "" : "\(Wording.grouped(source.files)) files, "
            let types = source.types.count == 1 ? "" : " of \(Wording.grouped(source.types.count)) types"
            return InferredMapping.Source(
                path: source.path, entity: cases.first?.entity ?? "", selector: .init(by: "type", cases: cases),
                keyPath: [source.place], evidence: "\(files)\(Wording.count(source.records, "resource object"))\(types)")
        }
        return (entities, sources)
    }

    private func entity(_ resources: JSONAPIObservation.Resources) -> Entity {
        let occurrences = resources.occurrences
        let ids = resources.ids.count
        var entity = Entity(
            name: names[resources.type]!, identity: "id",
            identityEvidence: "a JSON:API resource is identified by its type and id: \(Wording.count(ids, "distinct id"))"
                + (occurrences == ids ? "" : " in \(Wording.count(occurrences, "resource object"))"),
            records: ids)
        entity.attributes.append(Attribute(name: "id", type: .string, from: nil, evidence: "'\(resources.type)' resources"))
        var valueless: [String] = []
        var whole: [String] = []
        for stats in resources.attributes.keys {
            let name = DraftNaming.memberName(fromKey: stats.key)
            entity.attributes.append(
                attribute(stats, name: name, parent: "attributes", of: occurrences, valueless: &valueless, whole: &whole))
        }
        for stats in resources.links.keys {
            let name = DraftNaming.memberName(fromKey: "links_" + stats.key)
            entity.attributes.append(attribute(stats, name: name, parent: "links", of: occurrences, valueless: &valueless, whole: &whole))
        }
        if resources.metas > 0 {
            entity.attributes.append(
                Attribute(
                    name: "meta", type: .json, from: "meta",
                    evidence: "\(Wording.grouped(resources.metas)) of \(Wording.grouped(occurrences)); json: free-form"
                ))
        }
        var linksOnly: [String] = []
        for linkage in resources.relationships {
            guard linkage.withData > 0 else {
                linksOnly.append(linkage.name)
                continue
            }
            draft(linkage, of: occurrences, into: &entity)
        }
        if !resources.relationships.isEmpty, entity.relationships.isEmpty,
            !entity.attributes.contains(where: { $0.parents.first == "relationships" })
        {
            entity.ignored.append("relationships")
        }
        if !linksOnly.isEmpty {
            entity.notes.append(
                "relationships " + Wording.list(linksOnly.map { "'\($0)'" }, conjunction: "and")
                    + " hold links only, no resource linkage ('data'): left out until a dump holds their data (the request's `include`)")
        }
        if !whole.isEmpty {
            entity.notes.append(
                Wording.list(whole, conjunction: "and") + " kept whole (json): objects and arrays are values of their resource here")
        }
        if let note = EntityDrafting.valuelessNote(valueless) { entity.notes.append(note) }
        EntityDrafting.resolveNames(&entity, keys: ["type", "id", "attributes", "relationships", "links", "meta"])
        return entity
    }

    /// An attribute read through `parent` (`attributes.name`); `json` for objects, arrays and
    /// keys that never held a value, which `valueless` and `whole` collect for the notes.
    private func attribute(
        _ stats: KeyStats, name: String, parent: String, of occurrences: Int, valueless: inout [String], whole: inout [String]
    ) -> Attribute {
        var evidence =
            "\(Wording.grouped(stats.present)) of \(Wording.grouped(occurrences))"
            + (stats.nulls > 0 ? "; \(Wording.grouped(stats.nulls)) null" : "")
        var attribute = Attribute(name: name, type: .json, from: stats.key, evidence: evidence)
        attribute.parents = [parent]
        if stats.neverHeldAValue {
            valueless.append(parent + "." + stats.key)
            attribute.evidence += "; json: never held a value"
            return attribute
        }
        switch stats.shape {
        case let .scalar(type, format, reason):
            if !reason.isEmpty { evidence += "; " + reason }
            attribute.type = type
            attribute.format = format
            attribute.required = stats.present == occurrences && stats.nulls == 0
            attribute.evidence = evidence
        case let .json(reason):
            attribute.evidence += "; json: " + reason
        case .object, .arrayOfObjects, .arrayOfScalars:
            whole.append("'\(parent).\(stats.key)'")
            attribute.evidence += "; json: " + stats.describeKinds()
        }
        return attribute
    }

    /// A relationship's linkage: a relationship to the entity of the one type it links to (or a
    /// selector over several); the ids, as attributes, when no type linked to is a resource of the
    /// dumps; `json` when the linkage is sometimes one and sometimes a list.
    private func draft(_ linkage: JSONAPIObservation.Linkage, of occurrences: Int, into entity: inout Entity) {
        let key = linkage.name
        var evidence = "\(Wording.grouped(linkage.withData)) of \(Wording.grouped(occurrences))"
        let known = linkage.targetTypes.filter { names[$0] != nil }
        func kept(_ name: String, _ type: AttributeType, path: [String], why: String) {
            var attribute = Attribute(name: name, type: type, from: path.last!, evidence: evidence + "; " + why)
            attribute.parents = Array(path.dropLast())
            entity.attributes.append(attribute)
            entity.notes.append("'relationships.\(key)' " + why)
        }
        let many = linkage.toMany > 0
        guard linkage.toOne == 0 || linkage.toMany == 0, linkage.unreadable == 0, !linkage.targetTypes.isEmpty else {
            let why =
                linkage.targetTypes.isEmpty && linkage.unreadable == 0 && (linkage.toOne == 0 || linkage.toMany == 0)
                ? "never linked to a resource (null or [] in every record): json, kept whole"
                : "is not one kind of resource linkage (one, a list, or something else in different records): json, kept whole"
            kept(DraftNaming.memberName(fromKey: key), .json, path: ["relationships", key, "data"], why: why)
            return
        }
        guard known.count == linkage.targetTypes.count else {
            let types = Wording.list(linkage.targetTypes.filter { names[$0] == nil }.map { "'\($0)'" }, conjunction: "and")
            if known.isEmpty {
                let name = DraftNaming.memberName(fromKey: many ? Naming.singular(key) + "_ids" : key + "_id")
                kept(
                    name, many ? .json : .string, path: ["relationships", key, "data", "id"],
                    why: "links to \(types), which no dump holds a resource of: the ids are kept")
            } else {
                kept(
                    DraftNaming.memberName(fromKey: key), .json, path: ["relationships", key, "data"],
                    why: "links to \(types) too, which no dump holds a resource of: kept whole")
            }
            return
        }
        let missing = linkage.targets.filter { observation.resources(of: $0.type)?.ids.contains($0.id) != true }.count
        var relationship = Relationship(name: DraftNaming.memberName(fromKey: key), target: names[known[0]]!, evidence: "")
        relationship.many = many
        relationship.from = "relationships"
        if known.count == 1 {
            relationship.path = ["relationships", key, "data", "id"]
            evidence += "; links to '\(known[0])'"
        } else {
            relationship.selector = .init(by: "type", cases: known.map { (value: $0, entity: names[$0]!) })
            relationship.path = ["relationships", key, "data"]
            evidence += "; links to " + Wording.list(known.map { "'\($0)'" }, conjunction: "and")
        }
        evidence += ", \(Wording.count(linkage.targets.count, "resource"))"
        if missing > 0 {
            relationship.onMissingCreate = true
            evidence += ", \(Wording.grouped(missing)) in no dump: onMissing: create"
        }
        relationship.evidence = evidence
        entity.relationships.append(relationship)
    }
}
