import Yams

/// A node of the mapping file as written, with where it stands: the raw form the loader
/// validates (Yams' nodes keep every node's line and column).
struct YAMLNode {
    let node: Node
    let file: String

    var location: SourceLocation {
        guard let mark = node.mark else { return SourceLocation(file: file) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// The scalar's text, else `nil`.
    var scalar: String? { node.scalar?.string }

    /// The mapping's pairs in order, else `nil`.
    var pairs: [(key: YAMLNode, value: YAMLNode)]? {
        guard case let .mapping(mapping) = node else { return nil }
        return mapping.map { (YAMLNode(node: $0.key, file: file), YAMLNode(node: $0.value, file: file)) }
    }

    /// The sequence's items, else `nil`.
    var items: [YAMLNode]? {
        guard case let .sequence(sequence) = node else { return nil }
        return sequence.map { YAMLNode(node: $0, file: file) }
    }

    /// "a mapping", "a list", "a string" for messages.
    var kindDescription: String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar: return "'\(scalar ?? "")'"
        case .alias: return "an alias"
        }
    }

    /// The YAML 1.1 tag the scalar resolves to (`int`, `float`, `bool`, `null`, `str`, ...).
    var resolvedTag: Tag.Name {
        let name = Tag.Name(rawValue: node.tag.rawValue)
        guard name == Self.notString, let scalar = node.scalar else { return name }
        return Tag.Name(rawValue: Node(scalar.string, .implicit, scalar.style).tag.rawValue)
    }

    /// What the mapping is parsed with: Yams' default rules as one, whose match leaves the tag
    /// `notString` for `resolvedTag` to name. The default tries each rule in turn, a regular
    /// expression each, and every scalar of a big mapping is a string that tries all seven (a
    /// sixth of its loading, bench/README.md). A plain scalar still resolves to `str` exactly
    /// when the default's would, so repeated keys are found as they were.
    static let resolver: Resolver = {
        let pattern = Resolver.default.rules.map { "(?:\($0.pattern))" }.joined(separator: "|")
        // Yams' own patterns, joined: they compile.
        return try! Resolver.basic.appending(notString, pattern)
    }()

    /// The tag of a plain scalar that one of Yams' default rules matches.
    static let notString = Tag.Name(rawValue: "tag:seeder,2026:not-string")

    /// The first node, depth first, that has an anchor (or is an alias of one).
    func firstAnchored() -> YAMLNode? {
        if node.anchor != nil { return self }
        for child in (pairs?.flatMap { [$0.key, $0.value] } ?? items ?? []) {
            if let found = child.firstAnchored() { return found }
        }
        return nil
    }

    /// The node as JSON text: plain scalars that YAML reads as numbers, booleans or null
    /// become those; everything else is a string. Non-finite floats are `nil`.
    func jsonText() -> String? {
        switch node {
        case let .scalar(scalar):
            if scalar.style == .plain || scalar.style == .any {
                switch resolvedTag {
                case .int:
                    if let value = node.int { return String(value) }
                case .float:
                    if let value = node.float {
                        guard value.isFinite else { return nil }
                        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
                    }
                case .bool:
                    if let value = node.bool { return value ? "true" : "false" }
                case .null:
                    return "null"
                default:
                    break
                }
            }
            return JSONWriter.stringLiteral(scalar.string)
        case .mapping:
            var parts: [String] = []
            for (key, value) in pairs ?? [] {
                guard let text = value.jsonText() else { return nil }
                parts.append(JSONWriter.stringLiteral(key.scalar ?? "") + ":" + text)
            }
            return "{" + parts.joined(separator: ",") + "}"
        case .sequence:
            var parts: [String] = []
            for item in items ?? [] {
                guard let text = item.jsonText() else { return nil }
                parts.append(text)
            }
            return "[" + parts.joined(separator: ",") + "]"
        case .alias:
            return nil
        }
    }
}
