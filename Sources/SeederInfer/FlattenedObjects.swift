import SeederCore
import SeederFiles

/// To-one objects with no identity of their own, which belong to the record that holds them
/// (GitHub's `reactions` summary in every issue): their keys are columns of that record's entity,
/// read through the object (`reactionsTotalCount: { type: integer, from: reactions.total_count }`),
/// not rows of a table numbered in source order, which one removed record would renumber
/// (docs/commands.md, `seeder infer`, Nested records).
///
/// Such an object is flattened when no source reads its records, its keys are not data, it has
/// no identity, it is under one key or has every key in every object, and each of its keys
/// holds a scalar, `json`, an array of scalars, an object keyed by data (`json`), references to
/// records detailed elsewhere or an object with an identity (a to-one of the record, read through
/// the object: PokéAPI's `damage_relations.double_damage_from`, a move's `meta.ailment`), or an
/// object flattened in turn. Arrays of such objects stay a one-to-many: each element is a row.
struct FlattenedObjects {
    private let observers: Set<ObjectIdentifier>
    /// The kinds of record with an identity: an object of one inside a flattened object is a
    /// to-one of the record holding it.
    private let identified: [ObjectIdentifier: IdentityChoice]

    init(catalog: ShapeCatalog, sources: [ShapeObserver]) {
        let roots = Set(sources.map(ObjectIdentifier.init))
        // The keys whose objects each observer counted: one observer per key name serves them all.
        var holders: [ObjectIdentifier: Int] = [:]
        for observer in catalog.observers {
            for stats in observer.keys { if let child = stats.child { holders[ObjectIdentifier(child), default: 0] += 1 } }
        }
        var identified: [ObjectIdentifier: IdentityChoice] = [:]
        for observer in catalog.observers where !observer.isKeyedRecords && observer.keyedData == nil {
            let choice = IdentityChoice(of: observer, keyed: false)
            if choice.key != nil { identified[ObjectIdentifier(observer)] = choice }
        }
        self.identified = identified
        let candidates = catalog.observers.filter { observer in
            !roots.contains(ObjectIdentifier(observer)) && observer.ownership == nil && !observer.isKeyedRecords
                && observer.keyedData == nil
                && !observer.keys.isEmpty && observer.keys.count <= MappingInference.maxKeys
                && identified[ObjectIdentifier(observer)] == nil
                // Under several keys, a key that some objects lack may be one that some owner's
                // objects never have: its column would read nothing there.
                && (holders[ObjectIdentifier(observer)] == 1 || observer.keys.allSatisfy { $0.present == observer.records })
        }
        // The least set closed under "every key flat": objects nested in themselves never are.
        var flat = Set<ObjectIdentifier>()
        var grew = true
        while grew {
            grew = false
            for observer in candidates where !flat.contains(ObjectIdentifier(observer)) {
                if observer.keys.allSatisfy({ Self.isFlat($0, given: flat, identified: identified) }) {
                    flat.insert(ObjectIdentifier(observer))
                    grew = true
                }
            }
        }
        observers = flat
    }

    private static func isFlat(
        _ stats: KeyStats, given flat: Set<ObjectIdentifier>, identified: [ObjectIdentifier: IdentityChoice]
    ) -> Bool {
        if stats.referenced != nil { return true }
        switch stats.shape {
        case .scalar, .json, .arrayOfScalars: return true
        case .object:
            guard let child = stats.child else { return false }
            switch child.keyedData {
            case nil: return flat.contains(ObjectIdentifier(child)) || identified[ObjectIdentifier(child)] != nil
            case .other?: return true  // keys as data: a `json` column
            case .records?: return false
            }
        case .arrayOfObjects: return false
        }
    }

    /// Whether the objects under `stats`'s key are columns of the record holding them.
    func flattens(_ stats: KeyStats) -> Bool {
        guard case .object = stats.shape, let child = stats.child, child.keyedData == nil else { return false }
        return observers.contains(ObjectIdentifier(child))
    }

    /// The kind of record with an identity whose objects are under `key`, a key of a flattened
    /// object: a to-one of the record holding it.
    private func recordKind(under key: KeyStats) -> (ShapeObserver, IdentityChoice)? {
        guard case .object = key.shape, let child = key.child, child.keyedData == nil,
            let choice = identified[ObjectIdentifier(child)]
        else { return nil }
        return (child, choice)
    }

    /// The kinds of record held, through to-ones, by the objects under `stats` (a flattened
    /// object, or one inside it): entities, though their holder is none.
    func recordKinds(under stats: KeyStats) -> [ShapeObserver] {
        stats.child!.keys.flatMap { key in
            flattens(key) ? recordKinds(under: key) : recordKind(under: key).map { [$0.0] } ?? []
        }
    }

    /// What the objects under `stats` become in the record holding them: attributes, and
    /// relationships for their references, each named `name` + its key (`reactions` +
    /// `total_count` -> `reactionsTotalCount`) and read through `path` (the keys down to the
    /// object).
    struct Members {
        var attributes: [InferredMapping.Attribute] = []
        var relationships: [InferredMapping.Relationship] = []
        /// The key paths that never held a value (`meta.max_turns`): `json` until they do.
        var valueless: [String] = []

        var names: [String] { attributes.map(\.name) + relationships.map(\.name) }
    }

    /// The members the objects under `stats` become (`Members`). An attribute is required only
    /// where every object has the key, and every record the object.
    func members(of stats: KeyStats, name: String, path: [String], required: Bool) -> Members {
        let child = stats.child!
        var found = Members()
        for key in child.keys {
            let member = name + DraftNaming.capitalized(DraftNaming.memberName(fromKey: key.key))
            let keyRequired = required && key.present == child.records && key.nulls == 0
            if flattens(key) {
                let nested = members(of: key, name: member, path: path + [key.key], required: keyRequired)
                found.attributes += nested.attributes
                found.relationships += nested.relationships
                found.valueless += nested.valueless
                continue
            }
            var evidence =
                "\(Wording.grouped(key.present)) of \(Wording.grouped(child.records))"
                + (key.nulls > 0 ? "; \(Wording.grouped(key.nulls)) null" : "")
            if let (target, urlKey) = key.referenced {
                found.relationships.append(
                    .detailedReference(
                        name: member, to: target.name, many: key.arrays > 0, path: path + [key.key], urlKey: urlKey, evidence: evidence))
                continue
            }
            if let (child, choice) = recordKind(under: key) {
                var relationship = InferredMapping.Relationship(name: member, target: child.name, from: path[0], evidence: evidence)
                relationship.path = path + [key.key]
                relationship.createMissing(choice, of: child)
                found.relationships.append(relationship)
                continue
            }
            let type: AttributeType
            var format: String?
            switch key.shape {
            case let .scalar(scalar, scalarFormat, reason):
                type = scalar
                format = scalarFormat
                if !reason.isEmpty { evidence += "; " + reason }
            case let .json(reason):
                type = .json
                evidence += "; json: " + reason
                if key.neverHeldAValue { found.valueless.append((path + [key.key]).joined(separator: ".")) }
            case .object:
                type = .json
                if case let .other(reason)? = key.child?.keyedData { evidence += "; json: an object keyed by data, not fields: " + reason }
            default:
                type = .json
                evidence += "; json: arrays of scalars"
            }
            found.attributes.append(
                .init(
                    name: member, type: type, from: key.key, parents: path, format: format, required: keyRequired && type != .json,
                    evidence: evidence))
        }
        return found
    }
}
