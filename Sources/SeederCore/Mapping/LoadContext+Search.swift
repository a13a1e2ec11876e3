/// `search:` of an entity (docs/mapping.md, Search): its fields, engine, tokenizer and sync,
/// each checked at its node, and against the mapping's `compatibility` floor.
extension LoadContext {
    func search(_ entry: (key: YAMLNode, value: YAMLNode), of draft: EntityDraft, floor: SQLiteVersion) -> SearchSpec? {
        let entity = draft.name
        guard let fields = fields(of: entry.value, allowed: MappingLoader.Keys.search, in: "'search' of entity '\(entity)'") else {
            return nil
        }
        var valid = true
        var engine = SearchEngine.fts5
        if let node = fields["engine"] {
            if let chosen = choice(node.value, key: "engine", SearchEngine.self, all: SearchEngine.allCases) {
                engine = chosen
            } else {
                valid = false
            }
        }
        if valid, engine.introduced > floor {
            let at = fields["engine"]?.value ?? entry.key
            error(
                .mappingInvalid, "\(engine.rawValue) needs SQLite \(engine.introduced) or later, but 'compatibility' asks for \(floor)",
                at: at)
            valid = false
        }
        let indexes = fields["fields"].map { searchFields($0.value, of: draft, engine: engine) } ?? nil
        if fields["fields"] == nil {
            error(.mappingInvalid, "'search' of entity '\(entity)' needs 'fields' (the text attributes to index)", at: entry.key)
        }
        var tokenizer: SearchTokenizer?
        if let node = fields["tokenizer"], let text = string(node.value, key: "tokenizer") {
            switch SearchTokenizer.parse(text, engine: engine) {
            case let .success(parsed):
                tokenizer = parsed
                for need in parsed.requirements(engine: engine) where need.version > floor {
                    error(
                        .mappingInvalid, "\(need.feature) needs SQLite \(need.version) or later, but 'compatibility' asks for \(floor)",
                        at: node.value)
                    valid = false
                }
            case let .failure(problem):
                error(.mappingInvalid, problem.message, at: node.value)
                valid = false
            }
        }
        var triggers = false
        if let node = fields["sync"] {
            if node.value.scalar == "triggers" {
                triggers = true
            } else {
                let found = node.value.scalar.map { "'\($0)'" } ?? node.value.kindDescription
                error(.mappingUnknownName, "unknown value \(found) for 'sync'; expected triggers", at: node.value)
                valid = false
            }
        }
        guard valid, let indexes else { return nil }
        return SearchSpec(fields: indexes, engine: engine, tokenizer: tokenizer, triggers: triggers, location: entry.key.location)
    }

    /// The attributes `fields:` names, each a text attribute of the entity, once.
    private func searchFields(_ node: YAMLNode, of draft: EntityDraft, engine: SearchEngine) -> [Int]? {
        guard let items = node.items, !items.isEmpty else {
            let found = node.items == nil ? "found \(node.kindDescription)" : "found an empty list"
            error(.mappingInvalid, "'fields' of 'search' must be a list of the entity's text attributes, \(found)", at: node)
            return nil
        }
        let names = draft.attributes.map(\.attribute.name)
        var indexes: [Int] = []
        var valid = true
        for item in items {
            guard let name = string(item, key: "fields") else {
                valid = false
                continue
            }
            guard let index = names.firstIndex(of: name) else {
                valid = false
                if draft.relationships.contains(where: { $0.name == name }) {
                    error(
                        .mappingInvalid, "'\(name)' is a relationship of entity '\(draft.name)'; 'search' indexes its text attributes",
                        at: item)
                } else if !draft.declaredAttributeNames.contains(name) {
                    let suggestion = Wording.didYouMean(name, among: names)
                    error(.mappingUnknownName, "unknown attribute '\(name)' in 'fields' of 'search'\(suggestion)", at: item)
                }
                continue
            }
            let attribute = draft.attributes[index].attribute
            guard SearchSpec.textTypes.contains(attribute.type) else {
                error(
                    .mappingInvalid,
                    "'\(name)' is \(attribute.type.rawValue); 'search' indexes text attributes "
                        + "(\(Wording.list(SearchSpec.textTypes.map(\.rawValue))))",
                    at: item)
                valid = false
                continue
            }
            if indexes.contains(index) {
                error(.mappingInvalid, "'\(name)' is listed twice in 'fields' of 'search'", at: item)
                valid = false
                continue
            }
            indexes.append(index)
        }
        return valid ? indexes : nil
    }

    /// Search tables, like the entity tables, must be free names; their columns must be free in
    /// the FTS module (which reserves a few, and the table's own name).
    func checkSearchNames(_ entities: [Entity], drafts: [EntityDraft], claim: (String, String, YAMLNode) -> Void) {
        for (index, entity) in entities.enumerated() {
            guard let search = entity.search, let node = drafts[index].searchNode else { continue }
            let table = SearchSpec.tableName(for: entity.table)
            claim(table, "the search table of entity '\(entity.name)'", node)
            // FTS makes its shadow tables beside it, and inspect and diff read those names as
            // the index's (docs/mapping.md, Search): no entity or join table may take one.
            for suffix in SearchEngine.shadowSuffixes {
                claim(table + "_" + suffix, "the search table of entity '\(entity.name)' (its FTS shadow table)", node)
            }
            for field in search.fields {
                let column = entity.attributes[field].column
                if (search.engine.reservedColumns + [table]).contains(column.lowercased()) {
                    error(
                        .mappingInvalid,
                        "search field '\(entity.attributes[field].name)' has column '\(column)', a name \(search.engine.rawValue) "
                            + "keeps for itself; give it another 'column'",
                        at: node)
                }
            }
        }
    }
}
