/// A key path into a record (docs/mapping.md, Key paths): dotted keys with Key-Value Coding
/// semantics, optionally ending in a collection operator.
///
///     try KeyPath(parsing: "thumbnail.path")               // keys ["thumbnail", "path"]
///     try KeyPath(parsing: "transactions.@avg.amount")     // keys ["transactions"], @avg over ["amount"]
///     try KeyPath(parsing: "data.@last.id")                // keys ["data"], @last's ["id"]
///     KeyPath(literal: ["a.b", "c"])                        // keys with dots in them
public struct KeyPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys followed from the record, in order.
    public var keys: [String]
    /// The collection operator applied to the array the keys reach, if any.
    public var collectionOperator: CollectionOperator?
    /// The keys applied to each element before the operator (`amount` in `@avg.amount`).
    public var operatorKeys: [String]

    /// A key path of literal keys (a YAML list): no dots split, no operators.
    public init(literal keys: [String]) {
        self.init(keys: keys, collectionOperator: nil, operatorKeys: [])
    }

    /// Parses a dotted key path.
    public init(parsing text: String) throws(KeyPathError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw KeyPathError(message: "key path '\(text)' has an empty key")
        }
        guard let operatorIndex = parts.firstIndex(where: { $0.hasPrefix("@") }) else {
            self.init(literal: parts)
            return
        }
        let name = String(parts[operatorIndex].dropFirst())
        guard let op = CollectionOperator(rawValue: name) else {
            let suggestion =
                closestMatch(to: name, in: CollectionOperator.allCases.map(\.rawValue)).map { " (did you mean '@\($0)'?)" } ?? ""
            throw KeyPathError(message: "unknown collection operator '@\(name)' in '\(text)'\(suggestion)")
        }
        let rest = Array(parts[(operatorIndex + 1)...])
        if let nested = rest.first(where: { $0.hasPrefix("@") }) {
            throw KeyPathError(message: "key path '\(text)' has a second collection operator '\(nested)'")
        }
        if op == .count, !rest.isEmpty {
            throw KeyPathError(message: "'@count' ends a key path; '\(text)' goes on after it")
        }
        if op != .count, rest.isEmpty {
            throw KeyPathError(message: "'@\(name)' needs a key after it, as in '@\(name).amount'")
        }
        self.init(keys: Array(parts[..<operatorIndex]), collectionOperator: op, operatorKeys: rest)
    }

    private init(keys: [String], collectionOperator: CollectionOperator?, operatorKeys: [String]) {
        self.keys = keys
        self.collectionOperator = collectionOperator
        self.operatorKeys = operatorKeys
    }

    /// The dotted form, as a mapping would write it.
    public var description: String {
        var parts = keys
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
