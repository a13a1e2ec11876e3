import SeederCore

/// Checks a JSON document against a JSON Schema, for the subset of the standard that docs/json.md
/// uses: `type`, `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`,
/// `anyOf` and `$ref` into the root's `$defs`. (No validator package is at hand.)
///
/// Stricter than the standard in three ways, so that a document cannot hold what its
/// documentation does not say: a keyword the checker does not know is a problem of the schema
/// (a schema must never seem checked when it is not); an object schema must say whether other
/// members may appear (`additionalProperties`); and members must come in the order of
/// `properties`, since the documents promise that order.
///
///     let checker = try JSONSchemaChecker(schema: #"{"type": "object", ...}"#)
///     #expect(checker.problems(in: output) == [])
public struct JSONSchemaChecker {
    /// Keywords that only describe.
    static let annotations: Set<String> = ["$schema", "title", "description", "$comment", "examples"]
    /// Keywords the checker reads.
    static let keywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs",
    ]

    let root: JSONValue

    /// A checker of `schema`, a JSON Schema's text.
    public init(schema: String) throws {
        root = try JSONDocument(parsing: schema).root
    }

    /// Every problem of `document` (JSON text), each as `pointer: what`; none when it conforms.
    public func problems(in document: String) -> [String] {
        let value: JSONValue
        do {
            value = try JSONDocument(parsing: document).root
        } catch {
            return ["not one JSON value: \(error)"]
        }
        var problems: [String] = []
        check(value, against: root, at: "", schemaPath: "#", into: &problems)
        return problems
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at pointer: String, schemaPath: String, into problems: inout [String])
    {
        let here = pointer.isEmpty ? "/" : pointer
        guard schema.kind == .object else {
            return problems.append("\(schemaPath): a schema must be an object")
        }
        for (key, _) in schema.members {
            let name = key.string ?? ""
            if !Self.keywords.contains(name) && !Self.annotations.contains(name) {
                problems.append("\(schemaPath): keyword '\(name)' is not one the checker reads")
            }
        }
        if let reference = schema["$ref"] {
            guard let target = resolve(reference.string ?? "") else {
                return problems.append("\(schemaPath): $ref \(reference.string ?? "?") names no definition")
            }
            check(value, against: target, at: pointer, schemaPath: reference.string ?? "", into: &problems)
        }
        if let type = schema["type"] {
            let names = type.kind == .array ? type.elements.compactMap(\.string) : [type.string ?? ""]
            guard names.contains(where: { Self.conforms(value, to: $0) }) else {
                return problems.append("\(here): \(Self.describe(value)), expected \(names.joined(separator: " or "))")
            }
        }
        if let constant = schema["const"], !Self.same(value, constant) {
            problems.append("\(here): \(Self.text(value)), expected \(Self.text(constant))")
        }
        if let allowed = schema["enum"], !allowed.elements.contains(where: { Self.same(value, $0) }) {
            problems.append("\(here): \(Self.text(value)) is not one of \(Self.text(allowed))")
        }
        if let choices = schema["anyOf"] {
            let fits = choices.elements.enumerated().contains { index, choice in
                var attempt: [String] = []
                check(value, against: choice, at: pointer, schemaPath: "\(schemaPath)/anyOf/\(index)", into: &attempt)
                return attempt.isEmpty
            }
            if !fits { problems.append("\(here): \(Self.text(value)) fits none of anyOf at \(schemaPath)") }
        }
        if value.kind == .object { checkMembers(of: value, against: schema, at: pointer, schemaPath: schemaPath, into: &problems) }
        if value.kind == .array, let items = schema["items"] {
            for (index, element) in value.elements.enumerated() {
                check(element, against: items, at: "\(pointer)/\(index)", schemaPath: "\(schemaPath)/items", into: &problems)
            }
        }
    }

    private func checkMembers(
        of value: JSONValue, against schema: JSONValue, at pointer: String, schemaPath: String, into problems: inout [String]
    ) {
        // A `$ref` or an `anyOf` says it all; so does a schema that does not speak of objects.
        guard schema["properties"] != nil || schema["additionalProperties"] != nil else {
            if schema["$ref"] == nil, schema["anyOf"] == nil, schema["type"].map({ Self.names($0).contains("object") }) == true {
                problems.append("\(schemaPath): an object schema must say whether other members may appear (additionalProperties)")
            }
            return
        }
        guard let additional = schema["additionalProperties"] else {
            return problems.append("\(schemaPath): an object schema must say whether other members may appear (additionalProperties)")
        }
        let declared = schema["properties"].map { $0.members.map { $0.key.string ?? "" } } ?? []
        var seen: [String] = []
        for (key, member) in value.members {
            let name = key.string ?? ""
            let path = pointer + "/" + name
            if seen.contains(name) { problems.append("\(path): the member appears twice") }
            seen.append(name)
            if let index = declared.firstIndex(of: name) {
                check(
                    member, against: schema["properties"]![name]!, at: path, schemaPath: "\(schemaPath)/properties/\(name)", into: &problems
                )
                if let later = seen.dropLast().first(where: { (declared.firstIndex(of: $0) ?? -1) > index }) {
                    problems.append("\(path): comes after '\(later)', but the documented order puts it before")
                }
            } else if additional.kind == .false {
                problems.append("\(path): a member the documentation does not list")
            } else if additional.kind == .object {
                check(member, against: additional, at: path, schemaPath: "\(schemaPath)/additionalProperties", into: &problems)
            }
        }
        for name in schema["required"]?.elements.compactMap(\.string) ?? [] where !seen.contains(name) {
            problems.append("\(pointer.isEmpty ? "/" : pointer): lacks the required member '\(name)'")
        }
    }

    /// The definition `#/$defs/name` names.
    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/$defs/") else { return nil }
        return root["$defs"]?[String(reference.dropFirst("#/$defs/".count))]
    }

    private static func names(_ type: JSONValue) -> [String] {
        type.kind == .array ? type.elements.compactMap(\.string) : [type.string ?? ""]
    }

    private static func conforms(_ value: JSONValue, to type: String) -> Bool {
        switch type {
        case "null": return value.kind == .null
        case "boolean": return value.kind == .true || value.kind == .false
        case "integer": return value.isIntegralNumber
        case "number": return value.kind == .number
        case "string": return value.kind == .string
        case "array": return value.kind == .array
        case "object": return value.kind == .object
        default: return false
        }
    }

    /// Equality of scalars: the same kind and the same text.
    private static func same(_ value: JSONValue, _ other: JSONValue) -> Bool {
        value.kind == other.kind && text(value) == text(other)
    }

    private static func text(_ value: JSONValue) -> String {
        switch value.kind {
        case .string: return "\"\(value.string ?? "")\""
        case .number: return value.numberText ?? ""
        case .null: return "null"
        case .true: return "true"
        case .false: return "false"
        case .array: return "[" + value.elements.map(text).joined(separator: ", ") + "]"
        case .object: return "an object"
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value.kind {
        case .object: return "an object"
        case .array: return "an array"
        default: return text(value)
        }
    }
}
