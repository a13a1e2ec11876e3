/// A value as SQLite stores it: what a coerced attribute becomes.
public enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// A short form for messages: `42`, `"Blake"`, `x'00ff'` (long values shortened).
    public var description: String {
        switch self {
        case .null: return "null"
        case let .integer(value): return String(value)
        case let .real(value): return String(value)
        case let .text(value): return quoted(value)
        case let .blob(bytes):
            let hex = bytes.prefix(16).map { hex2($0).lowercased() }.joined()
            return "x'\(hex)\(bytes.count > 16 ? "…" : "")' (\(bytes.count) bytes)"
        }
    }
}

/// `"text"` with JSON escapes, shortened past 60 characters (for messages).
func quoted(_ text: String, limit: Int = 60) -> String {
    let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
    return JSONWriter.stringLiteral(shown)
}

/// The identity of a record: its identity attributes' values after coercion, in order.
///
/// `3` and `"3"` are the same integer identity because both coerce to `.integer(3)`
/// (docs/mapping.md, Merging). The description is how messages name a record: `7`, `(hearts, 10)`.
public struct IdentityKey: Sendable, Hashable, CustomStringConvertible {
    /// The values, one per identity attribute.
    public var values: [SQLValue]

    /// An identity of these values.
    public init(_ values: [SQLValue]) {
        self.values = values
    }

    public var description: String {
        func plain(_ value: SQLValue) -> String {
            // An empty text quoted, so that `Author ""` still names an identity.
            if case let .text(text) = value { return text.isEmpty ? "\"\"" : text.count > 60 ? String(text.prefix(60)) + "…" : text }
            return value.description
        }
        return values.count == 1 ? plain(values[0]) : "(" + values.map(plain).joined(separator: ", ") + ")"
    }
}
