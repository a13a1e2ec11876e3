/// Identities that name a to-one (docs/mapping.md, Merging (Identity)): a record's key is its
/// identity's attributes and, for each to-one, the key that to-one stores, read from the record
/// (a reference, or an embedded object) or taken from the record it is nested under.
extension Mapper {
    /// The key of the record a record is nested under, through a one-to-many whose `inverse`
    /// (its index on the nested record's entity) is a to-one of the nested record's identity.
    struct OwnerKey {
        var inverse: Int
        var key: IdentityKey
    }

    /// The owner key a record of `target` (the relationship's, or the entity its selector chose)
    /// nested through `relationship` takes: the record being mapped, when the relationship's
    /// inverse on that entity is a to-one of its identity; `nil` otherwise.
    @inline(__always)
    func ownerKey(for relationship: UnsafePointer<Relationship>, target: Int, context: RecordContext) -> OwnerKey? {
        guard !entities[target].ownedParts.isEmpty, let inverse = relationship.pointee.inverse(on: target), let key = context.identity
        else { return nil }
        return OwnerKey(inverse: inverse, key: key)
    }

    /// Sets `context.identity` of a record whose identity names a to-one, from its `fields` and
    /// its identity's to-ones (or marks it dropped, after an error at the record); returns per
    /// relationship the link read for the identity (`nil` for the others, read later).
    func ownedIdentity(
        _ fields: [Record.Field], of value: JSONValue, entity index: Int, members: MemberLayout, owner: OwnerKey?,
        batch: inout [Record], context: inout RecordContext
    ) -> [Link?] {
        let reference = entities[index]
        var links = [Link?](repeating: nil, count: reference.entity.relationships.count)
        var values: [SQLValue] = []
        var complete = true
        reference.withRelationships { relationships in
            for part in reference.ownedParts {
                guard case let .relationship(relationshipIndex) = part else {
                    let attribute = part.attribute!
                    guard case let .value(value) = fields[attribute].value, value != .null else {
                        // A coercion error was already reported for the value; report only what is missing.
                        if case .absent = fields[attribute].value, !context.reported(attribute: attribute) {
                            context.error(
                                .identity, "missing identity attribute '\(reference.attributes[attribute].name)'", attribute: attribute,
                                at: nil, offset: context.origin.offset)
                        }
                        complete = false
                        continue
                    }
                    values.append(value)
                    continue
                }
                let relationship = relationships.baseAddress! + relationshipIndex
                let name = relationship.pointee.name
                let reached = reach(
                    relationship, index: relationshipIndex, plan: plans[index], in: value, members: members, context: &context)
                let nested = owner.flatMap { $0.inverse == relationshipIndex ? $0.key : nil }
                if case .absent = reached, let nested {
                    // The owner's key, which the row takes as it goes in (`RowEncoder.parents`).
                    links[relationshipIndex] = .absent
                    values.append(contentsOf: nested.values)
                    continue
                }
                let link = self.link(reached, relationship: relationship, batch: &batch, context: &context)
                links[relationshipIndex] = link
                var key: IdentityKey?
                switch link {
                case let .one(.identity(identity, _)): key = identity
                case let .one(.embedded(target)): key = batch[batchStart + target].identity
                case .null:
                    context.error(.identity, "identity relationship '\(name)' is null", at: nil, offset: context.origin.offset)
                default:
                    // Anything else read was reported where it was read.
                    if case .absent = reached {
                        let owner = entities[relationship.pointee.target].entity.name
                        context.error(
                            .identity,
                            "identity relationship '\(name)' is not set: give its key in the record, or nest the record under \(owner) "
                                + "through a to-many with 'inverse: \(name)'", at: nil, offset: context.origin.offset)
                    }
                }
                if let key, let nested, key != nested {
                    let owner = entities[relationship.pointee.target].entity.name
                    context.error(
                        .identity, "identity relationship '\(name)' is \(owner) \(key), but the record is nested under \(owner) \(nested)",
                        at: nil, offset: context.origin.offset)
                    complete = false
                } else if let key {
                    values.append(contentsOf: key.values)
                } else {
                    complete = false
                }
            }
        }
        if complete { context.identity = IdentityKey(values) } else { context.droppedIdentity = true }
        return links
    }
}
