/// Dynamic selectors, `{ by, cases, default }` where an entity is expected (docs/mapping.md,
/// Polymorphism): read from the YAML, then resolved against the entities' names.
struct SelectorDraft {
    var node: YAMLNode
    var by: KeyPath
    var cases: [(value: String, entity: String, node: YAMLNode)]
    var defaultEntity: (name: String, node: YAMLNode)?
}

/// Where an entity is expected: a name, or a selector.
enum EntityChoiceDraft {
    case entity(name: String, node: YAMLNode)
    case selector(SelectorDraft)
}

extension LoadContext {
    /// The value of `to:` or a source's `entity:`: an entity's name or a selector; `nil` after
    /// an error.
    func entityChoice(_ node: YAMLNode, key: String) -> EntityChoiceDraft? {
        guard node.pairs != nil else { return string(node, key: key).map { .entity(name: $0, node: node) } }
        guard let fields = fields(of: node, allowed: MappingLoader.Keys.selector, in: "the selector of '\(key)'") else { return nil }
        guard let byNode = fields["by"] else {
            error(.mappingInvalid, "a selector needs 'by' (the key whose value picks the entity)", at: node)
            return nil
        }
        guard let casesNode = fields["cases"] else {
            error(.mappingInvalid, "a selector needs 'cases' (each value of '\(byNode.value.scalar ?? "by")' and its entity)", at: node)
            return nil
        }
        guard let by = keyPath(byNode.value, key: "by", allowOperators: false) else { return nil }
        guard let pairs = casesNode.value.pairs else {
            error(.mappingInvalid, "'cases' must map values to entity names, found \(casesNode.value.kindDescription)", at: casesNode.value)
            return nil
        }
        if pairs.isEmpty { error(.mappingInvalid, "'cases' is empty; a selector names at least one case", at: casesNode.value) }
        var cases: [(value: String, entity: String, node: YAMLNode)] = []
        for (valueNode, entityNode) in pairs {
            guard let value = valueNode.scalar else {
                error(.mappingInvalid, "a case of 'cases' must be a value of '\(by)', found \(valueNode.kindDescription)", at: valueNode)
                continue
            }
            guard let entity = string(entityNode, key: "cases") else { continue }
            cases.append((value, entity, entityNode))
        }
        var defaultEntity: (name: String, node: YAMLNode)?
        if let node = fields["default"], let name = string(node.value, key: "default") { defaultEntity = (name, node.value) }
        return .selector(SelectorDraft(node: node, by: by, cases: cases, defaultEntity: defaultEntity))
    }

    /// The selector with its entities resolved; `nil` after an error (an unknown entity, with a
    /// suggestion).
    func resolve(_ draft: SelectorDraft, names: [String]) -> EntitySelector? {
        func index(_ name: String, at node: YAMLNode, key: String) -> Int? {
            if let index = names.firstIndex(of: name) { return index }
            if !entityNames.contains(name) {
                let suggestion = Wording.didYouMean(name, among: names)
                error(.mappingUnknownName, "unknown entity '\(name)' in '\(key)'\(suggestion)", at: node)
            }
            return nil
        }
        var cases: [EntitySelector.Case] = []
        var failed = false
        for (value, name, node) in draft.cases {
            guard let entity = index(name, at: node, key: "cases") else {
                failed = true
                continue
            }
            cases.append(EntitySelector.Case(value: value, entity: entity))
        }
        var defaultEntity: Int?
        if let (name, node) = draft.defaultEntity {
            defaultEntity = index(name, at: node, key: "default")
            if defaultEntity == nil { failed = true }
        }
        guard !failed, !cases.isEmpty else { return nil }
        return EntitySelector(by: draft.by, cases: cases, defaultEntity: defaultEntity)
    }

    /// A to-one or a many-to-many stores the chosen entity's identity beside its name, so every
    /// entity a selector can choose needs an identity (an error at the case that names one
    /// without), each of as many attributes.
    func checkStoredSelector(_ draft: SelectorDraft, of relationship: String, in entities: [Entity]) {
        var named = draft.cases.map { (what: "case '\($0.value)'", name: $0.entity, node: $0.node) }
        if let (name, node) = draft.defaultEntity { named.append(("the default", name, node)) }
        var sizes: [(name: String, count: Int)] = []
        for (what, name, node) in named {
            guard let entity = entities.first(where: { $0.name == name }) else { continue }
            guard entity.identity != .none else {
                error(
                    .mappingInvalid,
                    "\(what) of '\(relationship)' is \(name), which has 'identity: none'; the cases of a to-one or a many-to-many "
                        + "are stored as (type, id) and need an identity",
                    at: node)
                continue
            }
            if !sizes.contains(where: { $0.name == name }) { sizes.append((name, entity.primaryKeyColumns.count)) }
        }
        if Set(sizes.map(\.count)).count > 1 {
            let shapes = sizes.map { "\($0.name) (\($0.count))" }.joined(separator: ", ")
            error(
                .mappingInvalid,
                "'\(relationship)' stores one id column per identity attribute, but its selector's entities have identities of "
                    + "different sizes: \(shapes)",
                at: draft.node)
        }
    }
}
