import Foundation

/// `@where(K = V)` or `@where(K != V)` in a key path (docs/mapping.md, Key paths): keeps the
/// elements of an array whose K equals (or does not equal) V, in order.
///
///     try KeyPathFilter(parsing: "language.name = en", position: 1)      // K [language, name], V "en"
///     try KeyPathFilter(parsing: #"locale != "pt-BR""#, position: 1)     // V "pt-BR", negated
///     try KeyPathFilter(parsing: "version_group.id = 20", position: 1)   // V the number 20
public struct KeyPathFilter: Sendable, Hashable, CustomStringConvertible {
    /// The keys followed in each element (`language.name`).
    public var keys: [String]
    /// `true` for `!=`: the elements `=` leaves out, those without K included.
    public var negated: Bool
    /// The value compared with.
    var value: Value
    /// How many of the key path's keys come before the filter: it applies to what they reach.
    public var position: Int
    /// The condition as written between the parentheses, for messages.
    public var condition: String
    /// `keys` and a text V as UTF-8, compared with the document's bytes.
    private var keyBytes: [[UInt8]] = []
    private var textBytes: [UInt8] = []

    /// V of `@where(K = V)`: JSON's scalars, compared by kind (a number never equals text).
    enum Value: Sendable, Hashable {
        /// A number, compared by value exactly (`1` equals `1.0` and `1e0`, never `"1"`).
        case number(DecimalNumber)
        /// Text, compared with a JSON string as it decodes.
        case text(String)
        /// `true` or `false`.
        case bool(Bool)
        /// JSON `null`.
        case null
    }

    /// The largest exponent a number V may have (docs/mapping.md, Picking entries).
    static let exponentBound = 100_000_000

    /// Parses the condition between the parentheses (`language.name = en`).
    public init(parsing condition: String, position: Int) throws(KeyPathError) {
        let written = "'@where(\(condition))'"
        guard let (operatorStart, operatorEnd, negated) = Self.comparison(in: condition) else {
            throw KeyPathError(
                message: "\(written) needs '=' or '!=' between a key path and a value, as in '@where(language.name = en)'")
        }
        let path = condition[..<operatorStart].trimmingSpaces
        guard !path.isEmpty else {
            throw KeyPathError(message: "\(written) needs a key path before '\(negated ? "!=" : "=")', as in '@where(language.name = en)'")
        }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if keys.contains(where: \.isEmpty) {
            throw KeyPathError(message: "\(written): key path '\(path)' has an empty key")
        }
        if let key = keys.first(where: { $0.hasPrefix("@") || $0.contains("\"") }) {
            throw KeyPathError(
                message: "\(written) compares the value of plain keys, written without quotes or operators; '\(key)' is not one")
        }
        let text = condition[operatorEnd...].trimmingSpaces
        self.keys = keys
        self.negated = negated
        self.value = try Self.value(text, in: written)
        self.position = position
        self.condition = condition
        keyBytes = keys.map { Array($0.utf8) }
        if case let .text(text) = value { textBytes = Array(text.utf8) }
    }

    /// The first `=` outside double quotes, with the `!` before it: where the operator starts,
    /// where it ends, and whether it is `!=`.
    private static func comparison(in condition: String) -> (String.Index, String.Index, Bool)? {
        guard case let .found(index) = firstUnquoted("=", in: condition[...]) else { return nil }
        if index > condition.startIndex, case let previous = condition.index(before: index), condition[previous] == "!" {
            return (previous, condition.index(after: index), true)
        }
        return (index, condition.index(after: index), false)
    }

    /// Where a scan for a character outside double quotes ended.
    enum UnquotedSearch {
        /// At the character.
        case found(Substring.Index)
        /// At the end, outside quotes or (`inQuotes`) inside a quote never closed.
        case notFound(inQuotes: Bool)
    }

    /// The first `character` of `text` outside double quotes, where `\"` and `\\` stand for a
    /// quote and a backslash: the one reading of quotes for the `)` closing a `@where(` and the
    /// `=` of its condition.
    static func firstUnquoted(_ character: Character, in text: Substring) -> UnquotedSearch {
        var quoted = false
        var escaped = false
        for index in text.indices {
            let current = text[index]
            if quoted {
                if escaped {
                    escaped = false
                } else if current == "\\" {
                    escaped = true
                } else if current == "\"" {
                    quoted = false
                }
            } else if current == "\"" {
                quoted = true
            } else if current == character {
                return .found(index)
            }
        }
        return .notFound(inQuotes: quoted)
    }

    /// V as written: a quoted text, `true`, `false`, `null`, a number, or a bare text.
    private static func value(_ text: String, in written: String) throws(KeyPathError) -> Value {
        guard let first = text.first else {
            throw KeyPathError(message: "\(written) needs a value after the operator; write \"\" for empty text")
        }
        if first == "=" { throw KeyPathError(message: "\(written): '==' is not an operator; write '=' or '!='") }
        if first == "\"" { return .text(try quotedText(text, in: written)) }
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if first == "-" || first == "+" || first == "." || first.isASCII && first.isNumber {
            guard let number = DecimalNumber(text: text.utf8) else {
                throw KeyPathError(message: "\(written): '\(text)' is not a number; write \"\(text)\" for text")
            }
            // The reader keeps exponents exactly up to a billion, then saturates: a V below the
            // bound can never equal a value past it, so every comparison stays exact.
            guard abs(number.exponent) <= Self.exponentBound else {
                throw KeyPathError(message: "\(written): '\(text)' has an exponent past \(Self.exponentBound), beyond what seeder compares")
            }
            return .number(number)
        }
        if let character = text.first(where: { $0.isWhitespace || ".()=\"\\".contains($0) }) {
            let what = character.isWhitespace ? "a space" : "'\(character)'"
            throw KeyPathError(message: "\(written): the text '\(text)' holds \(what); write it in double quotes")
        }
        return .text(text)
    }

    /// The text of `"..."`, where `\"` stands for a quote and `\\` for a backslash.
    private static func quotedText(_ text: String, in written: String) throws(KeyPathError) -> String {
        var result = ""
        var escaped = false
        var rest = text.dropFirst()
        while let character = rest.first {
            rest = rest.dropFirst()
            if escaped {
                guard character == "\"" || character == "\\" else {
                    throw KeyPathError(message: "\(written): '\\\(character)' is not an escape; a quoted value knows '\\\"' and '\\\\'")
                }
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                guard rest.isEmpty else {
                    throw KeyPathError(message: "\(written): '\(rest)' follows the closing quote of the value")
                }
                return result
            } else {
                result.append(character)
            }
        }
        throw KeyPathError(message: "\(written): the value's quote is not closed")
    }

    /// Calls `body` with each element of `array` that is kept, in order, until it returns
    /// `false`. Reads the document's tape: no value is made for an element left out (a thirty
    /// languages' list, bench/README.md).
    func forEachKept(in array: JSONValue, _ body: (JSONValue) -> Bool) {
        let document = array.document
        document.nodes.withUnsafeBufferPointer { nodes in
            document.bytes.withUnsafeBufferPointer { bytes in
                let end = Int(nodes[array.index].end)
                var cursor = array.index + 1
                while cursor < end {
                    if keeps(at: cursor, nodes, bytes, document) {
                        guard body(JSONValue(document: document, index: cursor)) else { return }
                    }
                    cursor = Int(nodes[cursor].end)
                }
            }
        }
    }

    /// `true` when `element` is kept (below).
    func keeps(_ element: JSONValue) -> Bool {
        let document = element.document
        return document.nodes.withUnsafeBufferPointer { nodes in
            document.bytes.withUnsafeBufferPointer { bytes in keeps(at: element.index, nodes, bytes, document) }
        }
    }

    /// `true` when the element at `index` is kept: its K, followed as a key path follows keys (a
    /// key on `null` gives `null`), equals V; for `!=`, when it does not, or the element has no K.
    private func keeps(
        at index: Int, _ nodes: UnsafeBufferPointer<JSONNode>, _ bytes: UnsafeBufferPointer<UInt8>, _ document: JSONDocument
    ) -> Bool {
        var reached = index
        for key in keyBytes.indices {
            let node = nodes[reached]
            switch node.kind {
            case .object:
                var member = reached + 1
                let end = Int(node.end)
                var found = -1
                while member < end {
                    if Self.equals(member, keyBytes[key], keys[key], nodes, bytes, document) {
                        found = member + 1
                        break
                    }
                    member = Int(nodes[member + 1].end)
                }
                guard found >= 0 else { return negated }
                reached = found
            case .null:
                return matches(JSONValue(document: document, index: reached)) != negated
            default:
                // A scalar has no keys; an array holds one value per element, never one V.
                return negated
            }
        }
        if case let .text(text) = value {
            return Self.equals(reached, textBytes, text, nodes, bytes, document) != negated
        }
        return matches(JSONValue(document: document, index: reached)) != negated
    }

    /// `true` when the node at `index` is a string equal to `text` (`utf8`, its UTF-8): its bytes
    /// compared in place unless it holds an escape.
    private static func equals(
        _ index: Int, _ utf8: [UInt8], _ text: String, _ nodes: UnsafeBufferPointer<JSONNode>, _ bytes: UnsafeBufferPointer<UInt8>,
        _ document: JSONDocument
    ) -> Bool {
        let node = nodes[index]
        guard node.kind == .string else { return false }
        if node.flags & JSONNode.escaped != 0 { return JSONValue(document: document, index: index).stringEquals(text) }
        guard Int(node.length) == utf8.count else { return false }
        let start = Int(node.start) + 1
        return utf8.withUnsafeBufferPointer { utf8 in
            utf8.isEmpty || memcmp(bytes.baseAddress! + start, utf8.baseAddress!, utf8.count) == 0
        }
    }

    /// `true` when `found` equals V: of the same kind and the same value.
    private func matches(_ found: JSONValue) -> Bool {
        switch value {
        case let .text(text): return found.stringEquals(text)
        case let .number(number): return found.kind == .number && found.decimalNumber == number
        case let .bool(bool): return found.bool == bool
        case .null: return found.isNull
        }
    }

    /// The condition as the mapping wrote it: `@where(language.name = en)`.
    public var description: String { "@where(\(condition))" }
}

extension StringProtocol {
    /// The text without spaces and tabs at either end.
    fileprivate var trimmingSpaces: String {
        var text = self[...]
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
