import SeederCore
import SeederFiles

/// Writes an `InferredMapping` as the YAML a person would write (docs/mapping.md): shorthand
/// `name: type` where it says everything, flow mappings `{ type: date, from: posted_at }`
/// otherwise, and a comment on each guess with the evidence it was made from.
///
///     let text = MappingDraftWriter().text(of: mapping, header: ["Drafted by seeder infer from dumps/"])
public struct MappingDraftWriter {
    /// The column comments start at, where the line leaves room.
    static let commentColumn = 44

    public init() {}

    /// The draft's YAML text; `header` lines go first, as comments.
    public func text(of mapping: InferredMapping, header: [String]) -> String {
        var lines = header.map { "# " + $0 }
        lines.append("seeder: 1")
        lines.append("")
        lines.append("entities:")
        for (index, entity) in mapping.entities.enumerated() {
            if index > 0 { lines.append("") }
            lines.append(commented("  \(entity.name):", Wording.count(entity.records, "record")))
            let identity: String
            if let owned = entity.ownedIdentity {
                identity = "    identity: [\(owned.joined(separator: ", "))]"
            } else if let name = entity.identity {
                identity = name == "id" ? "" : "    identity: \(name)"
            } else {
                identity = "    identity: none"
            }
            if identity.isEmpty {
                lines.append("    # identity: \(entity.identityEvidence)")
            } else {
                lines.append(commented(identity, entity.identityEvidence))
            }
            if !entity.ignored.isEmpty {
                lines.append("    ignore: [\(entity.ignored.map { Self.scalar($0, glob: false) }.joined(separator: ", "))]")
            }
            if entity.onConflictFirst {
                lines.append(
                    commented(
                        "    onConflict: first",
                        entity.onConflictReason ?? "one identity held different records: the first occurrence wins"))
            }
            if !entity.attributes.isEmpty {
                lines.append("    attributes:")
                for attribute in entity.attributes {
                    lines.append(commented("      \(attribute.name): \(value(of: attribute))", attribute.evidence))
                }
            }
            if !entity.relationships.isEmpty {
                lines.append("    relationships:")
                for relationship in entity.relationships {
                    lines.append(commented("      \(relationship.name): \(value(of: relationship))", relationship.evidence))
                }
            }
            for note in entity.notes { lines.append("    # " + note) }
        }
        if !mapping.sources.isEmpty {
            lines.append("")
            lines.append("sources:")
            for source in mapping.sources {
                lines.append(commented("  - path: \(Self.scalar(source.path, glob: true))", source.evidence))
                lines.append("    entity: \(source.selector.map(Self.selector) ?? source.entity)")
                if !source.keyPath.isEmpty { lines.append("    keyPath: \(Self.keyPath(source.keyPath))") }
                if let keyedBy = source.keyedBy { lines.append("    keyedBy: \(keyedBy)") }
            }
        }
        for note in mapping.notes { lines.append("# " + note) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func value(of attribute: InferredMapping.Attribute) -> String {
        var parts: [String] = []
        if let from = attribute.from { parts.append("from: \(Self.keyPath(attribute.parents + [from]))") }
        if attribute.gathersRest { parts.append("from: '@rest'") }
        if let match = attribute.match { parts.append("match: '\(match)'") }
        if let format = attribute.format { parts.append("format: \(format)") }
        if attribute.required { parts.append("required: true") }
        return parts.isEmpty
            ? attribute.type.rawValue : "{ " + (["type: \(attribute.type.rawValue)"] + parts).joined(separator: ", ") + " }"
    }

    private func value(of relationship: InferredMapping.Relationship) -> String {
        var parts = ["to: \(relationship.selector.map(Self.selector) ?? relationship.target)"]
        if relationship.many { parts.append("many: true") }
        if let keyedBy = relationship.keyedBy { parts.append("keyedBy: \(keyedBy)") }
        if let inverse = relationship.inverse { parts.append("inverse: \(inverse)") }
        if relationship.ordered { parts.append("ordered: true") }
        if let from = relationship.from {
            parts.append("from: \(Self.keyPath(relationship.path ?? [from] + [relationship.through].compactMap { $0 }))")
        }
        if let match = relationship.match { parts.append("match: '\(match)'") }
        if let column = relationship.column { parts.append("column: \(column)") }
        if relationship.onMissingCreate { parts.append("onMissing: create") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// `{ by: type, cases: { apps: App, builds: Build } }`.
    static func selector(_ selector: InferredMapping.Selector) -> String {
        let cases = selector.cases.map { "\(scalar($0.value, glob: false)): \($0.entity)" }
        return "{ by: \(keyPath([selector.by])), cases: { \(cases.joined(separator: ", ")) } }"
    }

    private func commented(_ line: String, _ comment: String) -> String {
        guard !comment.isEmpty else { return line }
        let padding = max(1, Self.commentColumn - line.count)
        return line + String(repeating: " ", count: padding) + "# " + comment.replacingOccurrences(of: "\n", with: " ")
    }

    /// A key path: dotted when no key holds a dot and every key is a plain scalar, else a
    /// list of literal keys.
    static func keyPath(_ keys: [String]) -> String {
        if keys.allSatisfy({ !$0.contains(".") && isPlain($0, glob: false) }) { return keys.joined(separator: ".") }
        return "[" + keys.map { quoted($0) }.joined(separator: ", ") + "]"
    }

    /// A YAML scalar for `text`: plain when YAML reads it back as that string, else quoted.
    static func scalar(_ text: String, glob: Bool) -> String {
        isPlain(text, glob: glob) ? text : quoted(text)
    }

    static func isPlain(_ text: String, glob: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first == "_" else { return false }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-./".unicodeScalars.contains(scalar)
                    || (glob && "*?".unicodeScalars.contains(scalar)))
        }
        let special: Set<String> = ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"]
        return allowed && !special.contains(text.lowercased())
    }

    /// A double-quoted YAML scalar, escaped as JSON escapes.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                // YAML may hold neither the control characters (C1 too) nor U+FFFE and U+FFFF,
                // and libyaml reads U+0085, U+2028 and U+2029 as line breaks, which a quoted
                // scalar folds: escaped, each stands for itself.
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) {
                    result += "\\x" + String(value, radix: 16).leftPadded(to: 2)
                } else if value == 0x2028 || value == 0x2029 || value == 0xFEFF || value >= 0xFFFE && value <= 0xFFFF {
                    result += "\\u" + String(value, radix: 16).leftPadded(to: 4)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
