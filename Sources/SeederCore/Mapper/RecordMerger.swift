/// The merge rules of docs/mapping.md (Identity), one occurrence at a time: all occurrences of one
/// identity become one row.
///
/// - An attribute present in only some occurrences is taken from those; present in several,
///   the values must be equal, else it is a conflict that `onConflict` settles (`error`: the
///   first value stays and the conflict is reported; `first`/`last`: that occurrence wins and
///   the override is counted).
/// - `nulls: absent` was applied by the mapper (a null is then absent); otherwise null is a
///   value like any other.
/// - To-many links of all occurrences are united in first-seen order; an empty array adds
///   none. A to-one pointing at two different targets is a conflict, settled the same way.
///
/// Links are merged by target identity, so embedded targets must first be named by their
/// identity (`Record.namingEmbeddedTargets(in:)`).
public struct RecordMerger: Sendable {
    /// One disagreement between the row so far and an occurrence.
    public struct Conflict: Sendable, Hashable {
        /// What disagrees.
        public enum Subject: Sendable, Hashable {
            case attribute(Int)
            case relationship(Int)
        }

        /// The attribute or relationship.
        public var subject: Subject
        /// The row's value before this occurrence, as a message shows it.
        public var kept: String
        /// Where the row's value came from.
        public var keptLocation: SourceLocation
        /// This occurrence's value.
        public var incoming: String
        /// Where this occurrence's value is.
        public var incomingLocation: SourceLocation
        /// `true` when `onConflict` settled it (`first` or `last`); `false` for an error.
        public var isResolved: Bool
    }

    /// The entity whose occurrences are merged.
    public let entity: Entity

    /// A merger for `entity`'s records.
    public init(entity: Entity) {
        self.entity = entity
    }

    /// Merges `occurrence` into `row` (the same identity); returns the conflicts.
    public func merge(_ occurrence: Record, into row: inout Record) -> [Conflict] {
        var changed = false
        return merge(occurrence, into: &row, changed: &changed)
    }

    /// Merges `occurrence` into `row`, setting `changed` when the row took anything from it (a
    /// value or link it lacked, or one that `last` let win); returns the conflicts. An
    /// occurrence that repeats what the row holds changes nothing, and the store writes nothing.
    public func merge(_ occurrence: Record, into row: inout Record, changed: inout Bool) -> [Conflict] {
        var conflicts: [Conflict] = []
        for index in entity.attributes.indices {
            let incoming = occurrence.fields[index]
            guard case let .value(newValue) = incoming.value else {
                // An absent field away from its record is a value the mapper reported; the row
                // keeps where it stood, so that `required` does not report it again
                // (docs/mapping.md, Attributes).
                if incoming.offset != occurrence.origin.offset, case .absent = row.fields[index].value,
                    row.fields[index].offset == row.origin.offset, row.file(ofField: index) == row.origin.file
                {
                    row.fields[index] = incoming
                    row.setFile(occurrence.origin.file, ofField: index)
                    changed = true
                }
                continue
            }
            guard case let .value(oldValue) = row.fields[index].value else {
                row.fields[index] = incoming
                row.setFile(occurrence.origin.file, ofField: index)
                changed = true
                continue
            }
            guard oldValue != newValue else { continue }
            let shown = SQLValue.contrasted(oldValue, newValue)
            conflicts.append(
                Conflict(
                    subject: .attribute(index), kept: shown.old,
                    keptLocation: SourceLocation(file: row.file(ofField: index), offset: row.fields[index].offset),
                    incoming: shown.new,
                    incomingLocation: SourceLocation(file: occurrence.origin.file, offset: incoming.offset),
                    isResolved: entity.onConflict != .error))
            if entity.onConflict == .last {
                row.fields[index] = incoming
                row.setFile(occurrence.origin.file, ofField: index)
                changed = true
            }
        }
        for index in entity.relationships.indices {
            switch (row.links[index], occurrence.links[index]) {
            case (_, .absent):
                continue
            case (.absent, let link):
                row.links[index] = link
                changed = true
            case let (.many(kept), .many(incoming)):
                var seen = Set(kept.map(ReferenceKey.init))
                let added = incoming.filter { seen.insert(ReferenceKey($0)).inserted }
                if !added.isEmpty {
                    row.links[index] = .many(kept + added)
                    changed = true
                }
            case let (kept, incoming) where ReferenceKey(kept) != ReferenceKey(incoming):
                conflicts.append(
                    Conflict(
                        subject: .relationship(index), kept: describeLink(kept), keptLocation: row.origin.location,
                        incoming: describeLink(incoming), incomingLocation: occurrence.origin.location,
                        isResolved: entity.onConflict != .error))
                if entity.onConflict == .last {
                    row.links[index] = incoming
                    changed = true
                }
            default:
                continue
            }
        }
        return conflicts
    }

    /// The finished row: defaults for attributes no occurrence had (docs/mapping.md: "value used
    /// when the key is absent"), then the names of required attributes and relationships still
    /// missing.
    public func finish(_ row: inout Record) -> [String] {
        var missing: [String] = []
        for (index, attribute) in entity.attributes.enumerated() {
            if case .absent = row.fields[index].value {
                if let defaultValue = attribute.defaultValue {
                    row.fields[index].value = .value(defaultValue)
                } else if attribute.isRequired {
                    missing.append(attribute.name)
                }
            }
        }
        for (index, relationship) in entity.relationships.enumerated() where relationship.isRequired {
            switch row.links[index] {
            case .absent, .null: missing.append(relationship.name)
            default: continue
            }
        }
        return missing
    }

    /// The error of an unresolved conflict, as docs/commands.md prints it:
    /// `users.json:1:88: error: User 3: 'name' conflicts: "Blake" here, "Blake W." at task_list.json:1:301`.
    public func diagnostic(for conflict: Conflict, identity: IdentityKey?) -> Diagnostic {
        let name: String
        switch conflict.subject {
        case let .attribute(index): name = entity.attributes[index].name
        case let .relationship(index): name = entity.relationships[index].name
        }
        var diagnostic = Diagnostic.error(
            .conflict, "\(entity.name)\(identity.map { " \($0)" } ?? ""): '\(name)' conflicts: \(conflict.incoming) here, \(conflict.kept)",
            at: conflict.incomingLocation)
        diagnostic.relatedLocation = conflict.keptLocation
        return diagnostic
    }

    private func describeLink(_ link: Link) -> String {
        switch link {
        case .absent: return "absent"
        case .null: return "null"
        case let .one(reference): return describeReference(reference)
        case let .many(references): return "[" + references.map(describeReference).joined(separator: ", ") + "]"
        }
    }

    private func describeReference(_ reference: RecordReference) -> String {
        switch reference {
        case let .identity(key, _): return key.description
        // The store describes an embedded record by its content (`RowStore.settleCopies`).
        case .embedded: return "an embedded record"
        }
    }
}

/// A link's target compared by identity, not by where it was written.
private enum ReferenceKey: Hashable {
    case identity(IdentityKey)
    case embedded(Int)
    case null
    case absent
    case many([ReferenceKey])

    init(_ reference: RecordReference) {
        switch reference {
        case let .identity(key, _): self = .identity(key)
        case let .embedded(index): self = .embedded(index)
        }
    }

    init(_ link: Link) {
        switch link {
        case .absent: self = .absent
        case .null: self = .null
        case let .one(reference): self.init(reference)
        case let .many(references): self = .many(references.map(ReferenceKey.init))
        }
    }
}

extension Record {
    /// The record with links to embedded records of `batch` that have an identity named by that
    /// identity, so that they merge with references to the same record from anywhere.
    @inlinable
    public func namingEmbeddedTargets<Batch: RandomAccessCollection<Record>>(in batch: Batch) -> Record where Batch.Index == Int {
        var copy = self
        func name(_ reference: RecordReference) -> RecordReference { reference.naming(in: batch) }
        copy.links = links.map { link in
            switch link {
            case let .one(reference): return .one(name(reference))
            case let .many(references): return .many(references.map(name))
            default: return link
            }
        }
        return copy
    }

    /// The same for a record with links through selectors (`selectorLinks[i]` for link `i`):
    /// those name an embedded record by its identity, then its entity's name (`entityNames`), as
    /// the mapper names a reference (docs/mapping.md, Polymorphism).
    public func namingEmbeddedTargets<Batch: RandomAccessCollection<Record>>(
        in batch: Batch, selectorLinks: [Bool], entityNames: [String]
    ) -> Record where Batch.Index == Int {
        var copy = self
        copy.links = links.enumerated().map { index, link in
            let names = selectorLinks[index] ? entityNames : nil
            switch link {
            case let .one(reference): return .one(reference.naming(in: batch, entityNames: names))
            case let .many(references): return .many(references.map { $0.naming(in: batch, entityNames: names) })
            default: return link
            }
        }
        return copy
    }

    /// The file a field's value came from (a merged row's fields may come from several).
    public func file(ofField index: Int) -> String {
        fieldFiles?[index] ?? origin.file
    }

    /// Notes that a field's value came from `file`.
    public mutating func setFile(_ file: String, ofField index: Int) {
        guard file != origin.file || fieldFiles != nil else { return }
        if fieldFiles == nil { fieldFiles = Array(repeating: origin.file, count: fields.count) }
        fieldFiles?[index] = file
    }
}

extension RecordReference {
    /// The reference with an embedded record of `batch` that has an identity named by that
    /// identity (at the record's offset); any other reference as it is.
    @inlinable
    public func naming<Batch: RandomAccessCollection<Record>>(in batch: Batch) -> RecordReference where Batch.Index == Int {
        if case let .embedded(index) = self, batch.indices.contains(index), let identity = batch[index].identity {
            return .identity(identity, offset: batch[index].origin.offset)
        }
        return self
    }

    /// With `entityNames`, a link through a selector: the identity, then the entity's name.
    public func naming<Batch: RandomAccessCollection<Record>>(in batch: Batch, entityNames: [String]?) -> RecordReference
    where Batch.Index == Int {
        guard let entityNames else { return naming(in: batch) }
        if case let .embedded(index) = self, batch.indices.contains(index), let identity = batch[index].identity {
            return .identity(IdentityKey(identity.values + [.text(entityNames[batch[index].entity])]), offset: batch[index].origin.offset)
        }
        return self
    }
}
