import Foundation

/// What the seed must hold for a model, from docs/mapping.md and docs/seed.md alone: each
/// table's rows as stored values, computed from the logical records, not by seeder's mapper.
enum RoundTripExpectation {
    /// One table: its columns and the rows it must hold (a multiset; order is not promised).
    struct Table {
        var name: String
        var columns: [String]
        var rows: [[Stored]]
    }

    static func tables(_ model: RoundTripModel) -> [Table] {
        var tables: [Table] = []
        for (index, entity) in model.entities.enumerated() {
            var columns = (entity.identity == .none ? ["_pk"] : []) + entity.attributes.map(\.column)
            for relationship in entity.relationships {
                if case let .foreignKey(keys) = relationship.storage { columns += keys + (relationship.typeColumn.map { [$0] } ?? []) }
            }
            // Ordered one-to-manys keep their positions on the children, numbered across a
            // selector's cases in the parent's order.
            let positions = model.entities.indices.flatMap { parent in
                model.entities[parent].relationships.indices.compactMap { r -> (Int, Int, String)? in
                    let relationship = model.entities[parent].relationships[r]
                    guard relationship.targets.contains(index), case let .inverse(_, column?) = relationship.storage else { return nil }
                    return (parent, r, column)
                }
            }
            columns += positions.map(\.2)
            let rows = model.records[index].map { record -> [Stored] in
                var row = entity.identity == .none ? storedKey(record.key, of: index, in: model) : []
                // A made record holds its identity, the defaults and NULL (`values` are nil).
                for (attribute, value) in zip(entity.attributes, record.values) {
                    row.append(stored(value ?? attribute.defaultValue ?? .null, attribute, dates: model.dates))
                }
                for (r, relationship) in entity.relationships.enumerated() {
                    guard case let .foreignKey(keys) = relationship.storage else { continue }
                    let type = relationship.typeColumn == nil ? 0 : 1
                    row +=
                        record.links[r].first.map { storedLink($0, of: relationship, in: model) }
                        ?? Array(repeating: .null, count: keys.count + type)
                }
                let link = Link(entity: index, key: record.key)
                for (parent, r, _) in positions {
                    let rank = model.records[parent].lazy.compactMap { $0.links[r].firstIndex { same($0, link) } }.first
                    row.append(rank.map { .integer(Int64($0)) } ?? .null)
                }
                return row
            }
            tables.append(Table(name: entity.table, columns: columns, rows: rows))
        }
        for (index, entity) in model.entities.enumerated() {
            for (r, relationship) in entity.relationships.enumerated() {
                guard case let .joinTable(name, owner, target, position) = relationship.storage else { continue }
                var rows: [[Stored]] = []
                for record in model.records[index] {
                    for (rank, linked) in record.links[r].enumerated() {
                        rows.append(
                            storedKey(record.key, of: index, in: model) + storedLink(linked, of: relationship, in: model)
                                + (position == nil ? [] : [.integer(Int64(rank))]))
                    }
                }
                let columns = owner + target + (relationship.typeColumn.map { [$0] } ?? []) + (position.map { [$0] } ?? [])
                tables.append(Table(name: name, columns: columns, rows: rows))
            }
        }
        return tables
    }

    /// The target's key and, for a selector, the chosen entity's name (not the case value).
    static func storedLink(_ link: Link, of relationship: RelationshipModel, in model: RoundTripModel) -> [Stored] {
        storedKey(link.key, of: link.entity, in: model)
            + (relationship.typeColumn == nil ? [] : [.text(Array(model.entities[link.entity].name.utf8))])
    }

    /// The same record, its key compared to the byte.
    static func same(_ a: Link, _ b: Link) -> Bool {
        a.entity == b.entity && keyText(a.key) == keyText(b.key)
    }

    static func storedKey(_ key: RecordKey, of entity: Int, in model: RoundTripModel) -> [Stored] {
        switch key {
        case let .serial(serial): return [.serial(entity: entity, serial)]
        case let .values(values):
            return zip(values, model.entities[entity].attributes).map { stored($0, $1, dates: model.dates) }
        }
    }

    /// The stored value of docs/mapping.md's type table.
    static func stored(_ value: LogicalValue, _ attribute: AttributeModel, dates: DateStorageChoice) -> Stored {
        switch value {
        case .null: return .null
        case let .integer(n): return .integer(n)
        case let .real(d): return .real(d)
        case let .decimal(negative, digits, exponent):
            return .text(Array(canonicalDecimal(negative: negative, digits: digits, exponent: exponent).utf8))
        case let .boolean(b): return .integer(b ? 1 : 0)
        case let .string(text), let .url(text), let .uuid(text): return .text(Array(text.utf8))
        case let .data(bytes): return .blob(bytes)
        case let .json(tree): return .text(Array(minified(tree).utf8))
        case let .date(milliseconds):
            guard case let .date(_, storage) = attribute.type else { fatalError("a date value of a \(attribute.type) attribute") }
            switch storage ?? dates {
            case .iso8601: return .text(Array(CivilTime(milliseconds: milliseconds).storedISO8601.utf8))
            case .unixepoch: return .real(Double(milliseconds) / 1000)
            case .unixepochMilliseconds: return .integer(milliseconds)
            case .reference: return .real(Double(milliseconds - 978_307_200_000) / 1000)
            }
        }
    }

    /// No exponent, no trailing zeros, `0` for zero (docs/mapping.md, Types).
    static func canonicalDecimal(negative: Bool, digits: [UInt8], exponent: Int) -> String {
        guard !digits.isEmpty else { return "0" }
        let written = digits.map { String($0) }.joined()
        let sign = negative ? "-" : ""
        if exponent >= 0 { return sign + written + String(repeating: "0", count: exponent) }
        let whole = digits.count + exponent
        if whole > 0 { return sign + written.prefix(whole) + "." + written.dropFirst(whole) }
        return sign + "0." + String(repeating: "0", count: -whole) + written
    }

    /// Minified with key order and number text kept, strings re-escaped minimally
    /// (docs/mapping.md, Types: `json`).
    static func minified(_ tree: JSONTree) -> String {
        switch tree {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(text): return text
        case let .string(text): return minimalString(text)
        case let .array(items): return "[" + items.map(minified).joined(separator: ",") + "]"
        case let .object(members):
            return "{" + members.map { minimalString($0.key) + ":" + minified($0.value) }.joined(separator: ",") + "}"
        }
    }

    static func minimalString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20: out += RoundTripSpelling.unicodeEscape(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A key's text, exact to the byte (Swift's `==` would call `é` and `e` + U+0301 equal).
    static func keyText(_ key: RecordKey) -> String {
        switch key {
        case let .serial(serial): return "#\(serial)"
        case let .values(values): return identityText(values)
        }
    }

    static func identityText(_ values: [LogicalValue]) -> String {
        values.map { value -> String in
            switch value {
            case let .integer(n): return "i\(n)"
            case let .string(text): return "s" + text.utf8.map { String($0, radix: 16) }.joined(separator: ".")
            case let .uuid(text): return "u" + text
            default: return "?\(value)"
            }
        }.joined(separator: "|")
    }
}

/// A value as SQLite holds it. Text compares by its bytes; reals by value (`-0.0` is `0.0`).
enum Stored: Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])
    /// The `_pk` of an `identity: none` record, known once the seed is read.
    case serial(entity: Int, Int64)

    static func == (lhs: Stored, rhs: Stored) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.integer(a), .integer(b)): return a == b
        case let (.real(a), .real(b)): return a == b
        case let (.text(a), .text(b)), let (.blob(a), .blob(b)): return a == b
        case let (.serial(e1, a), .serial(e2, b)): return e1 == e2 && a == b
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .integer(n): hasher.combine(1); hasher.combine(n)
        case let .real(d): hasher.combine(2); hasher.combine(d == 0 ? 0 : d.bitPattern)
        case let .text(bytes): hasher.combine(3); hasher.combine(bytes)
        case let .blob(bytes): hasher.combine(4); hasher.combine(bytes)
        case let .serial(entity, serial): hasher.combine(5); hasher.combine(entity); hasher.combine(serial)
        }
    }

    var description: String {
        switch self {
        case .null: return "NULL"
        case let .integer(n): return String(n)
        case let .real(d): return "\(d)r"
        case let .text(bytes): return RoundTripExpectation.minimalString(String(decoding: bytes, as: UTF8.self)).prefix(80).description
        case let .blob(bytes): return "x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        case let .serial(entity, serial): return "serial \(serial) of entity \(entity)"
        }
    }
}
