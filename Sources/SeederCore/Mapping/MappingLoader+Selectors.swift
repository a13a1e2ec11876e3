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
            error("a selector needs 'by' (the key whose value picks the entity)", at: node)
            return nil
        }
        guard let casesNode = fields["cases"] else {
            error("a selector needs 'cases' (each value of '\(byNode.value.scalar ?? "by")' and its entity)", at: node)
            return nil
        }
        guard let by = keyPath(byNode.value, key: "by", allowOperators: false) else { return nil }
        guard let pairs = casesNode.value.pairs else {
            error("'cases' must map values to entity names, found \(casesNode.value.kindDescription)", at: casesNode.value)
            return nil
        }
        if pairs.isEmpty { error("'cases' is empty; a selector names at least one case", at: casesNode.value) }
        var cases: [(value: String, entity: String, node: YAMLNode)] = []
        for (valueNode, entityNode) in pairs {
            guard let value = valueNode.scalar else {
                error("a case of 'cases' must be a value of '\(by)', found \(valueNode.kindDescription)", at: valueNode)
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
    func resolve(_ draft: SelectorDraft, key: String, names: [String]) -> EntitySelector? {
        func index(_ name: String, at node: YAMLNode) -> Int? {
            if let index = names.firstIndex(of: name) { return index }
            if !entityNames.contains(name) {
                let suggestion = closestMatch(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
                error("unknown entity '\(name)' in '\(key)'\(suggestion)", at: node)
            }
            return nil
        }
        var cases: [EntitySelector.Case] = []
        var failed = false
        for (value, name, node) in draft.cases {
            guard let entity = index(name, at: node) else {
                failed = true
                continue
            }
            cases.append(EntitySelector.Case(value: value, entity: entity))
        }
        var defaultEntity: Int?
        if let (name, node) = draft.defaultEntity {
            defaultEntity = index(name, at: node)
            if defaultEntity == nil { failed = true }
        }
        guard !failed, !cases.isEmpty else { return nil }
        return EntitySelector(by: draft.by, cases: cases, defaultEntity: defaultEntity)
    }

    /// A to-one or a many-to-many stores the chosen entity's identity beside its name, so every
    /// entity a selector can choose needs an identity, each of as many attributes.
    func checkStoredSelector(_ selector: EntitySelector, of relationship: String, in entities: [Entity], at node: YAMLNode) -> Bool {
        let chosen = selector.entities.map { entities[$0] }
        if let keyless = chosen.first(where: { $0.identity == .none }) {
            error(
                "'\(relationship)' stores the id of the entity its selector chooses, but \(keyless.name) has 'identity: none'; "
                    + "give it an identity, or make the relationship a one-to-many with 'inverse'",
                at: node)
            return false
        }
        let counts = Set(chosen.map(\.identityAttributes.count))
        guard counts.count == 1 else {
            let shapes = chosen.map { "\($0.name) (\($0.identityAttributes.count))" }.joined(separator: ", ")
            error(
                "'\(relationship)' stores one id column per identity attribute, but its selector's entities have identities of "
                    + "different sizes: \(shapes)",
                at: node)
            return false
        }
        return true
    }
}
