import SeederCore
import SeederFiles

extension RowStore {
    /// One to-one of `EmbeddedCopies.toOnes` in the merge of an occurrence: the row's link and
    /// the occurrence's as the merger is given them, and the children of the batch they name.
    struct CopyLink {
        var relationship: Int
        var kept: Link
        var incoming: Link
        /// The child of the batch that `addLinks` was to link the row to, if any.
        var heldChild: Int?
        /// The occurrence's embedded child, if any.
        var incomingChild: Int?
    }

    /// Before the merge of record `index` of `batch` into `row`: the row's to-ones to
    /// `identity: none` records as they stand (a child of the batch whose key `addLinks` has yet
    /// to set, rather than the null in the row's column), and an occurrence's copy equal to the
    /// kept one made the kept link itself, so that the merger finds no conflict in them
    /// (docs/mapping.md, Merging).
    func compareCopies(
        _ incoming: inout Record, row: inout Record, identity: IdentityKey, index: Int, batch: UnsafeBufferPointer<Record>
    ) throws -> [CopyLink] {
        let entity = row.entity
        copies.learnNewRows(of: batch, before: index)
        var links: [CopyLink] = []
        for relationship in copies.toOnes[entity] {
            let held = copies.held[EmbeddedCopies.Owner(entity: entity, relationship: relationship, key: identity.values)]
            if let held { row.links[relationship] = .one(.embedded(held)) }
            var child: Int?
            if case let .one(.embedded(embedded)) = incoming.links[relationship] {
                child = embedded
                let target = mapping.entities[entity].relationships[relationship].target
                if copies.uncompared[target] == nil, let kept = try content(of: row.links[relationship], target: target, batch: batch),
                    kept == content(ofEmbedded: embedded, in: batch)
                {
                    incoming.links[relationship] = row.links[relationship]
                }
            }
            links.append(
                CopyLink(
                    relationship: relationship, kept: row.links[relationship], incoming: incoming.links[relationship],
                    heldChild: held, incomingChild: child))
        }
        return links
    }

    /// After the merge of record `index`: which child `addLinks` links the row to, and which it
    /// does not (`EmbeddedCopies.drop`); conflicts in these links described by the copies'
    /// contents and located at them.
    func settleCopies(
        _ links: [CopyLink], row: Record, identity: IdentityKey, index: Int, batch: UnsafeBufferPointer<Record>,
        conflicts: inout [RecordMerger.Conflict]
    ) throws {
        for link in links {
            let relationship = link.relationship
            let owner = EmbeddedCopies.Owner(entity: row.entity, relationship: relationship, key: identity.values)
            let now = row.links[relationship]
            if let child = link.incomingChild, now == .one(.embedded(child)) {
                if let held = link.heldChild { copies.drop(held, after: index, in: batch) }
                copies.hold(child, for: owner)
            } else {
                if let child = link.incomingChild { copies.drop(child, after: index, in: batch) }
                if let held = link.heldChild, now != .one(.embedded(held)) {
                    copies.drop(held, after: index, in: batch)
                    copies.hold(nil, for: owner)
                }
            }
            for (number, conflict) in conflicts.enumerated() where conflict.subject == .relationship(relationship) {
                conflicts[number] = try describe(conflict, link: link, entity: row.entity, batch: batch)
            }
        }
        copies.settled(upTo: index)
    }

    /// A conflict between two to-ones to `identity: none` records, by their contents:
    /// `an embedded Address {"city":"Paris"} here, another {"city":"Lyon"}`, each located at its
    /// copy.
    private func describe(_ conflict: RecordMerger.Conflict, link: CopyLink, entity: Int, batch: UnsafeBufferPointer<Record>) throws
        -> RecordMerger.Conflict
    {
        let target = mapping.entities[entity].relationships[link.relationship].target
        let name = mapping.entities[target].name
        var described = conflict
        let incoming = try content(of: link.incoming, target: target, batch: batch)
        if let incoming {
            described.incoming = "an embedded \(name) \(incoming.description(in: mapping))"
            described.incomingLocation = incoming.origin.location
        }
        if let kept = try content(of: link.kept, target: target, batch: batch) {
            described.kept = (incoming == nil ? "an embedded \(name) " : "another ") + kept.description(in: mapping)
            described.keptLocation = kept.origin.location
            if incoming != nil, let toMany = copies.uncompared[target] {
                described.kept += " (\(toMany) is a to-many: such copies are not compared)"
            }
        }
        return described
    }

    /// The content of the `identity: none` record of entity `target` that a to-one names: a
    /// record of the batch, or a row of the seed by its `_pk`. `nil` for null or absent.
    private func content(of link: Link, target: Int, batch: UnsafeBufferPointer<Record>) throws -> EmbeddedContent? {
        switch link {
        case let .one(.embedded(index)): return content(ofEmbedded: index, in: batch)
        case let .one(.identity(key, _)): return try storedContent(of: target, key: key.values[0])
        default: return nil
        }
    }

    /// The content of record `index` of `batch`, which has `identity: none`.
    private func content(ofEmbedded index: Int, in batch: UnsafeBufferPointer<Record>) -> EmbeddedContent {
        let record = batch[index]
        let layout = layouts[record.entity]
        var links: [EmbeddedContent.Part] = []
        for (relationship, link) in record.links.enumerated() {
            switch link {
            case .absent, .many: links.append(.absent)
            case .null: links.append(.null)
            case let .one(.embedded(target)) where batch[target].identity == nil:
                links.append(.embedded(content(ofEmbedded: target, in: batch)))
            case let .one(reference):
                // Named as the row's foreign key names it (`RowEncoder`).
                let named = reference.naming(in: batch, entityNames: layout.hasSelector[relationship] ? entityNames : nil)
                if case let .identity(key, _) = named { links.append(.identity(key)) } else { links.append(.absent) }
            }
        }
        return EmbeddedContent(entity: record.entity, fields: record.fields.map(\.value), links: links, origin: record.origin)
    }

    /// The content of the row of `entity` (`identity: none`) whose `_pk` is `key`, with the
    /// `identity: none` rows its to-ones name.
    private func storedContent(of entity: Int, key: SQLValue) throws -> EmbeddedContent? {
        guard let (record, _) = try storedRecord(layouts[entity], key: [key], identity: nil) else { return nil }
        var links: [EmbeddedContent.Part] = []
        for (index, relationship) in mapping.entities[entity].relationships.enumerated() {
            switch record.links[index] {
            case .null: links.append(.null)
            case let .one(.identity(target, _)):
                if copies.toOnes[entity].contains(index), let content = try storedContent(of: relationship.target, key: target.values[0]) {
                    links.append(.embedded(content))
                } else {
                    links.append(.identity(target))
                }
            default: links.append(.absent)
            }
        }
        return EmbeddedContent(entity: entity, fields: record.fields.map(\.value), links: links, origin: record.origin)
    }
}
