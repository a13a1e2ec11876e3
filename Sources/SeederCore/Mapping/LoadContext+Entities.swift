import Foundation

/// Document-wide settings an entity or attribute inherits.
struct EntityDefaults {
    var dates: DateStorage
    var timeZone: TimeZone
    var onConflict: ConflictPolicy
    var nulls: NullPolicy
    /// The default of every attribute's `emptyAsNull` (the document's, then the entity's).
    var emptyAsNull: Bool
    /// What references to a missing identity do, unless an entity or relationship says.
    var onMissing: MissingPolicy
    var naming: NamingStyle
    /// The oldest SQLite the seed must open in (`compatibility:`).
    var compatibility: SQLiteVersion
}

/// An entity as declared, before targets, inverses and names are resolved.
struct EntityDraft {
    var name: String
    var nameNode: YAMLNode
    var table: (name: String, node: YAMLNode)?
    var identityNode: YAMLNode?
    var attributes: [AttributeDraft] = []
    /// Every attribute name as written, including those with errors (to avoid a second error).
    var declaredAttributeNames: [String] = []
    var relationships: [RelationshipDraft] = []
    var onConflict: ConflictPolicy
    var nulls: NullPolicy
    var ignoredKeys: [IgnoredKey] = []
    var search: SearchSpec?
    /// The `search` key, where the search table's name is reported.
    var searchNode: YAMLNode?
}

/// An attribute as declared: the attribute with its name's node and its `column:` node.
struct AttributeDraft {
    var attribute: Attribute
    var nameNode: YAMLNode
    var column: (name: String, node: YAMLNode)?
    /// The `from:` value, where a problem with its key path is reported.
    var fromNode: YAMLNode?
}

/// A relationship as declared, before its target and inverse are resolved.
struct RelationshipDraft {
    var name: String
    var nameNode: YAMLNode
    var target: EntityChoiceDraft?
    /// The `to:` node.
    var targetNode: YAMLNode?
    var isToMany = false
    var keyPath: KeyPath?
    /// The `from:` value, where a problem with its key path is reported.
    var fromNode: YAMLNode?
    var inverse: (name: String, node: YAMLNode)?
    var isOrdered = false
    var isRequired = false
    /// Its own `onMissing`, else its entity's, else the document's.
    var onMissing: MissingPolicy
    var column: (name: String, node: YAMLNode)?
    /// A many-to-many's join table (`table:`), named as the app's schema names it.
    var table: (name: String, node: YAMLNode)?
    var keyedBy: (name: String, node: YAMLNode)?
    /// `match:`, compiled.
    var match: TextPattern?
}

extension LoadContext {
    mutating func entities(_ node: YAMLNode, defaults: EntityDefaults) -> [EntityDraft] {
        guard let pairs = node.pairs else {
            error(
                .mappingInvalid, "'entities' must be a mapping from entity names to their descriptions, found \(node.kindDescription)",
                at: node)
            return []
        }
        if pairs.isEmpty { error(.mappingInvalid, "'entities' is empty; a mapping declares at least one entity", at: node) }
        // Names first, so that relationships may point forward.
        entityNames = pairs.compactMap(\.key.scalar)
        var drafts: [EntityDraft] = []
        for (done, (nameNode, definition)) in pairs.enumerated() {
            progress("entities", done, pairs.count)
            guard let name = nameNode.scalar, identifier(name, what: "entity name", at: nameNode) else { continue }
            if let draft = entity(name: name, nameNode: nameNode, definition: definition, defaults: defaults) {
                drafts.append(draft)
            }
        }
        return drafts
    }

    private func entity(name: String, nameNode: YAMLNode, definition: YAMLNode, defaults: EntityDefaults) -> EntityDraft? {
        guard let fields = fields(of: definition, allowed: MappingLoader.Keys.entity, in: "entity '\(name)'") else { return nil }
        var defaults = defaults
        if let node = fields["emptyAsNull"] { defaults.emptyAsNull = boolean(node.value, key: "emptyAsNull") ?? defaults.emptyAsNull }
        var draft = EntityDraft(
            name: name, nameNode: nameNode, identityNode: fields["identity"]?.value,
            onConflict: fields["onConflict"].flatMap {
                choice($0.value, key: "onConflict", ConflictPolicy.self, all: ConflictPolicy.allCases)
            } ?? defaults.onConflict,
            nulls: fields["nulls"].flatMap { choice($0.value, key: "nulls", NullPolicy.self, all: NullPolicy.allCases) } ?? defaults.nulls)
        // The default of the entity's relationships.
        let onMissing =
            fields["onMissing"].flatMap { choice($0.value, key: "onMissing", MissingPolicy.self, all: MissingPolicy.allCases) }
            ?? defaults.onMissing
        if let table = fields["table"], let text = string(table.value, key: "table"),
            identifier(text, what: "table name", at: table.value)
        {
            draft.table = (text, table.value)
        }
        if let attributes = fields["attributes"] {
            if let pairs = attributes.value.pairs {
                draft.declaredAttributeNames = pairs.compactMap(\.key.scalar)
                for (attributeName, spec) in pairs {
                    if let attribute = attribute(attributeName, spec, entity: name, defaults: defaults) {
                        draft.attributes.append(attribute)
                    }
                }
                // Each member goes to one place: two gatherers would each hold every one.
                let rests = draft.attributes.filter { $0.attribute.keyPath?.isRest == true }
                if rests.count > 1, let second = rests.dropFirst().first {
                    error(
                        .mappingInvalid,
                        "entity '\(name)' reads '@rest' twice ('\(rests[0].attribute.name)' and '\(second.attribute.name)'); one attribute holds the members nothing else reads",
                        at: second.fromNode ?? second.nameNode)
                }
            } else {
                error(
                    .mappingInvalid,
                    "'attributes' of entity '\(name)' must be a mapping from names to types, found \(attributes.value.kindDescription)",
                    at: attributes.value)
            }
        }
        if let relationships = fields["relationships"] {
            if let pairs = relationships.value.pairs {
                for (relationshipName, spec) in pairs {
                    if let relationship = relationship(relationshipName, spec, entity: name, onMissing: onMissing) {
                        draft.relationships.append(relationship)
                    }
                }
            } else {
                error(
                    .mappingInvalid,
                    "'relationships' of entity '\(name)' must be a mapping, found \(relationships.value.kindDescription)",
                    at: relationships.value)
            }
        }
        if let ignore = fields["ignore"] { draft.ignoredKeys = ignoredKeys(ignore.value, of: draft) }
        if let search = fields["search"] {
            draft.searchNode = search.key
            draft.search = self.search(search, of: draft, floor: defaults.compatibility)
        }
        return draft
    }

    // MARK: Attributes

    private func attribute(_ nameNode: YAMLNode, _ spec: YAMLNode, entity: String, defaults: EntityDefaults) -> AttributeDraft? {
        guard let name = nameNode.scalar, identifier(name, what: "attribute name", at: nameNode) else { return nil }
        var attribute = Attribute(
            name: name, column: name, type: .string, keyPath: nil, isRequired: false, defaultValue: nil, allowedValues: nil,
            isUnique: false, isIndexed: false, dateFormat: .iso8601, timeZone: defaults.timeZone,
            dateStorage: defaults.dates, location: nameNode.location)
        attribute.emptyAsNull = defaults.emptyAsNull
        if spec.scalar != nil {
            guard let type = type(spec, attribute: name) else { return nil }
            attribute.type = type
            return AttributeDraft(attribute: attribute, nameNode: nameNode)
        }
        guard let fields = fields(of: spec, allowed: MappingLoader.Keys.attribute, in: "attribute '\(entity).\(name)'") else { return nil }
        guard let typeNode = fields["type"] else {
            error(
                .mappingInvalid, "attribute '\(entity).\(name)' needs a 'type' (\(Wording.list(AttributeType.allCases.map(\.rawValue))))",
                at: nameNode)
            return nil
        }
        guard let type = type(typeNode.value, attribute: name) else { return nil }
        attribute.type = type
        var draft = AttributeDraft(attribute: attribute, nameNode: nameNode)
        if let from = fields["from"] {
            draft.attribute.keyPath = keyPath(from.value, key: "from")
            draft.fromNode = from.value
            if draft.attribute.keyPath?.isRest == true, type != .json {
                // The members gathered are an object: only json keeps one whole.
                error(.mappingInvalid, "'@rest' gathers members into an object; '\(name)' must be 'type: json' to hold it", at: from.value)
                draft.attribute.keyPath = nil
            }
        }
        if let node = fields["required"] { draft.attribute.isRequired = boolean(node.value, key: "required") ?? false }
        if let node = fields["unique"] { draft.attribute.isUnique = boolean(node.value, key: "unique") ?? false }
        if let node = fields["index"] { draft.attribute.isIndexed = boolean(node.value, key: "index") ?? false }
        if let node = fields["emptyAsNull"] {
            draft.attribute.emptyAsNull = boolean(node.value, key: "emptyAsNull") ?? defaults.emptyAsNull
        }
        if let node = fields["column"], let column = string(node.value, key: "column"),
            identifier(column, what: "column name", at: node.value)
        {
            draft.column = (column, node.value)
        }
        if let node = fields["match"] {
            if type == .json {
                // A json attribute keeps a value whole; a part of its text is a string.
                error(.mappingInvalid, "'match' takes text out of a value; '\(name)' is json, which keeps values whole", at: node.key)
            } else {
                draft.attribute.match = textPattern(node.value)
            }
        }
        for key in ["format", "timeZone", "storage"] where type != .date {
            if let node = fields[key] {
                error(.mappingInvalid, "'\(key)' applies only to date attributes; '\(name)' is \(type.rawValue)", at: node.key)
            }
        }
        if type == .date {
            if let node = fields["format"] { draft.attribute.dateFormat = dateFormat(node.value) ?? .iso8601 }
            if let node = fields["timeZone"] { draft.attribute.timeZone = zone(node.value) ?? defaults.timeZone }
            if let node = fields["storage"] {
                draft.attribute.dateStorage =
                    choice(node.value, key: "storage", DateStorage.self, all: DateStorage.allCases) ?? defaults.dates
            }
        }
        // Coerced last: `default` and `values` follow the attribute's type, format and zone.
        if let node = fields["values"] {
            if let items = node.value.items, !items.isEmpty {
                let values = items.compactMap { coerce($0, to: draft.attribute, key: "values") }
                if values.count == items.count { draft.attribute.allowedValues = values }
            } else {
                error(.mappingInvalid, "'values' must be a non-empty list of accepted values", at: node.value)
            }
        }
        if let node = fields["default"], node.value.jsonText() == "null" {
            // The key may be absent (a release that lacks it): no `matched no key` warning, and
            // the column NULL (docs/mapping.md, Attributes).
            if draft.attribute.isRequired {
                error(
                    .mappingInvalid, "'default' cannot be null on a required attribute: a row without the key would break it",
                    at: node.value)
            } else {
                draft.attribute.defaultValue = .null
            }
        } else if let node = fields["default"], let value = coerce(node.value, to: draft.attribute, key: "default") {
            if let allowed = draft.attribute.allowedValues, !allowed.contains(value) {
                error(.mappingInvalid, "'default' \(value) is not one of 'values'", at: node.value)
            }
            draft.attribute.defaultValue = value
        }
        return draft
    }

    private func type(_ node: YAMLNode, attribute: String) -> AttributeType? {
        guard let text = node.scalar else {
            error(.mappingInvalid, "the type of '\(attribute)' must be a type name, found \(node.kindDescription)", at: node)
            return nil
        }
        if let type = AttributeType(rawValue: text) { return type }
        let suggestion = Wording.didYouMean(text, among: AttributeType.allCases.map(\.rawValue))
        error(
            .mappingUnknownName,
            "unknown type '\(text)' for '\(attribute)'\(suggestion); expected \(Wording.list(AttributeType.allCases.map(\.rawValue)))",
            at: node)
        return nil
    }

    private func dateFormat(_ node: YAMLNode) -> DateFormat? {
        guard let text = string(node, key: "format") else { return nil }
        switch text {
        case "iso8601": return .iso8601
        case "unix": return .unix
        case "unix_ms": return .unixMilliseconds
        case "unix_us": return .unixMicroseconds
        case "unix_ns": return .unixNanoseconds
        default:
            guard Self.isDatePattern(text) else {
                let suggestion = Wording.didYouMean(text, among: DateFormat.names)
                error(
                    .mappingUnknownName,
                    "unknown date format '\(text)'\(suggestion); "
                        + "expected \(DateFormat.names.joined(separator: ", ")) or a Unicode date pattern such as 'yyyy-MM-dd HH:mm:ss Z'",
                    at: node)
                return nil
            }
            return .pattern(text)
        }
    }

    /// `true` when every letter outside quotes is a Unicode date pattern symbol (UTS #35), so a
    /// typo such as `iso8061` or a word such as `soon` is not taken for a pattern.
    static func isDatePattern(_ text: String) -> Bool {
        let symbols = Set("GyYuUrQqMLlwWdDFgEecabBhHKkjJCmsSAzZOvVXx")
        var quoted = false
        var sawSymbol = false
        for character in text {
            if character == "'" {
                quoted.toggle()
            } else if !quoted, character.isASCII, character.isLetter {
                guard symbols.contains(character) else { return false }
                sawSymbol = true
            }
        }
        return sawSymbol && !quoted
    }

    /// A YAML value coerced as a dump value of the attribute would be.
    private func coerce(_ node: YAMLNode, to attribute: Attribute, key: String) -> SQLValue? {
        guard let text = node.jsonText(), let document = try? JSONDocument(parsing: text) else {
            error(.mappingInvalid, "'\(key)' holds a value JSON cannot write, found \(node.kindDescription)", at: node)
            return nil
        }
        do {
            let value = try Coercion().coerce(document.root, to: attribute)
            if value == .null {
                error(.mappingInvalid, "'\(key)' cannot be null", at: node)
                return nil
            }
            return value
        } catch {
            self.error(.mappingInvalid, "'\(key)' \(error.message)", at: node)
            return nil
        }
    }

    // MARK: Relationships

    private func relationship(_ nameNode: YAMLNode, _ spec: YAMLNode, entity: String, onMissing: MissingPolicy) -> RelationshipDraft? {
        guard let name = nameNode.scalar, identifier(name, what: "relationship name", at: nameNode) else { return nil }
        guard let fields = fields(of: spec, allowed: MappingLoader.Keys.relationship, in: "relationship '\(entity).\(name)'") else {
            return nil
        }
        var draft = RelationshipDraft(name: name, nameNode: nameNode, onMissing: onMissing)
        if let to = fields["to"] {
            draft.target = entityChoice(to.value, key: "to")
            draft.targetNode = to.value
        } else {
            error(.mappingInvalid, "relationship '\(entity).\(name)' needs 'to' (the target entity)", at: nameNode)
        }
        if let node = fields["many"] { draft.isToMany = boolean(node.value, key: "many") ?? false }
        if let node = fields["from"] {
            draft.keyPath = keyPath(node.value, key: "from")
            draft.fromNode = node.value
            if draft.keyPath?.isRest == true {
                error(.mappingInvalid, "a relationship's 'from' cannot read '@rest' (a json attribute's can)", at: node.value)
                draft.keyPath = nil
            }
        }
        if let node = fields["inverse"], let inverse = string(node.value, key: "inverse") { draft.inverse = (inverse, node.value) }
        if let node = fields["ordered"] { draft.isOrdered = boolean(node.value, key: "ordered") ?? false }
        if let node = fields["required"] { draft.isRequired = boolean(node.value, key: "required") ?? false }
        if let node = fields["onMissing"] {
            draft.onMissing = choice(node.value, key: "onMissing", MissingPolicy.self, all: MissingPolicy.allCases) ?? onMissing
        }
        if let node = fields["column"], let column = string(node.value, key: "column"),
            identifier(column, what: "column name", at: node.value)
        {
            draft.column = (column, node.value)
        }
        if let node = fields["keyedBy"], let attribute = string(node.value, key: "keyedBy") { draft.keyedBy = (attribute, node.value) }
        if let node = fields["match"] { draft.match = textPattern(node.value) }
        if let node = fields["table"], let table = string(node.value, key: "table"), identifier(table, what: "table name", at: node.value) {
            if draft.isToMany, draft.inverse == nil {
                draft.table = (table, node.value)
            } else {
                let kind = draft.isToMany ? "a one-to-many (it has 'inverse')" : "a to-one"
                error(.mappingInvalid, "'table' names the join table of a many-to-many; '\(name)' is \(kind)", at: node.key)
            }
        }
        let kind = draft.isToMany ? "a to-many" : "a to-one"
        if !draft.isToMany {
            if let inverse = fields["inverse"] {
                error(.mappingInvalid, "'inverse' applies only to a to-many relationship; '\(name)' is \(kind)", at: inverse.key)
            }
            if let ordered = fields["ordered"] {
                error(.mappingInvalid, "'ordered' applies only to a to-many relationship; '\(name)' is \(kind)", at: ordered.key)
            }
            if let keyedBy = fields["keyedBy"] {
                error(.mappingInvalid, "'keyedBy' applies only to a to-many relationship; '\(name)' is \(kind)", at: keyedBy.key)
                draft.keyedBy = nil
            }
        } else {
            if let required = fields["required"] {
                error(.mappingInvalid, "'required' applies only to a to-one relationship; '\(name)' is \(kind)", at: required.key)
            }
            if let column = fields["column"] {
                error(.mappingInvalid, "'column' applies only to a to-one relationship; '\(name)' is \(kind)", at: column.key)
            }
        }
        return draft
    }
}
