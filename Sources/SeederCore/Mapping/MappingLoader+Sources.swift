/// Sources: which dump files feed which entity (docs/mapping.md, Sources).
extension LoadContext {
    func sources(_ node: YAMLNode, entities: [Entity]) -> [Source] {
        guard let items = node.items else {
            error(.mappingInvalid, "'sources' must be a list of sources, found \(node.kindDescription)", at: node)
            return []
        }
        var sources: [Source] = []
        var pendingEach: [Int: (path: String, node: YAMLNode)] = [:]
        for item in items {
            guard let fields = fields(of: item, allowed: MappingLoader.Keys.source, in: "a source") else { continue }
            guard let pathNode = fields["path"] else {
                error(.mappingInvalid, "a source needs 'path' (a glob relative to the dumps directory)", at: item)
                continue
            }
            guard let entityNode = fields["entity"] else {
                error(.mappingInvalid, "a source needs 'entity' (the entity its records are)", at: item)
                continue
            }
            guard let path = string(pathNode.value, key: "path"), checkGlob(path, at: pathNode.value) else { continue }
            guard let choice = entityChoice(entityNode.value, key: "entity") else { continue }
            var selector: EntitySelector?
            let entity: Int
            switch choice {
            case let .entity(entityName, node):
                guard let index = entities.firstIndex(where: { $0.name == entityName }) else {
                    if entityNames.contains(entityName) { continue }  // declared, but with errors of its own
                    let suggestion = closestMatch(to: entityName, in: entities.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
                    error(.mappingUnknownName, "unknown entity '\(entityName)' in 'entity'\(suggestion)", at: node)
                    continue
                }
                entity = index
            case let .selector(draft):
                guard let resolved = resolve(draft, names: entities.map(\.name)) else { continue }
                selector = resolved
                entity = resolved.entities[0]
            }
            var keyPath: [String] = []
            if let node = fields["keyPath"] {
                guard let path = self.keyPath(node.value, key: "keyPath", allowOperators: false) else { continue }
                keyPath = path.keys
            }
            var keyedBy: Int?
            if let node = fields["keyedBy"] {
                // Every entity a selector can choose has the attribute; the index is the first's.
                guard let name = string(node.value, key: "keyedBy") else { continue }
                let indexes = (selector?.entities ?? [entity]).map { keyedAttribute(name, at: node.value, of: entities[$0]) }
                guard let first = indexes[0], !indexes.contains(nil) else { continue }
                keyedBy = first
            }
            var source = Source(path: path, entity: entity, keyPath: keyPath, location: item.location, keyedBy: keyedBy)
            source.selector = selector
            if let node = fields["fetch"] {
                guard let fetch = fetchSpec(node.value, path: path) else { continue }
                source.fetch = fetch.spec
                if let each = fetch.each { pendingEach[sources.count] = each }
            }
            sources.append(source)
        }
        resolveEach(&sources, pending: pendingEach)
        return sources
    }

    /// The attribute of `entity` that `keyedBy` names (its index), or `nil` after an error.
    func keyedAttribute(_ name: String, at node: YAMLNode, of entity: Entity) -> Int? {
        if let index = entity.attributes.firstIndex(where: { $0.name == name }) { return index }
        let suggestion = closestMatch(to: name, in: entity.attributes.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
        error(.mappingUnknownName, "unknown attribute '\(name)' in 'keyedBy' of entity '\(entity.name)'\(suggestion)", at: node)
        return nil
    }

    /// A glob must stay inside the dumps directory and name a format seeder reads.
    private func checkGlob(_ path: String, at node: YAMLNode) -> Bool {
        if path.isEmpty || path.hasPrefix("/") || path.hasPrefix("~") {
            error(.mappingInvalid, "source path '\(path)' must be relative to the dumps directory", at: node)
            return false
        }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            error(.mappingInvalid, "source path '\(path)' leaves the dumps directory ('..')", at: node)
            return false
        }
        let last = path.split(separator: "/").last.map(String.init) ?? path
        let isPattern = last.contains { "*?[".contains($0) }
        // A compression's suffix is seen through (docs/mapping.md, Compressed dumps): `*.gz`
        // may match `users.json.gz`, as `*` may match `users.json`.
        let stem = DumpCompression.of(file: last).stripped
        if Source.format(ofFile: last) == nil, !(isPattern && !stem.contains(".")), !stem.hasSuffix("*") {
            error(.mappingInvalid, "source path '\(path)' is not a dump seeder reads: \(Source.readableSuffixes)", at: node)
            return false
        }
        return true
    }
}
