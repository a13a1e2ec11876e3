#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How one entity's records are read by name (docs/mapping.md, Names and keys): which JSON key
/// feeds which attribute or relationship, resolved once per key layout and cached, since
/// consecutive records of a dump almost always have the same keys in the same order.
///
/// A class: the mapper asks it about every record, and reading a struct of dictionaries and sets
/// out of the mapper's array copied it each time (a twentieth of mapping a small record).
final class EntityPlan {
    // The slots are set by `init` and read for every attribute of every record, by the one
    // mapper (one thread) that owns the plan: no run-time exclusivity checks.

    /// Per attribute: its slot when it reads by name; `nil` when it has a key path.
    @exclusivity(unchecked) private(set) var attributeSlots: [Int?] = []
    /// Per relationship: its name's slot and its id convention's slot (`user_id`, `product_ids`).
    @exclusivity(unchecked) private(set) var relationshipSlots: [(name: Int?, convention: Int?)] = []
    /// Per relationship: for a to-many whose singular is not its name, the slot of the id
    /// convention read when the record has neither the name nor the singular's (`notes_ids` after
    /// `note_ids`). A layout resolves it into the convention's slot (`resolveLayout`), so the
    /// mapper reads one convention per relationship whichever the record has.
    private(set) var pluralConventionSlots: [Int?] = []
    /// Per attribute and per relationship with a key path: the slot of the key path's first key,
    /// matched exactly (a key path names members as they are spelled), so that evaluating it
    /// starts from the member instead of searching the record for it.
    @exclusivity(unchecked) private(set) var attributeKeyPathSlots: [Int?] = []
    @exclusivity(unchecked) private(set) var relationshipKeyPathSlots: [Int?] = []
    private var slotCount = 0
    private var exact: [String: Int] = [:]
    private var keyPathFirstKeys = SlotsByKey()
    private var loose = SlotsByKey()
    private var conventionSlots: Set<Int> = []
    /// First keys of key paths: such keys count as mapped.
    private var claimed: Set<String> = []
    /// The keys of the entity's `ignore:`, each with its index there.
    private var ignored: [String: Int] = [:]

    // What the records had, for the warnings after the load (docs/mapping.md, Unmapped keys and
    // keys that match nothing): gathered per key layout, so a record of a layout seen before
    // adds nothing but its count.

    /// Per slot: `true` once a layout had a member for it (whatever its value, `null` included).
    private(set) var foundSlots: [Bool] = []
    /// Per key of `ignore:`: `true` once a layout had it.
    private(set) var ignoredKeysSeen: [Bool] = []
    /// Every key a layout had, gathered only for an entity with `ignore:`: an ignored key that
    /// occurs nowhere is a likely typo only when one of these is near it.
    private(set) var seenKeys: Set<String> = []
    /// Per attribute and per relationship: `true` while it has a key path that a layout cannot
    /// settle (keys after the first, or an operator's) and no record has had all its keys.
    @exclusivity(unchecked) private(set) var attributeKeyPathsPending: [Bool] = []
    @exclusivity(unchecked) private(set) var relationshipKeyPathsPending: [Bool] = []
    /// `true` while any of them is: the mapper then asks `noteKeyPaths` about each record. Once
    /// every key path is found (or when there is none) a record costs one test.
    @exclusivity(unchecked) private(set) var keyPathsPending = false
    /// Per attribute and per relationship: its key path's lists of keys past the first
    /// (`keyListsAfterFirst`), each to be found in one record; empty when the first key's member
    /// in a layout settles whether the path is found.
    private var attributeKeysAfterFirst: [[[String]]] = []
    private var relationshipKeysAfterFirst: [[[String]]] = []
    /// Per attribute: its `@where`s (`KeyPath.filterChecks`), and `true` while no record had an
    /// element each keeps, once its keys were found.
    private var attributeFilterChecks: [[(keys: [String], filter: KeyPathFilter)]] = []
    @exclusivity(unchecked) private(set) var attributeFiltersPending: [Bool] = []
    /// The records mapped (objects), embedded ones included.
    @exclusivity(unchecked) var recordCount = 0
    /// Of them, the bare ids (`Mapper.identityRecord`): each had its identity, without a key.
    @exclusivity(unchecked) var bareIdCount = 0

    // The cached layout, read for every record by the one mapper (one thread) that owns the
    // plan: no run-time exclusivity checks.
    @exclusivity(unchecked) private var cachedKeyBytes: [UInt8] = []
    @exclusivity(unchecked) private var cachedKeyEnds: [Int] = []
    @exclusivity(unchecked) private(set) var cachedSlotMembers: [Int] = []
    /// The attribute that reads `@rest`, if any, and the ordinals of the cached layout's members
    /// it gathers: those nothing else reads (docs/mapping.md, Keys nothing else reads).
    let restAttribute: Int?
    @exclusivity(unchecked) private(set) var cachedRestMembers: [Int] = []
    @exclusivity(unchecked) private var hasCache = false

    /// `selectorKeys`: the keys selectors read in this entity's records (`selectorKeys(in:)`).
    init(entity: Entity, selectorKeys: Set<String>) {
        func addSlot(name: String?, lookup: String) -> Int {
            let slot = slotCount
            slotCount += 1
            if let name { exact[name] = slot }
            loose.add(slot, for: lookup)
            return slot
        }
        func addKeyPathSlot(_ keyPath: KeyPath) -> Int? {
            guard let first = keyPath.keys.first else { return nil }
            claimed.insert(first)
            let slot = slotCount
            slotCount += 1
            keyPathFirstKeys.add(slot, for: first)
            return slot
        }
        // Each array made to size: grown by appends, a big mapping's thousand plans kept a
        // third of their room unused (bench/README.md, Big mappings).
        let (attributes, relationships) = (entity.attributes.count, entity.relationships.count)
        attributeSlots.reserveCapacity(attributes)
        attributeKeyPathSlots.reserveCapacity(attributes)
        relationshipSlots.reserveCapacity(relationships)
        relationshipKeyPathSlots.reserveCapacity(relationships)
        pluralConventionSlots.reserveCapacity(relationships)
        restAttribute = entity.attributes.firstIndex { $0.keyPath?.isRest == true }
        attributeKeysAfterFirst = entity.attributes.map { $0.keyPath?.keyListsAfterFirst ?? [] }
        relationshipKeysAfterFirst = entity.relationships.map { $0.keyPath?.keyListsAfterFirst ?? [] }
        attributeKeyPathsPending = attributeKeysAfterFirst.map { !$0.isEmpty }
        relationshipKeyPathsPending = relationshipKeysAfterFirst.map { !$0.isEmpty }
        attributeFilterChecks = entity.attributes.map { $0.keyPath?.filterChecks ?? [] }
        attributeFiltersPending = attributeFilterChecks.map { !$0.isEmpty }
        keyPathsPending =
            attributeKeyPathsPending.contains(true) || relationshipKeyPathsPending.contains(true) || attributeFiltersPending.contains(true)
        for (index, ignoredKey) in entity.ignoredKeys.enumerated() { ignored[ignoredKey.key] = index }
        ignoredKeysSeen = entity.ignoredKeys.map { _ in false }
        for attribute in entity.attributes {
            if let keyPath = attribute.keyPath {
                attributeSlots.append(nil)
                attributeKeyPathSlots.append(addKeyPathSlot(keyPath))
            } else {
                attributeSlots.append(addSlot(name: attribute.name, lookup: Naming.lookupKey(attribute.name)))
                attributeKeyPathSlots.append(nil)
            }
        }
        for relationship in entity.relationships {
            if let keyPath = relationship.keyPath {
                relationshipSlots.append((nil, nil))
                pluralConventionSlots.append(nil)
                relationshipKeyPathSlots.append(addKeyPathSlot(keyPath))
                continue
            }
            relationshipKeyPathSlots.append(nil)
            let name = addSlot(name: relationship.name, lookup: Naming.lookupKey(relationship.name))
            let stem = relationship.isToMany ? Naming.singular(relationship.name) + "ids" : relationship.name + "id"
            let convention = addSlot(name: nil, lookup: Naming.lookupKey(stem))
            conventionSlots.insert(convention)
            relationshipSlots.append((name, convention))
            let plural = Naming.lookupKey(relationship.name + "ids")
            if relationship.isToMany, plural != Naming.lookupKey(stem) {
                let slot = addSlot(name: nil, lookup: plural)
                conventionSlots.insert(slot)
                pluralConventionSlots.append(slot)
            } else {
                pluralConventionSlots.append(nil)
            }
        }
        foundSlots = [Bool](repeating: false, count: slotCount)
        claimed.formUnion(selectorKeys)
    }

    /// Per entity, the keys selectors read in its records, which count as mapped (docs/mapping.md,
    /// Polymorphism): in the records of each entity a selector can choose, and, for a bare id,
    /// in the record that holds a relationship to a selector. One pass over every relationship:
    /// asking it of each entity in turn was quadratic in a big mapping (bench/README.md).
    static func selectorKeys(in mapping: Mapping) -> [Set<String>] {
        var keys = [Set<String>](repeating: [], count: mapping.entities.count)
        func add(_ selector: EntitySelector, to entities: [Int]) {
            guard let key = selector.by.keys.first else { return }
            for entity in entities { keys[entity].insert(key) }
        }
        for (owner, entity) in mapping.entities.enumerated() {
            for selector in entity.relationships.lazy.compactMap(\.selector) { add(selector, to: [owner] + selector.entities) }
        }
        for selector in (mapping.sources ?? []).lazy.compactMap(\.selector) { add(selector, to: selector.entities) }
        return keys
    }

    /// `true` when the record's keys are byte for byte those of the cached layout.
    func matchesCachedLayout(_ layout: MemberLayout) -> Bool {
        guard hasCache, layout.keys.count == cachedKeyEnds.count else { return false }
        let document = layout.value.document
        let ends = cachedKeyEnds
        // Straight over the tape and the text: a key is a string node, its text after the quote.
        return document.nodes.withUnsafeBufferPointer { nodes in
            document.bytes.withUnsafeBufferPointer { bytes in
                cachedKeyBytes.withUnsafeBufferPointer { cached in
                    var start = 0
                    for (ordinal, key) in layout.keys.enumerated() {
                        let node = nodes[key]
                        let count = Int(node.length)
                        let end = ends[ordinal]
                        guard count == end - start else { return false }
                        if count > 0, memcmp(bytes.baseAddress! + Int(node.start) + 1, cached.baseAddress! + start, count) != 0 {
                            return false
                        }
                        start = end
                    }
                    return true
                }
            }
        }
    }

    /// Resolves which member each slot reads (an exact name beats a match that ignores case and
    /// underscores; the first match wins among equals), caches it, and returns the keys nothing reads.
    func resolveLayout(_ layout: MemberLayout) -> Set<String> {
        var exactMatch = [Int](repeating: -1, count: slotCount)
        var looseMatch = [Int](repeating: -1, count: slotCount)
        var names: [String] = []
        cachedKeyBytes.removeAll(keepingCapacity: true)
        cachedKeyEnds.removeAll(keepingCapacity: true)
        for ordinal in layout.keys.indices {
            let key = JSONValue(document: layout.value.document, index: layout.keys[ordinal])
            let name = key.string ?? ""
            names.append(name)
            layout.withKeyBytes(ordinal) { cachedKeyBytes.append(contentsOf: $0) }
            cachedKeyEnds.append(cachedKeyBytes.count)
            if let slot = exact[name], exactMatch[slot] < 0 { exactMatch[slot] = ordinal }
            keyPathFirstKeys.forEach(name) { slot in if exactMatch[slot] < 0 { exactMatch[slot] = ordinal } }
            loose.forEach(Naming.lookupKey(name)) { slot in if looseMatch[slot] < 0 { looseMatch[slot] = ordinal } }
        }
        var members = (0..<slotCount).map { exactMatch[$0] >= 0 ? exactMatch[$0] : looseMatch[$0] }
        // The later id convention stands in for the first where only it is here.
        for (relationship, plural) in pluralConventionSlots.enumerated() {
            guard let plural, let convention = relationshipSlots[relationship].convention, members[convention] < 0 else { continue }
            members[convention] = members[plural]
        }
        cachedSlotMembers = members
        hasCache = true
        for slot in 0..<slotCount where cachedSlotMembers[slot] >= 0 { foundSlots[slot] = true }
        if !ignored.isEmpty {
            for name in names { if let index = ignored[name] { ignoredKeysSeen[index] = true } }
            seenKeys.formUnion(names)
        }
        var used = Set<Int>()
        for slot in 0..<slotCount where cachedSlotMembers[slot] >= 0 && !conventionSlots.contains(slot) {
            used.insert(cachedSlotMembers[slot])
        }
        for (name, convention) in relationshipSlots {
            if let name, let convention, cachedSlotMembers[name] < 0, cachedSlotMembers[convention] >= 0 {
                used.insert(cachedSlotMembers[convention])
            }
        }
        var unmapped = Set<String>()
        cachedRestMembers.removeAll(keepingCapacity: true)
        for (ordinal, name) in names.enumerated() where !used.contains(ordinal) && !claimed.contains(name) && ignored[name] == nil {
            unmapped.insert(name)
            cachedRestMembers.append(ordinal)
        }
        // `@rest` maps them all.
        return restAttribute == nil ? unmapped : []
    }

    // MARK: Keys found

    /// Notes which pending key paths (`keyPathsPending`) a record of layout `members` has every
    /// key of. Not inlined: the mapper calls it only while some key path is pending, once a
    /// record, and it stays out of the mapper's loops.
    @inline(never)
    func noteKeyPaths(in members: MemberLayout) {
        func finds(_ slot: Int?, _ keyLists: [[String]]) -> Bool {
            guard let slot, let member = members.member(slot) else { return false }
            return keyLists.allSatisfy { KeyPath.finds($0[...], in: member) }
        }
        for attribute in attributeKeyPathsPending.indices where attributeKeyPathsPending[attribute] {
            if finds(attributeKeyPathSlots[attribute], attributeKeysAfterFirst[attribute]) { attributeKeyPathsPending[attribute] = false }
        }
        for relationship in relationshipKeyPathsPending.indices where relationshipKeyPathsPending[relationship] {
            if finds(relationshipKeyPathSlots[relationship], relationshipKeysAfterFirst[relationship]) {
                relationshipKeyPathsPending[relationship] = false
            }
        }
        for attribute in attributeFiltersPending.indices where attributeFiltersPending[attribute] {
            guard let slot = attributeKeyPathSlots[attribute], let member = members.member(slot) else { continue }
            if attributeFilterChecks[attribute].allSatisfy({ KeyPath.keeps($0.keys[...], $0.filter, in: member) }) {
                attributeFiltersPending[attribute] = false
            }
        }
        keyPathsPending =
            attributeKeyPathsPending.contains(true) || relationshipKeyPathsPending.contains(true) || attributeFiltersPending.contains(true)
    }

    /// `true` once some record had the key an attribute reads (its name's, or every key of its
    /// key path), whatever the value, `null` included.
    func found(attribute: Int) -> Bool {
        if let slot = attributeSlots[attribute] { return foundSlots[slot] }
        guard attributeKeysAfterFirst[attribute].isEmpty else { return !attributeKeyPathsPending[attribute] }
        return attributeKeyPathSlots[attribute].map { foundSlots[$0] } ?? true
    }

    /// `true` once some record had the key a relationship reads: its name's or one of its id
    /// conventions' (`resolveLayout` found the later one in the first's slot), or every key of its
    /// key path.
    func found(relationship: Int) -> Bool {
        let (name, convention) = relationshipSlots[relationship]
        if let name { return foundSlots[name] || convention.map { foundSlots[$0] } ?? false }
        guard relationshipKeysAfterFirst[relationship].isEmpty else { return !relationshipKeyPathsPending[relationship] }
        return relationshipKeyPathSlots[relationship].map { foundSlots[$0] } ?? true
    }
}
