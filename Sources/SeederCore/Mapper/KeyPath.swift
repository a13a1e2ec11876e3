/// A key path into a record (docs/mapping.md, Key paths): dotted keys with Key-Value Coding
/// semantics, optionally ending in a collection operator; or `@file.N`, a text of the record's
/// file name; or `@rest`, the record's members that nothing else of its entity reads.
///
///     try KeyPath(parsing: "thumbnail.path")               // keys ["thumbnail", "path"]
///     try KeyPath(parsing: "transactions.@avg.amount")     // keys ["transactions"], @avg over ["amount"]
///     try KeyPath(parsing: "data.@last.id")                // keys ["data"], @last's ["id"]
///     try KeyPath(parsing: "@file.1")                      // the first `*` of the source's path
///     try KeyPath(parsing: "@rest")                        // the members nothing else reads
///     try KeyPath(parsing: "names.@where(language.name = en).@first.name")   // a filter, then @first
///     KeyPath(literal: ["a.b", "c"])                        // keys with dots in them
public struct KeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys followed from the record, in order.
    public var keys: [String]
    /// The collection operator applied to the array the keys reach, if any.
    public var collectionOperator: CollectionOperator?
    /// The keys applied to each element before the operator (`amount` in `@avg.amount`).
    public var operatorKeys: [String]
    /// For `@file.N`, N: the `*` of the source's `path` (from 1) whose text in the record's file
    /// the key path reads. Such a key path is nothing else: no keys, no operator.
    public var fileStar: Int?
    /// The `@where` filters among `keys`, in order, each applied to what the keys before it
    /// (`position` of them) reach; empty for most key paths, which then evaluate as before.
    public var filters: [KeyPathFilter] = []
    /// `@rest`: the record's members that no other attribute, relationship, selector or `ignore`
    /// of its entity reads, as one object (docs/mapping.md, Keys nothing else reads). Such a key
    /// path is nothing else.
    public var isRest = false

    /// A key path of literal keys (a YAML list): no dots split, no operators.
    public init(literal keys: [String]) {
        self.init(keys: keys, collectionOperator: nil, operatorKeys: [])
    }

    /// `@file.N`: the text the N-th `*` (from 1) of the source's `path` matched in the file a
    /// record was read from.
    public init(fileStar: Int) {
        self.init(keys: [], collectionOperator: nil, operatorKeys: [])
        self.fileStar = fileStar
    }

    /// Parses a dotted key path.
    public init(parsing text: String) throws(KeyPathError) {
        let parts = try Self.parts(of: text)
        guard !parts.contains(where: \.isEmpty) else {
            throw KeyPathError(message: "key path '\(text)' has an empty key")
        }
        // Keys and `@where` filters, up to a collection operator.
        var keys: [String] = []
        var filters: [KeyPathFilter] = []
        var operatorIndex = parts.endIndex
        for (index, part) in parts.enumerated() {
            guard part.hasPrefix("@") else {
                keys.append(part)
                continue
            }
            guard let condition = Self.whereCondition(part) else {
                operatorIndex = index
                break
            }
            guard !keys.isEmpty else {
                throw KeyPathError(
                    message:
                        "'@where' filters the array the keys before it reach, as in 'descriptions.@where(language.name = en)'; '\(text)' has no key before it"
                )
            }
            filters.append(try KeyPathFilter(parsing: condition, position: keys.count))
        }
        guard operatorIndex < parts.endIndex else {
            self.init(keys: keys, collectionOperator: nil, operatorKeys: [])
            self.filters = filters
            return
        }
        let written = parts[operatorIndex].dropFirst()
        let name = String(written.prefix { $0 != "(" })
        let rest = Array(parts[(operatorIndex + 1)...])
        if name == Self.restName, name == written {
            guard parts.count == 1 else { throw KeyPathError(message: "'@rest' is a key path of its own; '\(text)' has more") }
            self.init(keys: [], collectionOperator: nil, operatorKeys: [])
            self.isRest = true
            return
        }
        if name == Self.fileName, name == written {
            self.init(fileStar: try Self.fileStar(text, keysBefore: operatorIndex, after: rest))
            return
        }
        if name == Self.whereName {
            throw KeyPathError(message: "'@where' needs a condition in parentheses, as in '@where(language.name = en)'")
        }
        if name != written, CollectionOperator(rawValue: name) != nil || name == Self.fileName || name == Self.restName {
            throw KeyPathError(message: "'@\(name)' takes no condition in parentheses; '@where' does")
        }
        guard let op = CollectionOperator(rawValue: name) else {
            let names = CollectionOperator.allCases.map(\.rawValue) + [Self.fileName, Self.whereName, Self.restName]
            let suggestion = Wording.didYouMean(closestMatch(to: name, in: names).map { "@" + $0 })
            throw KeyPathError(message: "unknown collection operator '@\(name)' in '\(text)'\(suggestion)")
        }
        if let nested = rest.first(where: { $0.hasPrefix("@") }) {
            if Self.whereCondition(nested) != nil {
                throw KeyPathError(
                    message: "'@where' filters before the collection operator, not after it: '\(nested)' follows '@\(name)' in '\(text)'")
            }
            throw KeyPathError(message: "key path '\(text)' has a second collection operator '\(nested)'")
        }
        if op == .count, !rest.isEmpty {
            throw KeyPathError(message: "'@count' ends a key path; '\(text)' goes on after it")
        }
        // `@first` and `@last` alone are the element itself (a scalar, or a record for a to-one
        // or `type: json`); the other operators reduce a key of each element.
        if op != .count, op != .first, op != .last, rest.isEmpty {
            throw KeyPathError(message: "'@\(name)' needs a key after it, as in '@\(name).amount'")
        }
        self.init(keys: keys, collectionOperator: op, operatorKeys: rest)
        self.filters = filters
    }

    /// The parts between the dots of `text`. An operator written with parentheses, such as
    /// `@where(language.name = en)`, is one part whatever it holds, up to the `)` that is not in
    /// double quotes.
    private static func parts(of text: String) throws(KeyPathError) -> [String] {
        var parts: [String] = []
        var rest = text[...]
        while true {
            guard rest.first == "@", let open = rest.firstIndex(where: { $0 == "(" || $0 == "." }), rest[open] == "(" else {
                guard let dot = rest.firstIndex(of: ".") else {
                    parts.append(String(rest))
                    return parts
                }
                parts.append(String(rest[..<dot]))
                rest = rest[rest.index(after: dot)...]
                continue
            }
            let close = try closingParenthesis(of: rest, after: open, in: text)
            parts.append(String(rest[...close]))
            rest = rest[rest.index(after: close)...]
            guard let next = rest.first else { return parts }
            guard next == "." else {
                throw KeyPathError(
                    message:
                        "'\(parts.last!)' in '\(text)' is followed by '\(next)', not by '.'; text holding '(' or ')' goes in double quotes"
                )
            }
            rest = rest.dropFirst()
            // `a.@where(k = v).` ends in an empty key, as `a.` does.
            if rest.isEmpty { parts.append("") }
        }
    }

    /// The `)` closing the `(` at `open`: the first outside double quotes.
    private static func closingParenthesis(of part: Substring, after open: Substring.Index, in text: String) throws(KeyPathError)
        -> Substring.Index
    {
        switch KeyPathFilter.firstUnquoted(")", in: part[part.index(after: open)...]) {
        case let .found(index):
            return index
        case let .notFound(inQuotes):
            let what = inQuotes ? "a quote that is not closed" : "no closing ')'"
            throw KeyPathError(message: "'\(part[..<open])(' in '\(text)' has \(what)")
        }
    }

    /// The condition of a `@where(...)` part, else `nil`.
    private static func whereCondition(_ part: String) -> String? {
        let prefix = "@\(whereName)("
        guard part.hasPrefix(prefix), part.hasSuffix(")") else { return nil }
        return String(part.dropFirst(prefix.count).dropLast())
    }

    private init(keys: [String], collectionOperator: CollectionOperator?, operatorKeys: [String]) {
        self.keys = keys
        self.collectionOperator = collectionOperator
        self.operatorKeys = operatorKeys
    }

    /// `file`, as `@file.N` names it.
    static let fileName = "file"

    /// `rest`, as `@rest` names it.
    static let restName = "rest"

    /// `where`, as `@where(K = V)` names it.
    static let whereName = "where"

    /// N of `@file.N`, which stands alone and names a `*` by its number, from 1.
    private static func fileStar(_ text: String, keysBefore: Int, after rest: [String]) throws(KeyPathError) -> Int {
        guard keysBefore == 0 else {
            throw KeyPathError(message: "'@file.N' is a key path of its own; '\(text)' has keys before it")
        }
        guard let number = rest.first else {
            throw KeyPathError(message: "'@file' needs the number of a '*' of the source's path after it, as in '@file.1'")
        }
        guard rest.count == 1 else {
            throw KeyPathError(message: "'@file.\(number)' ends a key path; '\(text)' goes on after it")
        }
        guard number.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let star = Int(number), star >= 1 else {
            throw KeyPathError(message: "'@file.\(number)' must name a '*' of the source's path by its number, from 1, as in '@file.1'")
        }
        return star
    }

    /// The dotted form, as a mapping would write it.
    public var description: String {
        if let fileStar { return "@\(Self.fileName).\(fileStar)" }
        if isRest { return "@" + Self.restName }
        var parts = keys
        for filter in filters.reversed() { parts.insert(filter.description, at: filter.position) }
        if let collectionOperator { parts.append("@" + collectionOperator.rawValue) }
        parts += operatorKeys
        return parts.joined(separator: ".")
    }
}

/// A key path that cannot be parsed.
public struct KeyPathError: Error, Sendable, Hashable {
    /// What is wrong.
    public var message: String
}

/// RestKit's KVC collection operators (docs/mapping.md, Key paths).
public enum CollectionOperator: String, Sendable, CaseIterable {
    /// The number of elements; 0 for an empty array.
    case count
    /// The sum of the numbers, nulls ignored; 0 for an empty array.
    case sum
    /// The mean of the numbers, nulls ignored; null for an empty array.
    case avg
    /// The least value (numbers, or strings in code-point order), nulls ignored.
    case min
    /// The greatest value, nulls ignored.
    case max
    /// The distinct values in first-seen order, as an array.
    case distinctUnionOfObjects
    /// All values, as an array.
    case unionOfObjects
    /// The elements of the arrays the key reaches in each element, concatenated in order.
    case unionOfArrays
    /// `unionOfArrays`'s distinct elements, in first-seen order.
    case distinctUnionOfArrays
    /// The first element's value; null for an empty array.
    case first
    /// The last element's value; null for an empty array.
    case last
}
