/// Sources: which dump files feed which entity (docs/mapping.md, Sources).
extension LoadContext {
    func sources(_ node: YAMLNode, entities: [Entity]) -> [Source] {
        guard let items = node.items else {
            error(.mappingInvalid, "'sources' must be a list of sources, found \(node.kindDescription)", at: node)
            return []
        }
        var sources: [Source] = []
        let indexByName = Self.indexes(of: entities.lazy.map(\.name))
        var pendingEach: [Int: (path: String, node: YAMLNode)] = [:]
        for item in items {
            guard let fields = fields(of: item, allowed: MappingLoader.Keys.source, in: "a source") else { continue }
            guard let pathNode = fields["path"] else {
                error(.mappingInvalid, "a source needs 'path' (a glob relative to the dumps directory)", at: item)
                continue
            }
            guard let path = string(pathNode.value, key: "path"), checkGlob(path, at: pathNode.value) else { continue }
            var selector: EntitySelector?
            var entity: Int?
            if let entityNode = fields["entity"] {
                guard let choice = entityChoice(entityNode.value, key: "entity") else { continue }
                switch choice {
                case let .entity(entityName, node):
                    guard let index = indexByName[entityName] else {
                        if entityNames.contains(entityName) { continue }  // declared, but with errors of its own
                        let suggestion = Wording.didYouMean(entityName, among: entities.map(\.name))
                        error(.mappingUnknownName, "unknown entity '\(entityName)' in 'entity'\(suggestion)", at: node)
                        continue
                    }
                    entity = index
                case let .selector(draft):
                    guard let resolved = resolve(draft, names: entities.map(\.name)) else { continue }
                    selector = resolved
                    entity = resolved.entities[0]
                }
            } else if fields["fetch"] == nil {
                // Without an entity, only fetch reads a source: a list whose records lead to
                // others' (docs/mapping.md, Sources).
                error(
                    .mappingInvalid,
                    "a source needs 'entity' (the entity its records are), or 'fetch:' alone to be fetched only for another source's 'each'",
                    at: item)
                continue
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
                guard let entity else {
                    error(
                        .mappingInvalid, "'keyedBy' names an attribute of the source's entity, and this source has no 'entity'",
                        at: node.key)
                    continue
                }
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
        let suggestion = Wording.didYouMean(name, among: entity.attributes.map(\.name))
        error(.mappingUnknownName, "unknown attribute '\(name)' in 'keyedBy' of entity '\(entity.name)'\(suggestion)", at: node)
        return nil
    }

    /// A glob must stay inside the dumps directory and name a format seeder reads.
    private func checkGlob(_ path: String, at node: YAMLNode) -> Bool {
        if path.isEmpty || path.hasPrefix("/") || path.hasPrefix("~") {
            error(.mappingInvalid, "source path '\(path)' must be relative to the dumps directory", at: node)
            return false
        }
        if path.utf8.contains(0) {
            error(.mappingInvalid, "source path holds a NUL character, which no file name may hold", at: node)
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

/// `@file.N` against the sources' paths (docs/mapping.md, Key paths).
extension LoadContext {
    /// Reports each `@file.N` beyond the stars of a source path that can read the entity's
    /// records, at its `from:`: the paths of the sources that feed the entity, or when none does,
    /// of those that feed an entity whose records embed it (through relationships, at any depth).
    /// A mapping without `sources:` has no path to read a star of. (A record embedded in the file
    /// of another source than those is checked as it is mapped.)
    func checkFileStars(_ drafts: [EntityDraft], entities: [Entity], sources: [Source]?) {
        for (index, draft) in drafts.enumerated() {
            let uses =
                draft.attributes.compactMap { attribute in attribute.attribute.keyPath?.fileStar.map { ($0, attribute.fromNode) } }
                + draft.relationships.compactMap { relationship in relationship.keyPath?.fileStar.map { ($0, relationship.fromNode) } }
            guard !uses.isEmpty, index < entities.count else { continue }
            let reading = sources.map { fileStarSources(of: index, entities: entities, sources: $0) }
            for case let (star, node?) in uses {
                guard let (readers, embedded) = reading else {
                    error(
                        .mappingInvalid,
                        "'@file.\(star)' reads a '*' of a source's path, but this mapping has no 'sources:' (each dump feeds the entity it is named after)",
                        at: node)
                    continue
                }
                guard let source = readers.first(where: { SourceGlob($0.path).starCount < star }) else { continue }
                let count = SourceGlob(source.path).starCount
                let through = embedded ? " (\(draft.name) records are embedded in its records)" : ""
                error(
                    .mappingInvalid,
                    "'@file.\(star)' reads the \(ordinal(star)) '*' of the source path, but '\(source.path)' has \(count == 0 ? "none" : "\(count)")\(through)",
                    at: node)
            }
        }
    }

    /// The sources whose files hold records of `entity`: those that feed it, else those that feed
    /// an entity whose records may embed its own (`embedded`).
    private func fileStarSources(of entity: Int, entities: [Entity], sources: [Source]) -> (sources: [Source], embedded: Bool) {
        func feeds(_ source: Source, _ entities: Set<Int>) -> Bool {
            (source.selector?.entities ?? source.entity.map { [$0] } ?? []).contains { entities.contains($0) }
        }
        let direct = sources.filter { feeds($0, [entity]) }
        guard direct.isEmpty else { return (direct, false) }
        var embedding: Set<Int> = [entity]
        var pending = [entity]
        while let target = pending.popLast() {
            for (owner, candidate) in entities.enumerated() where !embedding.contains(owner) {
                guard candidate.relationships.contains(where: { $0.targets.contains(target) }) else { continue }
                embedding.insert(owner)
                pending.append(owner)
            }
        }
        return (sources.filter { feeds($0, embedding) }, true)
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, ..., `21st`.
func ordinal(_ number: Int) -> String {
    let suffix: String
    switch (number % 10, number % 100) {
    case (_, 11...13): suffix = "th"
    case (1, _): suffix = "st"
    case (2, _): suffix = "nd"
    case (3, _): suffix = "rd"
    default: suffix = "th"
    }
    return "\(number)\(suffix)"
}
