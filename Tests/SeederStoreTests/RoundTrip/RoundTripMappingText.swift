/// The YAML mapping of a round-trip model, as a user would write it: shorthand types where
/// nothing else is said, `from:` key paths dotted or as lists, relationships by name.
enum RoundTripMappingText {
    static func yaml(_ model: RoundTripModel) -> String {
        var lines = ["seeder: 1", "dates: \(model.dates.rawValue)"] + (model.onMissingCreate ? ["onMissing: create"] : []) + ["entities:"]
        for entity in model.entities {
            lines.append("  \(entity.name):")
            switch entity.identity {
            case .string: lines.append("    identity: slug")
            case .composite: lines.append("    identity: [code, num]")
            case .none: lines.append("    identity: none")
            case .integer, .uuid: break
            }
            if entity.onMissingCreate { lines.append("    onMissing: create") }
            lines.append("    attributes:")
            for attribute in entity.attributes { lines.append("      \(attribute.name): \(self.attribute(attribute))") }
            if !entity.relationships.isEmpty { lines.append("    relationships:") }
            for relationship in entity.relationships {
                var fields = ["to: " + (relationship.selector.map { selector($0, model) } ?? model.entities[relationship.target].name)]
                if relationship.isToMany { fields.append("many: true") }
                if relationship.isOrdered { fields.append("ordered: true") }
                if case let .inverse(toOne, _) = relationship.storage { fields.append("inverse: \(toOne)") }
                if let keyedBy = relationship.keyedBy { fields.append("keyedBy: \(keyedBy)") }
                if relationship.onMissingCreate { fields.append("onMissing: create") }
                if case let .path(keys) = relationship.key { fields.append("from: \"\(keys.joined(separator: "."))\"") }
                lines.append("      \(relationship.name): { \(fields.joined(separator: ", ")) }")
            }
        }
        lines.append(model.entities.allSatisfy(\.files.isEmpty) && model.mixedFiles.isEmpty ? "sources: []" : "sources:")
        for entity in model.entities {
            for file in entity.files {
                lines += ["  - path: \(file.path)", "    entity: \(entity.name)"]
                if let keyPath = file.keyPath { lines.append("    keyPath: \(keyPath.joined(separator: "."))") }
                if let keyedBy = file.keyedBy { lines.append("    keyedBy: \(keyedBy)") }
            }
        }
        for file in model.mixedFiles {
            lines += ["  - path: \(file.path)", "    entity: " + selector((file.by, file.cases), model)]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{ by: KEY, cases: { VALUE: Entity, ... } }`.
    static func selector(_ selector: (by: String, cases: [SelectorCase]), _ model: RoundTripModel) -> String {
        let cases = selector.cases.map { "\($0.value): \(model.entities[$0.entity].name)" }
        return "{ by: \(selector.by), cases: { " + cases.joined(separator: ", ") + " } }"
    }

    private static func attribute(_ attribute: AttributeModel) -> String {
        var fields: [String] = []
        switch attribute.source {
        case .name: break
        case let .dotted(keys): fields.append("from: \"\(keys.joined(separator: "."))\"")
        case let .literal(keys): fields.append("from: [" + keys.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
        }
        if attribute.isRequired { fields.append("required: true") }
        if attribute.isIndexed { fields.append("index: true") }
        switch attribute.defaultValue {
        case let .integer(n)?: fields.append("default: \(n)")
        case let .boolean(b)?: fields.append("default: \(b)")
        case let .string(text)?: fields.append("default: \"\(text)\"")
        default: break
        }
        var type = typeName(attribute.type)
        if case let .date(format, storage) = attribute.type {
            switch format {
            case .iso8601: break
            case .unix: fields.append("format: unix")
            case .unixMilliseconds: fields.append("format: unix_ms")
            case .unixMicroseconds: fields.append("format: unix_us")
            case .unixNanoseconds: fields.append("format: unix_ns")
            case let .pattern(pattern, _): fields.append("format: \"\(pattern)\"")
            }
            if let storage { fields.append("storage: \(storage.rawValue)") }
            if attribute.zone != .utc { fields.append("timeZone: \(attribute.zone.identifier)") }
            type = "date"
        }
        return fields.isEmpty ? type : "{ type: \(type), " + fields.joined(separator: ", ") + " }"
    }

    static func typeName(_ type: ValueType) -> String {
        switch type {
        case .integer: return "integer"
        case .real: return "real"
        case .decimal: return "decimal"
        case .boolean: return "boolean"
        case .string: return "string"
        case .url: return "url"
        case .uuid: return "uuid"
        case .data: return "data"
        case .json: return "json"
        case .date: return "date"
        }
    }
}
