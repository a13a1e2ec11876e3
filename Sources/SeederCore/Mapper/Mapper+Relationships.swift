/// Relationships (docs/mapping.md, Relationships): what a record's relationship reaches, as links
/// to embedded records or references by identity.
extension Mapper {
    func link(
        _ reached: MappedValue, relationship: UnsafePointer<Relationship>, batch: inout [Record], context: inout RecordContext
    ) -> Link {
        switch reached {
        case .absent: return .absent
        case .null: return .null
        case .number, .fileText:
            if relationship.pointee.selector != nil {
                return target(for: reached, relationship: relationship, batch: &batch, context: &context).map(Link.one) ?? .absent
            }
            return reference(reached, relationship: relationship, context: &context).map(Link.one) ?? .absent
        case let .list(items):
            guard relationship.pointee.isToMany else {
                context.error(
                    .shape, "'\(relationship.pointee.name)' is a to-one, but its key path reaches a list", at: nil,
                    offset: context.origin.offset)
                return .absent
            }
            return .many(items.compactMap { target(for: $0, relationship: relationship, batch: &batch, context: &context) })
        case let .json(value):
            if value.isNull || isNullId(value, relationship: relationship) { return .null }
            if relationship.pointee.isToMany {
                guard value.kind == .array else {
                    if value.kind == .object, let keyedBy = relationship.pointee.keyedBy {
                        return .many(keyedTargets(value, keyedBy: keyedBy, relationship: relationship, batch: &batch, context: &context))
                    }
                    context.error(
                        .shape, "'\(relationship.pointee.name)' is a to-many; expected an array, found \(describeKind(value.kind))",
                        at: value)
                    return .absent
                }
                var targets: [RecordReference] = []
                targets.reserveCapacity(value.count)
                for element in value.elements where !element.isNull && !isNullId(element, relationship: relationship) {
                    if let target = target(for: .json(element), relationship: relationship, batch: &batch, context: &context) {
                        targets.append(target)
                    }
                }
                return .many(targets)
            }
            return target(for: reached, relationship: relationship, batch: &batch, context: &context).map(Link.one) ?? .absent
        }
    }

    /// One target: an embedded record (mapped now) or an identity reference.
    func target(
        for item: MappedValue, relationship: UnsafePointer<Relationship>, batch: inout [Record], context: inout RecordContext
    ) -> RecordReference? {
        if let selector = relationship.pointee.selector {
            return target(for: item, chosenBy: selector, relationship: relationship, batch: &batch, context: &context)
        }
        guard case let .json(value) = item, value.kind == .object, !isIdentityStub(value, target: relationship.pointee.target) else {
            if item.isNull { return nil }
            if case .absent = item { return nil }
            if let json = item.jsonValue, isNullId(json, relationship: relationship) { return nil }
            return reference(item, relationship: relationship, context: &context)
        }
        let origin = Record.Origin(file: context.origin.file, offset: value.fileOffset)
        return map(
            value, entity: relationship.pointee.target, origin: origin,
            owner: ownerKey(for: relationship, target: relationship.pointee.target, context: context),
            diagnostics: context.diagnostics, into: &batch
        ).map(RecordReference.embedded)
    }

    /// An identity reference from a scalar, an array in identity order, or an object holding
    /// only the target's identity keys.
    func reference(
        _ item: MappedValue, relationship: UnsafePointer<Relationship>, target targetIndex: Int? = nil, context: inout RecordContext
    ) -> RecordReference? {
        // Through the entity's reference: a copy of the `Entity` would retain and release each
        // of its strings and arrays, for every reference.
        let targetIndex = targetIndex ?? relationship.pointee.target
        let target = entities[targetIndex]
        // One attribute per column of the target's key (docs/mapping.md, Merging (Identity)).
        let identity = keyAttributes[targetIndex]
        let json = item.jsonValue
        let offset = item.fileOffset ?? context.origin.offset
        guard !identity.isEmpty else {
            let name = target.entity.name
            context.error(
                .shape, "'\(relationship.pointee.name)' refers to \(name) by id, but \(name) has 'identity: none': it can only be embedded",
                at: json, offset: offset)
            return nil
        }
        // The value of one identity attribute, or nil after its error. A scalar is the
        // relationship's text, read with its `match`; a member of an object holding the target's
        // identity keys is the target's, read with that attribute's (docs/mapping.md, Values
        // inside text).
        func keyValue(_ part: MappedValue, _ attribute: UnsafePointer<Attribute>, _ context: inout RecordContext) -> SQLValue? {
            let pattern = json?.kind == .object ? attribute.pointee.match : relationship.pointee.match
            do throws(CoercionFailure) {
                let value: SQLValue
                if let pattern {
                    value = try coercion.coerce(part, matching: pattern, to: attribute)
                } else {
                    value = try coercion.coerce(part, to: attribute)
                }
                guard value != .null else { throw CoercionFailure(message: "is null") }
                return value
            } catch {
                context.error(
                    .type, "'\(relationship.pointee.name)' \(error.message) (an id of \(target.entity.name))",
                    at: part.jsonValue ?? json, offset: offset)
                return nil
            }
        }
        if identity.count == 1, json?.kind != .array, json?.kind != .object {
            // One id, as most references are: no arrays of parts.
            return keyValue(item, identity[0], &context).map { .identity(IdentityKey([$0]), offset: offset) }
        }
        var parts: [MappedValue]
        if let json, json.kind == .array, identity.count > 1 {
            parts = json.elements.map { .json($0) }
        } else if let json, json.kind == .object {
            parts = identityKeys[targetIndex].map { key in
                let member = json.members.first { Naming.lookupKey($0.key.string ?? "") == key }
                return member.map { .json($0.value) } ?? .absent
            }
            if !target.ownedParts.isEmpty { parts = ownedKeyParts(parts, of: target) }
        } else {
            parts = [item]
        }
        guard parts.count == identity.count else {
            // An owned key's columns are named as its table names them (`order_id, position`).
            let names = (target.ownedParts.isEmpty ? identity.map(\.pointee.name) : target.entity.primaryKeyColumns)
                .joined(separator: ", ")
            let expected = identity.count == 1 ? "an id" : "(\(names))"
            let found = json.map(describe) ?? item.fileText.map(describe) ?? "a list"
            context.error(
                .shape, "'\(relationship.pointee.name)' is \(found), expected \(expected) of \(target.entity.name)",
                at: json, offset: offset)
            return nil
        }
        var values: [SQLValue] = []
        for (part, attribute) in zip(parts, identity) {
            guard let value = keyValue(part, attribute, &context) else { return nil }
            values.append(value)
        }
        return .identity(IdentityKey(values), offset: offset)
    }

    /// The values of an object naming a record whose identity names a to-one, one per column of
    /// its key: a to-one's value is its target's id, or an array of the parts of a composite one.
    private func ownedKeyParts(_ parts: [MappedValue], of target: EntityReference) -> [MappedValue] {
        var flattened: [MappedValue] = []
        for (part, value) in zip(target.ownedParts, parts) {
            if let relationship = part.relationship, keyAttributes[target.entity.relationships[relationship].target].count > 1,
                let json = value.jsonValue, json.kind == .array
            {
                flattened += json.elements.map { .json($0) }
            } else {
                flattened.append(value)
            }
        }
        return flattened
    }

    /// `true` for an object whose only members are the target's identity keys: `{"id": 5}`
    /// refers to a record rather than making one (so a dangling one is caught), unless the target
    /// declares nothing but its identity (`stubKeys`).
    func isIdentityStub(_ value: JSONValue, target: Int, besides selectorKey: String? = nil) -> Bool {
        var keys = stubKeys[target]
        guard !keys.isEmpty else { return false }
        // A reference through a selector also holds the key that picks the entity.
        if let selectorKey, value.members.contains(where: { $0.key.stringEquals(selectorKey) }) {
            keys.append(Naming.lookupKey(selectorKey))
        }
        // Counted first: an embedded record has more members than an identity, and naming its
        // keys (`lookupKey`) makes a `String` each.
        var count = 0
        for _ in value.members {
            count += 1
            guard count <= keys.count else { return false }
        }
        guard count == keys.count else { return false }
        return value.members.allSatisfy { keys.contains(Naming.lookupKey($0.key.string ?? "")) }
    }
}
