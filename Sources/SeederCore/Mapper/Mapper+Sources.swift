/// What a source makes of the values it reaches besides objects (docs/mapping.md, Sources): a
/// record's key under `keyedBy`, and a bare id where a record is expected.
extension Mapper {
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
        guard reference.identityAttributes.count == 1 else {
            let identity = reference.identityAttributes.isEmpty ? "has 'identity: none'" : "has a composite identity"
            diagnostics.error(
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
        fields[attribute] = field(
            value, attribute: reference.attributePointers[attribute], index: attribute, nulls: reference.entity.nulls, context: &context)
        plans[index].recordCount &+= 1
        plans[index].bareIdCount &+= 1
        guard let identity = identity(fields, reference.identityAttributes, entity: reference, context: &context) else { return 0 }
        let links = [Link](repeating: .absent, count: reference.relationshipPointers.count)
        records.append(Record(entity: index, identity: identity, fields: fields, links: links, origin: origin))
        return 1
    }

    /// The field of a `keyedBy` attribute: the record's key, coerced to the attribute's type (an
    /// error at the key when it does not coerce). A record that holds the attribute too must
    /// hold the same value (Firebase exports often repeat the key inside); another value is an
    /// error at that value.
    func keyedField(
        _ member: KeyedMember, attribute: UnsafePointer<Attribute>, read: Record.Field, nulls: NullPolicy, context: inout RecordContext
    ) -> Record.Field {
        let (key, index) = (member.key, member.attribute)
        let keyed = field(key, attribute: attribute, index: index, nulls: nulls, context: &context)
        if case let .value(held) = read.value, case let .value(value) = keyed.value, held != value {
            context.error(
                "'\(attribute.pointee.name)' is \(held) here, but the record's key is \(quoted(key.string ?? ""))",
                attribute: index, at: nil, offset: read.offset)
        }
        return keyed
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
