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

extension SQLValue {
    /// Two values that differ, as a message shows them side by side: their `description`s, unless
    /// those are the same, two texts alike in their first 60 characters; then each is cut around
    /// the first character where they differ, `…` on a side where more is left out, so that the
    /// two read differently (`"…/repos/octo/b…"`, `"…/repos/octo/c…"`).
    /// With `json`, texts are JSON and shown as they are (`{"id":7}`, `"2021-10-05"`), not quoted.
    public static func contrasted(_ old: SQLValue, _ new: SQLValue, json: Bool = false) -> (old: String, new: String) {
        let shown = (old.shown(json: json), new.shown(json: json))
        guard shown.0 == shown.1, case let .text(a) = old, case let .text(b) = new else { return shown }
        let first = zip(a, b).prefix { $0 == $1 }.count
        // Some context before the difference, the rest of the 60 characters after it.
        let start = max(0, first - 20)
        return json ? (cut(a, from: start), cut(b, from: start)) : (quoted(a, from: start), quoted(b, from: start))
    }

    /// `description`; with `json`, a text as the JSON it holds, shortened as `description` does.
    public func shown(json: Bool) -> String {
        guard json, case let .text(text) = self else { return description }
        return cut(text)
    }
}

/// `text` shortened past 60 characters; from the `start`th character with a leading `…`.
func cut(_ text: String, from start: Int = 0, limit: Int = 60) -> String {
    let rest = text.dropFirst(start)
    return (start > 0 ? "…" : "") + (rest.count > limit ? String(rest.prefix(limit)) + "…" : String(rest))
}

/// `"text"` with JSON escapes, shortened past 60 characters (for messages); from the
/// `start`th character with a leading `…`.
func quoted(_ text: String, from start: Int = 0, limit: Int = 60) -> String {
    JSONWriter.stringLiteral(cut(text, from: start, limit: limit))
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
