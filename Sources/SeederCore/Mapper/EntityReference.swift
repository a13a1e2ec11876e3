/// An entity, its attributes and their order behind references: the mapper reads them once
/// per record and per field, and a copy of an `Entity` or an `Attribute` retains and releases
/// every string and array in it.
final class EntityReference {
    let entity: Entity
    let attributes: [Attribute]
    /// Each of `attributes`, in memory this reference owns, for the mapper and `Coercion` to read
    /// in place, never copied.
    let attributePointers: [UnsafePointer<Attribute>]
    /// Per attribute: `true` when any value may take the in-place path as it is: no `values` to
    /// check, no `emptyAsNull` to turn `""` into `null`, no `match` to take a part of its text.
    let takesAnyValue: [Bool]
    let identityAttributes: [Int]
    /// What an identity that names a to-one names, in order (`Identity.owned`); empty for any
    /// other identity, whose key is its attributes alone.
    let ownedParts: [IdentityPart]
    /// Identity attributes first, then the others in order.
    let attributeOrder: [Int]

    init(_ entity: Entity) {
        self.entity = entity
        attributes = entity.attributes
        pinned = Pinned(entity.attributes)
        attributePointers = pinned.pointers
        takesAnyValue = entity.attributes.map { $0.allowedValues == nil && !$0.emptyAsNull && $0.match == nil }
        identityAttributes = entity.identityAttributes
        if case let .owned(parts) = entity.identity { ownedParts = parts } else { ownedParts = [] }
        attributeOrder = entity.identityAttributes + entity.attributes.indices.filter { !entity.identityAttributes.contains($0) }
    }

    /// The memory `attributePointers` point into.
    private let pinned: Pinned<Attribute>

    /// Calls `body` with the entity's relationships in place, for the mapper to read per record
    /// without copying one (a `Relationship` is a struct of strings). Not pinned like the
    /// attributes: a big mapping has tens of thousands of relationships (bench/README.md, Big
    /// mappings), and a copy of them all is megabytes.
    @inline(__always)
    func withRelationships<Result>(_ body: (UnsafeBufferPointer<Relationship>) throws -> Result) rethrows -> Result {
        try entity.relationships.withUnsafeBufferPointer(body)
    }
}

/// A copy of some elements in memory of its own, for as long as it lives, and a pointer to each.
private final class Pinned<Element> {
    let pointers: [UnsafePointer<Element>]
    private let storage: UnsafeMutableBufferPointer<Element>

    init(_ elements: [Element]) {
        let storage = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = storage.initialize(from: elements)
        pointers = storage.indices.map { UnsafePointer(storage.baseAddress! + $0) }
        self.storage = storage
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }
}
