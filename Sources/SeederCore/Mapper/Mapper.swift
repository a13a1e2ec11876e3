/// Maps JSON records to `Record`s with a validated `Mapping` (docs/mapping.md): names and key
/// paths, collection operators, types and coercion, identity, embedded records and identity
/// references.
///
///     let mapper = Mapper(mapping: mapping)
///     let records = mapper.records(from: value, entity: user, file: "users.json", diagnostics: sink)
///
/// A record's embedded records come after it, in document order (pre-order), and its links
/// name them by their index in the returned batch. Every problem is a diagnostic with the
/// value's file offset and JSON Pointer; mapping goes on after a problem, so that one run reports
/// them all. Not thread-safe: use one mapper per thread.
public final class Mapper {
    /// The mapping records are made with.
    public let mapping: Mapping
    let coercion = Coercion()
    let plans: [EntityPlan]
    var unmapped: [Set<String>]
    /// Per entity: the size of its last batch, reserved for the next, so a record with
    /// embedded ones does not grow its batch two or three times. (One mapping at a time: no
    /// run-time exclusivity checks.)
    @exclusivity(unchecked) private var batchSizes: [Int]
    /// Per entity: the JSON key (in lookup form) of each identity attribute or to-one, in
    /// identity order: its `from` key path's first key, else its name.
    let identityKeys: [[String]]
    /// Per entity: the attribute each column of its key holds, in key order (a to-one in an
    /// identity stands for its target's key: `Entity.ownedKey`), which coerces a reference's
    /// values.
    let keyAttributes: [[UnsafePointer<Attribute>]]
    /// Per entity: the entity behind a reference (`EntityReference`).
    let entities: [EntityReference]
    /// Per entity: the keys an object must hold, and hold alone, to be a reference to one of its
    /// records rather than a record (`isIdentityStub`): its `identityKeys`, or none when the
    /// entity declares nothing but its identity, whose records such an object is all of.
    let stubKeys: [[String]]

    /// `true` when an attribute or relationship reads `@file.N`: only then does `beginFile` keep
    /// the file's stars.
    let readsFileStars: Bool
    /// What `@file.N` reads in the file being mapped (`beginFile`). (One mapping at a time: no
    /// run-time exclusivity checks.)
    @exclusivity(unchecked) private(set) var file = FileStars()

    /// A mapper for `mapping`.
    public init(mapping: Mapping) {
        self.mapping = mapping
        self.readsFileStars = mapping.entities.contains { entity in
            entity.attributes.contains { $0.keyPath?.fileStar != nil } || entity.relationships.contains { $0.keyPath?.fileStar != nil }
        }
        self.entities = mapping.entities.map(EntityReference.init)
        self.plans = zip(mapping.entities, EntityPlan.selectorKeys(in: mapping)).map { EntityPlan(entity: $0, selectorKeys: $1) }
        self.unmapped = mapping.entities.map { _ in [] }
        self.batchSizes = mapping.entities.map { _ in 1 }
        self.identityKeys = mapping.entities.map { entity in
            entity.identityParts.map { part in
                switch part {
                case let .attribute(index):
                    return Naming.lookupKey(entity.attributes[index].keyPath?.keys.first ?? entity.attributes[index].name)
                case let .relationship(index):
                    return Naming.lookupKey(entity.relationships[index].keyPath?.keys.first ?? entity.relationships[index].name)
                }
            }
        }
        let entities = self.entities
        self.keyAttributes = mapping.entities.enumerated().map { index, entity in
            guard case .owned = entity.identity else {
                return entities[index].identityAttributes.map { entities[index].attributePointers[$0] }
            }
            return entity.ownedKey.map { entities[$0.entity].attributePointers[$0.attribute] }
        }
        // Relationships do not count: Sync's `{"id": 453, "items": [{"id": 1}]}` makes Item 1
        // when Item declares only `id` and its inverse (docs/mapping.md, Relationships).
        self.stubKeys = zip(mapping.entities, identityKeys).map { entity, keys in
            entity.attributes.count == entity.identityAttributes.count ? [] : keys
        }
    }

    /// Starts a dump file: the records mapped from now on come from a file that the glob `path`
    /// (a source's `path`) matched, each `*` of it matching the text of `stars` at its place, in
    /// order (`comics/*/*.json` on `comics/1011334/0001.json`: `["1011334", "0001"]`).
    /// `@file.N` reads them (docs/mapping.md, Key paths); records embedded in the file's records
    /// come from the same file. `path` is `nil` for a file read without a glob (a mapping
    /// without `sources:`). Costs nothing per record, and nothing at all for a mapping that
    /// reads no `@file.N`.
    public func beginFile(path: String?, stars: [String]) {
        guard readsFileStars else { return }
        file = FileStars(path: path, stars: stars)
    }

    /// The JSON keys seen in an entity's records that no attribute or relationship reads, sorted.
    public func unmappedKeys(of entity: Int) -> [String] {
        unmapped[entity].sorted()
    }

    /// Maps one JSON record of `entity`, and every record embedded in it.
    public func records(from value: JSONValue, entity: Int, file: String, diagnostics: DiagnosticSink) -> [Record] {
        var batch: [Record] = []
        batch.reserveCapacity(batchSizes[entity])
        records(from: value, entity: entity, file: file, diagnostics: diagnostics, appendingTo: &batch)
        batchSizes[entity] = batch.count
        return batch
    }

    /// Maps one JSON record of `entity`, and every record embedded in it, onto the end of
    /// `records`: its batch, whose links name each other by index from the batch's first
    /// record, as if it were an array of its own. Returns the batch's size. (The reading thread
    /// maps a chunk's records into one array rather than allocate an array per record.)
    @discardableResult
    public func records(
        from value: JSONValue, entity: Int, file: String, diagnostics: DiagnosticSink, appendingTo records: inout [Record]
    ) -> Int {
        let origin = Record.Origin(file: file, offset: value.fileOffset)
        let start = records.count
        batchStart = start
        map(value, entity: entity, origin: origin, diagnostics: diagnostics, into: &records)
        return records.count - start
    }

    /// Arrays for records' member keys (`MemberLayout.keys`), one per record being mapped (an
    /// embedded record's while its parent's is in use), each back when its record is done,
    /// rather than one allocated and freed per record (bench/README.md).
    @exclusivity(unchecked) private var keyArrays: [[Int]] = []

    /// Where the batch being mapped starts in the array it is mapped into.
    @exclusivity(unchecked) var batchStart = 0

    // MARK: One record

    /// Maps a record into `batch`, and the records embedded in it after it (pre-order, each
    /// named by its index in the batch); returns its index, `nil` when it is not a record or its
    /// identity could not be read (its embedded records still count). The record goes in as
    /// soon as its identity is known, and its links when its relationships are mapped, so
    /// nothing is copied or renumbered afterwards.
    @discardableResult
    func map(
        _ value: JSONValue, entity index: Int, origin: Record.Origin, keyed: KeyedMember? = nil, owner: OwnerKey? = nil,
        diagnostics: DiagnosticSink, into batch: inout [Record]
    ) -> Int? {
        // The entity's parts are read through the reference: a copy of the `Entity` struct
        // would retain and release each of its strings and arrays, on every record.
        let reference = entities[index]
        guard value.kind == .object else {
            diagnostics.error(
                .shape, "\(reference.entity.name): expected an object, found \(describeKind(value.kind))",
                at: SourceLocation(file: origin.file, offset: value.fileOffset), jsonPath: value.pointer.description)
            return nil
        }
        let members = layout(of: value, entity: index)
        // Its keys' array goes back to the pool for the next record (`keyArrays`).
        defer { keyArrays.append(members.keys) }
        var context = RecordContext(entity: reference.entity.name, origin: origin, record: value, diagnostics: diagnostics)

        // Identity attributes first: the identity names the record in every later message.
        // Reserved and appended: `Array(repeating:count:)` goes through an unspecialized
        // allocation that looks up the array's type metadata at run time, on every record.
        var fields: [Record.Field] = []
        fields.reserveCapacity(reference.attributes.count)
        for _ in 0..<reference.attributes.count { fields.append(Record.Field(value: .absent, offset: origin.offset)) }
        let identityAttributes = reference.identityAttributes
        // Not inside a closure: `fields`, captured and written there, would be checked for
        // exclusive access at run time on every write.
        let plan = plans[index]
        plan.recordCount &+= 1
        let nulls = reference.entity.nulls
        // The record's text and tape, taken once for every field.
        let (nodes, bytes, fileOffset) = (value.document.nodes, value.document.bytes, value.document.fileOffset)
        for (position, attributeIndex) in reference.attributeOrder.enumerated() {
            // An identity's null is an error at it even under `nulls: absent` (docs/mapping.md,
            // Empty strings): no other occurrence can fill an identity.
            let nulls = position < identityAttributes.count ? .value : nulls
            // Read in place (`EntityReference.attributePointers`), and by name straight from the
            // member: an `Attribute` copied out of its array, and a member wrapped in a
            // `MappedValue`, would each be retained and released for every field.
            let attribute = reference.attributePointers[attributeIndex]
            if let slot = plan.attributeSlots[attributeIndex] {
                // The common case read in place (`Coercion.commonValue`), else by `field`.
                if reference.takesAnyValue[attributeIndex], let member = members.memberIndex(slot),
                    let common = coercion.commonValue(at: member, nodes: nodes, bytes: bytes, to: attribute)
                {
                    fields[attributeIndex] = Record.Field(value: .value(common), offset: fileOffset + Int(nodes[member].start))
                } else {
                    fields[attributeIndex] = field(
                        members.member(slot), attribute: attribute, index: attributeIndex, nulls: nulls,
                        context: &context)
                }
            } else {
                let reached = reach(
                    attribute.pointee.keyPath, slot: nil, keyPathSlot: plan.attributeKeyPathSlots[attributeIndex],
                    in: value, members: members, context: &context)
                fields[attributeIndex] = field(reached, attribute: attribute, index: attributeIndex, nulls: nulls, context: &context)
            }
            if attributeIndex == identityAttributes.last {
                // A key that is the identity, before it is read (else once every field is).
                if let keyed, identityAttributes.contains(keyed.attribute) {
                    fields[keyed.attribute] = keyedField(
                        keyed, attribute: reference.attributePointers[keyed.attribute], read: fields[keyed.attribute], nulls: nulls,
                        context: &context)
                }
                // An identity that names a to-one is known once its to-ones are read (below).
                if reference.ownedParts.isEmpty {
                    context.identity = self.identity(fields, identityAttributes, entity: reference, context: &context)
                    if context.identity == nil { context.droppedIdentity = true }
                }
            }
        }
        if let keyed, !identityAttributes.contains(keyed.attribute) {
            fields[keyed.attribute] = keyedField(
                keyed, attribute: reference.attributePointers[keyed.attribute], read: fields[keyed.attribute], nulls: nulls,
                context: &context)
        }
        var ownedLinks: [Link?] = []
        if !reference.ownedParts.isEmpty {
            ownedLinks = ownedIdentity(
                fields, of: value, entity: index, members: members, owner: owner, batch: &batch, context: &context)
        }
        var position: Int?
        if !context.droppedIdentity {
            position = batch.count - batchStart
            batch.append(Record(entity: index, identity: context.identity, fields: consume fields, links: [], origin: origin))
        }

        var links: [Link] = []
        reference.withRelationships { relationships in
            links.reserveCapacity(relationships.count)
            for relationshipIndex in relationships.indices {
                // A to-one of the identity was read for it (`ownedIdentity`).
                if !ownedLinks.isEmpty, let owned = ownedLinks[relationshipIndex] {
                    links.append(owned)
                    continue
                }
                let relationship = relationships.baseAddress! + relationshipIndex
                let reached = reach(relationship, index: relationshipIndex, plan: plan, in: value, members: members, context: &context)
                links.append(link(reached, relationship: relationship, batch: &batch, context: &context))
            }
        }
        if plan.keyPathsPending { plan.noteKeyPaths(in: members) }
        guard let position else { return nil }
        batch[batchStart + position].links = links
        return position
    }

    /// The value a relationship (its index `relationshipIndex` in the entity of `plan`) reads in
    /// a record: its key path, its name's member, or its id convention's.
    @inline(__always)
    func reach(
        _ relationship: UnsafePointer<Relationship>, index relationshipIndex: Int, plan: EntityPlan, in value: JSONValue,
        members: MemberLayout, context: inout RecordContext
    ) -> MappedValue {
        let slot = plan.relationshipSlots[relationshipIndex]
        let keyPath = relationship.pointee.keyPath
        let reached = reach(
            keyPath, slot: slot.name, keyPathSlot: plan.relationshipKeyPathSlots[relationshipIndex],
            in: value, members: members, context: &context)
        // (The layout resolved the later id convention, `notes_ids`, into this slot when the
        // record has only it: `EntityPlan.pluralConventionSlots`.)
        if case .absent = reached, keyPath == nil, let convention = slot.convention, let member = members.member(convention) {
            return .json(member)
        }
        return reached
    }

    /// What a record's members feed, with the names resolved once per key layout.
    private func layout(of value: JSONValue, entity: Int) -> MemberLayout {
        var members = MemberLayout(value: value, keys: keyArrays.popLast() ?? [])
        if !plans[entity].matchesCachedLayout(members) {
            let unmappedHere = plans[entity].resolveLayout(members)
            if !unmappedHere.isEmpty { unmapped[entity].formUnion(unmappedHere) }
        }
        members.slotMembers = plans[entity].cachedSlotMembers
        if plans[entity].restAttribute != nil { members.restMembers = plans[entity].cachedRestMembers }
        return members
    }

    /// The value an attribute or relationship reads: its key path (from its first key's member
    /// when the layout found it), or its name's member.
    private func reach(
        _ keyPath: KeyPath?, slot: Int?, keyPathSlot: Int?, in value: JSONValue, members: MemberLayout, context: inout RecordContext
    ) -> MappedValue {
        if let keyPath {
            do {
                if let keyPathSlot { return try keyPath.evaluate(firstMember: members.member(keyPathSlot)) }
                if let star = keyPath.fileStar { return try file.text(star) }
                if keyPath.isRest { return members.restObject().map(MappedValue.json) ?? .absent }
                return try keyPath.evaluate(on: value)
            } catch {
                // About the key path, not an attribute: a missing identity is still reported.
                context.error(.shape, "'\(keyPath)': \(error.message)", at: error.value ?? value)
                return .absent
            }
        }
        guard let slot, let member = members.member(slot) else { return .absent }
        return .json(member)
    }

    // The field functions take the attribute's index too, for the messages they report about it
    // (`RecordContext.error(_:attribute:at:offset:)`).

    /// The field of an attribute read by name: its member, if the record has one.
    @inline(__always)
    func field(
        _ member: JSONValue?, attribute: UnsafePointer<Attribute>, index: Int, nulls: NullPolicy, context: inout RecordContext
    ) -> Record.Field {
        guard let member else { return Record.Field(value: .absent, offset: context.origin.offset) }
        let offset = member.fileOffset
        if member.isNull || attribute.pointee.emptyAsNull && member.isEmptyString {
            return nullField(attribute: attribute, index: index, nulls: nulls, at: member, offset: offset, context: &context)
        }
        return coerced(
            { () throws(CoercionFailure) in try coercion.coerceField(member, to: attribute) }, attribute: attribute, index: index,
            at: member, offset: offset, context: &context)
    }

    /// The field of what an attribute's key path reached.
    private func field(
        _ reached: MappedValue, attribute: UnsafePointer<Attribute>, index: Int, nulls: NullPolicy, context: inout RecordContext
    ) -> Record.Field {
        if case let .json(member) = reached { return field(member, attribute: attribute, index: index, nulls: nulls, context: &context) }
        let offset = context.origin.offset
        if case .absent = reached { return Record.Field(value: .absent, offset: offset) }
        if reached.isNull { return nullField(attribute: attribute, index: index, nulls: nulls, at: nil, offset: offset, context: &context) }
        if case let .fileText(text) = reached, attribute.pointee.emptyAsNull, text.isEmptyString {
            return nullField(attribute: attribute, index: index, nulls: nulls, at: nil, offset: offset, context: &context)
        }
        return coerced(
            { () throws(CoercionFailure) in try coercion.coerceField(reached, to: attribute) }, attribute: attribute, index: index,
            at: nil, offset: offset, context: &context)
    }

    /// A null's field (or an `emptyAsNull` attribute's `""`'s): absent under `nulls: absent`, an
    /// error when required, else `NULL`.
    private func nullField(
        attribute: UnsafePointer<Attribute>, index: Int, nulls: NullPolicy, at json: JSONValue?, offset: Int, context: inout RecordContext
    ) -> Record.Field {
        // A missing key, at its record: an absent field elsewhere is a value reported here
        // (docs/mapping.md, Attributes), which `required` does not report again.
        if nulls == .absent { return Record.Field(value: .absent, offset: context.origin.offset) }
        if attribute.pointee.isRequired {
            let null = json?.kind == .string ? "\"\" (null by 'emptyAsNull')" : "null"
            context.error(
                .required,
                "'\(attribute.pointee.name)' is \(null), but it is required\(attribute.pointee.requiredBy.map { " (\($0))" } ?? "")",
                attribute: index, at: json, offset: offset)
            return Record.Field(value: .absent, offset: offset)
        }
        return Record.Field(value: .value(.null), offset: offset)
    }

    /// The field of the value `coerce` makes, checked against the attribute's `values`; absent,
    /// with an error, when it fails or is not one of them.
    @inline(__always)
    func coerced(
        _ coerce: () throws(CoercionFailure) -> SQLValue, attribute: UnsafePointer<Attribute>, index: Int, at json: JSONValue?, offset: Int,
        context: inout RecordContext
    ) -> Record.Field {
        do {
            let value = try coerce()
            if let allowed = attribute.pointee.allowedValues, !allowed.contains(value) {
                let accepted = allowed.map(\.description).joined(separator: ", ")
                context.error(
                    .type, "'\(attribute.pointee.name)' is \(value), expected one of \(accepted)", attribute: index, at: json,
                    offset: offset)
                return Record.Field(value: .absent, offset: offset)
            }
            return Record.Field(value: .value(value), offset: offset)
        } catch {
            context.error(.type, "'\(attribute.pointee.name)' \(error.message)", attribute: index, at: json, offset: offset)
            return Record.Field(value: .absent, offset: offset)
        }
    }

    func identity(
        _ fields: [Record.Field], _ attributes: [Int], entity: EntityReference, context: inout RecordContext
    ) -> IdentityKey? {
        var values: [SQLValue] = []
        values.reserveCapacity(attributes.count)
        for attribute in attributes {
            guard case let .value(value) = fields[attribute].value, value != .null else {
                // A coercion error was already reported for the value; report only what is missing.
                if case .absent = fields[attribute].value, !context.reported(attribute: attribute) {
                    context.error(
                        .identity, "missing identity attribute '\(entity.attributes[attribute].name)'", attribute: attribute, at: nil,
                        offset: context.origin.offset)
                }
                return nil
            }
            values.append(value)
        }
        return IdentityKey(values)
    }
}
