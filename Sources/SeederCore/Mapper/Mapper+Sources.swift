/// Keys as data and bare ids (docs/mapping.md, Sources and Relationships): a record whose key
/// becomes one of its attributes (`keyedBy`), and a bare id where a record is expected.
extension Mapper {
    /// Maps one JSON record of `entity` whose key becomes one of its attributes (a source's
    /// `keyedBy`), and every record embedded in it, onto the end of `records`, as
    /// `records(from:entity:file:diagnostics:appendingTo:)` does. Returns the batch's size.
    @discardableResult
    public func records(
        from value: JSONValue, entity: Int, file: String, keyed: KeyedMember, diagnostics: DiagnosticSink,
        appendingTo records: inout [Record]
    ) -> Int {
        let origin = Record.Origin(file: file, offset: value.fileOffset)
        let start = records.count
        batchStart = start
        map(value, entity: entity, origin: origin, keyed: keyed, diagnostics: diagnostics, into: &records)
        return records.count - start
    }

    /// Maps a scalar where a record of `entity` is expected (`[1699, 1455]`) as the record that
    /// holds only its identity, onto the end of `records`; returns the records added (0 after an
    /// error: the entity's identity is not one attribute, or the value is not one of it).
    @discardableResult
    public func identityRecord(
        from value: JSONValue, entity index: Int, file: String, diagnostics: DiagnosticSink, appendingTo records: inout [Record]
    ) -> Int {
        let reference = entities[index]
        let name = reference.entity.name
        let origin = Record.Origin(file: file, offset: value.fileOffset)
        guard reference.identityAttributes.count == 1, reference.ownedParts.isEmpty else {
            let identity = reference.identityAttributes.isEmpty ? "has 'identity: none'" : "has a composite identity"
            diagnostics.error(
                .shape,
                "expected a record (an object) for \(name), found \(describeKind(value.kind)); "
                    + "a bare id is a record only for an entity whose identity is one attribute, and \(name) \(identity)",
                at: origin.location, jsonPath: value.pointer.description)
            return 0
        }
        let attribute = reference.identityAttributes[0]
        var context = RecordContext(entity: name, origin: origin, record: value, diagnostics: diagnostics)
        var fields: [Record.Field] = []
        fields.reserveCapacity(reference.attributes.count)
        for _ in 0..<reference.attributes.count { fields.append(Record.Field(value: .absent, offset: origin.offset)) }
        // An identity's null is an error at it, whatever `nulls` says (docs/mapping.md, Empty strings).
        fields[attribute] = field(
            value, attribute: reference.attributePointers[attribute], index: attribute, nulls: .value, context: &context)
        plans[index].recordCount &+= 1
        plans[index].bareIdCount &+= 1
        guard let identity = identity(fields, reference.identityAttributes, entity: reference, context: &context) else { return 0 }
        let links = [Link](repeating: .absent, count: reference.entity.relationships.count)
        records.append(Record(entity: index, identity: identity, fields: fields, links: links, origin: origin))
        return 1
    }

    /// The field of a `keyedBy` attribute: the record's key, coerced to the attribute's type (an
    /// error at the key, with the record's pointer, when it does not coerce). A record that
    /// holds the attribute too must hold the same value (Firebase exports often repeat the key
    /// inside); another value is an error at that value.
    func keyedField(
        _ member: KeyedMember, attribute: UnsafePointer<Attribute>, read: Record.Field, nulls: NullPolicy, context: inout RecordContext
    ) -> Record.Field {
        let (key, index) = (member.key, member.attribute)
        let keyed = coerced(
            { () throws(CoercionFailure) in try coercion.coerceField(key, to: attribute) }, attribute: attribute, index: index, at: nil,
            offset: key.fileOffset, context: &context)
        if case let .value(held) = read.value, case let .value(value) = keyed.value, held != value {
            context.error(
                .conflict, "'\(attribute.pointee.name)' is \(held) here, but the record's key is \(quoted(key.string ?? ""))",
                attribute: index, at: nil, offset: read.offset)
        }
        return keyed
    }
}

extension Mapper {
    /// The targets of a to-many `keyedBy` relationship whose value is an object of records: each
    /// member's value is a record of the target, mapped now, its key that attribute (`null`s
    /// skipped, as in an array; any other value that is not an object an error at it).
    func keyedTargets(
        _ value: JSONValue, keyedBy attribute: Int, relationship: UnsafePointer<Relationship>, batch: inout [Record],
        context: inout RecordContext
    ) -> [RecordReference] {
        var targets: [RecordReference] = []
        let first = relationship.pointee.target
        let selector = relationship.pointee.selector
        for (key, member) in value.members where !member.isNull {
            guard member.kind == .object else {
                context.error(
                    .shape,
                    "'\(relationship.pointee.name)' is keyed by '\(entities[first].attributes[attribute].name)'; "
                        + "expected a record (an object) of \(entities[first].entity.name), found \(describeKind(member.kind))",
                    at: member)
                continue
            }
            var target = first
            if let selector {
                guard let chosen = entity(chosenBy: selector, in: member, for: relationship.pointee.name, context: &context) else {
                    continue
                }
                target = chosen
            }
            let origin = Record.Origin(file: context.origin.file, offset: member.fileOffset)
            let keyed = KeyedMember(attribute: keyedAttribute(attribute, of: first, on: target), key: key)
            if let position = map(member, entity: target, origin: origin, keyed: keyed, diagnostics: context.diagnostics, into: &batch) {
                targets.append(.embedded(position))
            }
        }
        return targets
    }
}

/// A record's key when its source reads an object whose keys are records (`keyedBy`).
public struct KeyedMember {
    /// The attribute the key becomes (its index in the entity).
    public var attribute: Int
    /// The key, a string value at the key's place in its file.
    public var key: JSONValue

    /// The key `key` for attribute `attribute`.
    public init(attribute: Int, key: JSONValue) {
        self.attribute = attribute
        self.key = key
    }
}
