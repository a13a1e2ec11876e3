import SeederCore
import SeederFiles

/// Copies of one embedded record with `identity: none` that occurrences of one identity hold in
/// a to-one: a customer embedded in each charge with its address (docs/mapping.md, Merging).
/// Such a record has no identity to merge by, so its copies are compared by content
/// (`EmbeddedContent`): equal ones are one row, the first, and the later ones are not written;
/// unequal ones are a conflict, and the row the merge keeps is the one its foreign key names.
///
/// The store's part (`RowStore.compareCopies`, `settleCopies`) knows the kept copy as a row of
/// the seed, or as a record of the batch whose key `addLinks` has yet to set as the owner's
/// foreign key (the row's column is null until then). What a batch's merges decided is kept
/// here until the batch's links are in (`reset()`).
final class EmbeddedCopies {
    /// An owner's to-one: the entity, the relationship and the owner's key.
    struct Owner: Hashable {
        var entity: Int
        var relationship: Int
        var key: [SQLValue]
    }

    /// Per entity: its to-ones to an entity with `identity: none` (not through a selector, whose
    /// cases all have an identity).
    let toOnes: [[Int]]
    /// Per entity with `identity: none`: the to-many that keeps its copies from being compared,
    /// its own or that of an `identity: none` record it embeds in a to-one, as `Entity.name`;
    /// `nil` when they are compared. A to-many's links are stored apart until every input is
    /// read, so a copy already written cannot be compared by them.
    let uncompared: [String?]

    // What the merges of the batch being added decided (`reset()` after each batch). The
    // writing thread's only, read per record: no run-time exclusivity checks.
    /// Per owner: the child of the batch whose key `addLinks` sets as its foreign key.
    @exclusivity(unchecked) private(set) var held: [Owner: Int] = [:]
    /// Records of the batch up to which `held` knows the new rows' children.
    @exclusivity(unchecked) private var scanned = 0
    /// Children whose owner's foreign key `addLinks` must not set: copies that lost, and copies
    /// a later one replaced.
    @exclusivity(unchecked) private(set) var dropped: Set<Int> = []
    /// Records not written: copies that lost before their turn came, and the `identity: none`
    /// records they embed in to-ones.
    @exclusivity(unchecked) private(set) var skipped: Set<Int> = []
    @exclusivity(unchecked) private var isInUse = false

    init(mapping: Mapping) {
        let entities = mapping.entities
        func isNone(_ entity: Int) -> Bool { entities[entity].identity == .none }
        let toOnes = entities.map { entity in
            entity.relationships.indices.filter {
                let relationship = entity.relationships[$0]
                return !relationship.isToMany && relationship.selector == nil && isNone(relationship.target)
            }
        }
        // The first to-many found from each entity through its `toOnes` (a cycle adds none).
        func toMany(from entity: Int, seen: inout Set<Int>) -> String? {
            guard seen.insert(entity).inserted else { return nil }
            if let found = entities[entity].relationships.first(where: \.isToMany) { return "\(entities[entity].name).\(found.name)" }
            for relationship in toOnes[entity] {
                if let found = toMany(from: entities[entity].relationships[relationship].target, seen: &seen) { return found }
            }
            return nil
        }
        self.toOnes = toOnes
        uncompared = entities.indices.map { entity in
            var seen: Set<Int> = []
            return isNone(entity) ? toMany(from: entity, seen: &seen) : nil
        }
    }

    /// Learns the children of the new rows of `batch` before `index`, up to which the merges
    /// were settled (`settled(upTo:)`): a new row's link is always its own.
    func learnNewRows(of batch: UnsafeBufferPointer<Record>, before index: Int) {
        isInUse = true
        while scanned < index {
            defer { scanned += 1 }
            guard let identity = batch[scanned].identity else { continue }
            let entity = batch[scanned].entity
            for relationship in toOnes[entity] {
                if case let .one(.embedded(child)) = batch[scanned].links[relationship] {
                    held[Owner(entity: entity, relationship: relationship, key: identity.values)] = child
                }
            }
        }
    }

    /// Notes that `owner`'s foreign key is `child`'s key, or (`nil`) that `addLinks` sets none.
    func hold(_ child: Int?, for owner: Owner) {
        held[owner] = child
    }

    /// Notes that the merge of record `index` is settled.
    func settled(upTo index: Int) {
        scanned = max(scanned, index + 1)
    }

    /// Notes that no owner links `child`; one whose turn has not come (after `index`) and whose
    /// copies are compared is not written, with the `identity: none` records it embeds. (One
    /// that is not compared may hold to-many children, which name it: it is written, unlinked.)
    func drop(_ child: Int, after index: Int, in batch: UnsafeBufferPointer<Record>) {
        dropped.insert(child)
        guard child > index, uncompared[batch[child].entity] == nil else { return }
        func skip(_ record: Int) {
            skipped.insert(record)
            for case let .one(.embedded(target)) in batch[record].links where batch[target].identity == nil { skip(target) }
        }
        skip(child)
    }

    /// Forgets the batch's decisions once its links are in.
    func reset() {
        guard isInUse else { return }
        isInUse = false
        held.removeAll()
        scanned = 0
        dropped.removeAll()
        skipped.removeAll()
    }
}

/// What an embedded record with `identity: none` holds, to compare copies (docs/mapping.md,
/// Merging): its attributes (absent apart from null, as merging keeps them) and its to-ones,
/// those to a record with an identity by that identity, those to another `identity: none`
/// record by that record's content. Its to-manys are not in it (`EmbeddedCopies.uncompared`).
struct EmbeddedContent: Equatable {
    var entity: Int
    var fields: [FieldValue]
    var links: [Part]
    /// Where the copy is, for messages; not compared.
    var origin: Record.Origin

    indirect enum Part: Equatable {
        case absent
        case null
        case identity(IdentityKey)
        case embedded(EmbeddedContent)
    }

    static func == (lhs: EmbeddedContent, rhs: EmbeddedContent) -> Bool {
        lhs.entity == rhs.entity && lhs.fields == rhs.fields && lhs.links == rhs.links
    }

    /// The content as a message shows it, JSON-like by the mapping's names:
    /// `{"city":"Paris","geo":{"lat":48.85}}` (absent values left out, long ones shortened).
    func description(in mapping: Mapping) -> String {
        let entity = mapping.entities[entity]
        var members: [String] = []
        for (index, field) in fields.enumerated() {
            if case let .value(value) = field { members.append("\"\(entity.attributes[index].name)\":\(value)") }
        }
        for (index, part) in links.enumerated() {
            let name = "\"\(entity.relationships[index].name)\":"
            switch part {
            case .absent: continue
            case .null: members.append(name + "null")
            case let .identity(key):
                let values = key.values.map(\.description)
                members.append(name + (values.count == 1 ? values[0] : "[" + values.joined(separator: ",") + "]"))
            case let .embedded(content): members.append(name + content.description(in: mapping))
            }
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}
