/// What a key path reaches in a record. Not `indirect`: a list holds its items in an array
/// already, and an indirect case would box every reached value (one allocation per field).
enum MappedValue {
    /// The key is missing.
    case absent
    /// A JSON value of the record (`null` included).
    case json(JSONValue)
    /// A number computed by `@count`, `@sum` or `@avg`.
    case number(DecimalNumber)
    /// A null computed by an operator on an empty array (`@avg`, `@min`, `@max`).
    case null
    /// A key applied to an array (one value per element), or a union.
    case list([MappedValue])
    /// What a `*` of the source's path matched in the record's file (`@file.N`): a JSON string
    /// outside the record, coerced as any string is, and located at the record.
    case fileText(JSONValue)

    /// `true` for JSON `null` and computed nulls.
    var isNull: Bool {
        switch self {
        case .null: return true
        case let .json(value): return value.isNull
        default: return false
        }
    }
}

/// A key path that reached something its operator cannot use.
struct KeyPathFailure: Error {
    /// What is wrong.
    var message: String
    /// The offending JSON value, for its location.
    var value: JSONValue?
}

extension KeyPath {
    /// Evaluates the key path on a record with Key-Value Coding semantics: a key on an object
    /// reads the member, on an array maps over the elements, on `null` gives `null`, on
    /// anything else is absent.
    func evaluate(on record: JSONValue) throws(KeyPathFailure) -> MappedValue {
        if !filters.isEmpty, let picked = try picked(from: record, from: 0) { return picked }
        let reached = filters.isEmpty ? Self.follow(record, keys[...]) : try filtered(record, from: 0)
        guard let collectionOperator else { return reached }
        return try apply(collectionOperator, to: reached)
    }

    /// `evaluate(on:)` for a record whose member named by the first key is already found
    /// (`EntityPlan`'s key-path slots), `nil` when the record has none.
    func evaluate(firstMember member: JSONValue?) throws(KeyPathFailure) -> MappedValue {
        guard let member else { return .absent }
        if !filters.isEmpty, let picked = try picked(from: member, from: 1) { return picked }
        let reached = filters.isEmpty ? Self.follow(member, keys.dropFirst()) : try filtered(member, from: 1)
        guard let collectionOperator else { return reached }
        return try apply(collectionOperator, to: reached)
    }

    /// What the keys from `keys[first]` on reach from `value`, each `@where` applied where it
    /// stands. Only key paths with filters come here: the others keep `follow`'s one walk.
    private func filtered(_ value: JSONValue, from first: Int) throws(KeyPathFailure) -> MappedValue {
        var reached = MappedValue.json(value)
        var next = first
        for filter in filters {
            reached = Self.follow(reached, keys[next..<filter.position])
            next = filter.position
            reached = try Self.apply(filter, to: reached)
        }
        return Self.follow(reached, keys[next...])
    }

    /// `evaluate` of a key path whose last `@where` stands right before `@first`, `@last` or
    /// `@count` (`descriptions.@where(language.name = en).@first.text`) on an array: the element
    /// picked, or the count, without the list of elements kept; `@first` stops at the first.
    /// `nil` for any other key path or value, which `filtered` then takes.
    private func picked(from value: JSONValue, from first: Int) throws(KeyPathFailure) -> MappedValue? {
        guard let op = collectionOperator, op == .first || op == .last || op == .count, let filter = filters.last,
            filter.position == keys.count, filters.count == 1
        else { return nil }
        let reached = Self.follow(value, keys[first..<filter.position])
        guard case let .json(array) = reached, array.kind == .array else { return nil }
        var count: Int64 = 0
        var picked: JSONValue?
        filter.forEachKept(in: array) { element in
            count += 1
            picked = element
            return op != .first
        }
        if op == .count { return .number(DecimalNumber(count)) }
        return picked.map { Self.follow($0, operatorKeys[...]) } ?? .null
    }

    /// `follow` from what an earlier step reached: a list's items each follow the keys.
    private static func follow(_ value: MappedValue, _ keys: ArraySlice<String>) -> MappedValue {
        guard !keys.isEmpty else { return value }
        switch value {
        case let .json(json): return follow(json, keys)
        case let .list(items): return .list(items.map { follow($0, keys) })
        default: return value
        }
    }

    /// `@where`: the elements kept, as a list. As the collection operators do, absent stays
    /// absent, `null` stays `null`, and anything but an array (or a list) is an error; a list's
    /// item that is not a JSON value has no K.
    private static func apply(_ filter: KeyPathFilter, to reached: MappedValue) throws(KeyPathFailure) -> MappedValue {
        switch reached {
        case .absent, .null: return reached
        case .number: throw KeyPathFailure(message: "'\(filter)' needs an array, found a number")
        case .fileText: throw KeyPathFailure(message: "'\(filter)' needs an array, found a string")
        case let .list(items):
            return .list(items.filter { item in item.jsonValue.map(filter.keeps) ?? filter.negated })
        case let .json(value):
            switch value.kind {
            case .null: return reached
            case .array:
                var kept: [MappedValue] = []
                filter.forEachKept(in: value) { element in
                    kept.append(.json(element))
                    return true
                }
                return .list(kept)
            default: throw KeyPathFailure(message: "'\(filter)' needs an array, found \(describeKind(value.kind))", value: value)
            }
        }
    }

    /// The keys a record must have past the first for the key path to find every key: the
    /// rest of `keys`, then the operator's.
    var keysAfterFirst: [String] { Array(keys.dropFirst()) + operatorKeys }

    /// What a record must have past the first key for the key path to count as found: its keys
    /// (`keysAfterFirst`), and for each `@where` the keys up to it then its K, so that a typo in
    /// K (`@where(langauge.name = en)`) is warned about as a typo in the path is. Empty when the
    /// first key settles it.
    var keyListsAfterFirst: [[String]] {
        let path = keysAfterFirst
        return (path.isEmpty ? [] : [path]) + filters.map { Array(keys[1..<$0.position]) + $0.keys }
    }

    /// The `@where`s a record must have an element kept by for the key path to count as keeping
    /// one (docs/mapping.md, Picking entries): each with the keys from the first key's member to
    /// the array it filters. A condition whose value matches in no record (`language.name = eng`)
    /// is then warned about, as a key that matches nothing is.
    var filterChecks: [(keys: [String], filter: KeyPathFilter)] {
        filters.map { (Array(keys[1..<$0.position]), $0) }
    }

    /// `true` when `keys` from `value` reach an array (or arrays, through arrays) with an element
    /// `filter` keeps: `finds`, with the filter asked at the end.
    static func keeps(_ keys: ArraySlice<String>, _ filter: KeyPathFilter, in value: JSONValue) -> Bool {
        finds(keys, in: value) { end in
            // Where the filter meets no array its error at the value speaks (`needs an array`);
            // `null` gives null, as it does for every key path.
            guard end.kind == .array else { return end.kind != .null }
            var kept = false
            filter.forEachKept(in: end) { _ in
                kept = true
                return false
            }
            return kept
        }
    }

    /// `true` when `keys` (`keysAfterFirst`) are found from `value`, the member the first key
    /// names (docs/mapping.md, Unmapped keys and keys that match nothing): each key in the object
    /// the one before reached, or where that is an array in one of its elements. The value at the
    /// end may be anything, `null` included; a `null` or an empty array before the last key finds
    /// nothing.
    /// `end`, when given, must also hold for a value the last key reaches.
    static func finds(_ keys: ArraySlice<String>, in value: JSONValue, where end: (JSONValue) -> Bool = { _ in true }) -> Bool {
        guard let key = keys.first else { return end(value) }
        switch value.kind {
        case .object:
            guard let member = value[key] else { return false }
            return finds(keys.dropFirst(), in: member, where: end)
        case .array:
            return value.elements.contains { finds(keys, in: $0, where: end) }
        default:
            return false
        }
    }

    static func follow(_ value: JSONValue, _ keys: ArraySlice<String>) -> MappedValue {
        guard let key = keys.first else { return .json(value) }
        switch value.kind {
        case .object:
            guard let member = value[key] else { return .absent }
            return follow(member, keys.dropFirst())
        case .array:
            return .list(value.elements.map { follow($0, keys) })
        case .null:
            return .json(value)
        default:
            return .absent
        }
    }

    private func apply(_ op: CollectionOperator, to reached: MappedValue) throws(KeyPathFailure) -> MappedValue {
        if op == .first || op == .last { return try element(op, of: reached) }
        let items: [MappedValue]
        switch reached {
        case .absent: return .absent
        case .null: return .null
        case .number: throw KeyPathFailure(message: "'@\(op.rawValue)' needs an array, found a number")
        case .fileText: throw KeyPathFailure(message: "'@\(op.rawValue)' needs an array, found a string")
        case let .list(list): items = list
        case let .json(value):
            switch value.kind {
            case .null: return .json(value)
            case .array: items = value.elements.map { .json($0) }
            default: throw KeyPathFailure(message: "'@\(op.rawValue)' needs an array, found \(describeKind(value.kind))", value: value)
            }
        }
        if op == .count { return .number(DecimalNumber(Int64(items.count))) }
        let values = items.map { item -> MappedValue in
            if case let .json(value) = item { return Self.follow(value, operatorKeys[...]) }
            return item
        }.filter { !$0.isNull && !isAbsent($0) }
        let name = "@\(op.rawValue).\(operatorKeys.joined(separator: "."))"
        switch op {
        case .count:
            return .number(DecimalNumber(Int64(items.count)))
        case .sum, .avg:
            var total = DecimalNumber.zero
            for value in values { total = total + (try number(value, for: name)) }
            if op == .sum { return .number(total) }
            return values.isEmpty ? .null : .number(total.divided(by: values.count))
        case .min, .max:
            guard var best = values.first else { return .null }
            var bestKey = try orderKey(best, for: name)
            for value in values.dropFirst() {
                let key = try orderKey(value, for: name)
                if !key.sameKind(as: bestKey) {
                    throw KeyPathFailure(message: "'\(name)' compares numbers and strings together", value: value.jsonValue)
                }
                if op == .min ? key < bestKey : bestKey < key {
                    best = value
                    bestKey = key
                }
            }
            return best
        case .unionOfObjects:
            return .list(values)
        case .distinctUnionOfObjects:
            var seen = Set<String>()
            return .list(values.filter { seen.insert(canonicalText($0)).inserted })
        case .unionOfArrays, .distinctUnionOfArrays:
            var elements: [MappedValue] = []
            for value in values { elements += try arrayElements(value, for: name) }
            guard op == .distinctUnionOfArrays else { return .list(elements) }
            var seen = Set<String>()
            return .list(elements.filter { seen.insert(canonicalText($0)).inserted })
        case .first, .last:
            // Taken above, before the elements are made.
            return try element(op, of: reached)
        }
    }

    /// `@first.K` or `@last.K`: that element's K, null for an empty array. As the other
    /// operators, absent stays absent, `null` stays `null`, and anything but an array is an
    /// error; the element is taken as it is (a `null` element gives null, one that lacks K
    /// absent), without the array of elements the other operators make.
    private func element(_ op: CollectionOperator, of reached: MappedValue) throws(KeyPathFailure) -> MappedValue {
        let picked: MappedValue?
        switch reached {
        case .absent: return .absent
        case .null: return .null
        case .number: throw KeyPathFailure(message: "'@\(op.rawValue)' needs an array, found a number")
        case .fileText: throw KeyPathFailure(message: "'@\(op.rawValue)' needs an array, found a string")
        case let .list(items): picked = op == .first ? items.first : items.last
        case let .json(value):
            switch value.kind {
            case .null: return .json(value)
            case .array: picked = (op == .first ? value.firstElement : value.lastElement).map(MappedValue.json)
            default: throw KeyPathFailure(message: "'@\(op.rawValue)' needs an array, found \(describeKind(value.kind))", value: value)
            }
        }
        guard let picked else { return .null }
        guard case let .json(value) = picked else { return picked }
        return Self.follow(value, operatorKeys[...])
    }

    /// The elements of an array a union of arrays reached, nulls left out (as the unions of
    /// objects leave them out); anything but an array is an error.
    private func arrayElements(_ value: MappedValue, for name: String) throws(KeyPathFailure) -> [MappedValue] {
        switch value {
        case let .list(items):
            return items.filter { !$0.isNull && !isAbsent($0) }
        case let .json(json) where json.kind == .array:
            return json.elements.filter { !$0.isNull }.map { .json($0) }
        case let .json(json):
            throw KeyPathFailure(message: "'\(name)' needs arrays, found \(describe(json))", value: json)
        default:
            throw KeyPathFailure(message: "'\(name)' needs arrays, found a number")
        }
    }

    private func number(_ value: MappedValue, for name: String) throws(KeyPathFailure) -> DecimalNumber {
        switch value {
        case let .number(number): return number
        case let .json(json):
            if let number = json.decimalNumber { return number }
            throw KeyPathFailure(message: "'\(name)' needs numbers, found \(describe(json))", value: json)
        default:
            throw KeyPathFailure(message: "'\(name)' needs numbers, found an array")
        }
    }

    private func orderKey(_ value: MappedValue, for name: String) throws(KeyPathFailure) -> OrderKey {
        if case let .json(json) = value {
            // Numeric strings order as numbers, as they sum as numbers.
            if let number = json.decimalNumber { return .number(number) }
            if let string = json.string { return .string(Array(string.utf8)) }
            throw KeyPathFailure(message: "'\(name)' compares numbers or strings, found \(describe(json))", value: json)
        }
        if case let .number(number) = value { return .number(number) }
        throw KeyPathFailure(message: "'\(name)' compares numbers or strings, found an array")
    }
}

/// Numbers order by value, strings by code points; the two never mix.
private enum OrderKey: Comparable {
    case number(DecimalNumber)
    case string([UInt8])

    func sameKind(as other: OrderKey) -> Bool {
        switch (self, other) {
        case (.number, .number), (.string, .string): return true
        default: return false
        }
    }

    static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        switch (lhs, rhs) {
        case let (.number(a), .number(b)): return a < b
        case let (.string(a), .string(b)): return a.lexicographicallyPrecedes(b)
        default: return false
        }
    }
}

private func isAbsent(_ value: MappedValue) -> Bool {
    if case .absent = value { return true }
    return false
}

/// The text that makes two values the same for `@distinctUnionOfObjects`.
func canonicalText(_ value: MappedValue) -> String {
    switch value {
    case .absent, .null: return "null"
    case let .json(json):
        if json.kind == .number, let number = json.decimalNumber { return number.description }
        return JSONWriter.minified(json)
    case let .number(number): return number.description
    case let .list(items): return "[" + items.map(canonicalText).joined(separator: ",") + "]"
    case let .fileText(text): return JSONWriter.minified(text)
    }
}

extension JSONValue {
    /// An array's first element; `nil` when empty or not an array.
    var firstElement: JSONValue? {
        var elements = self.elements.makeIterator()
        return elements.next()
    }

    /// An array's last element; `nil` when empty or not an array.
    var lastElement: JSONValue? {
        var last: JSONValue?
        for element in elements { last = element }
        return last
    }

    /// A number (or a string holding JSON number text) read exactly. A string is read as it
    /// decodes: `"1e\u002B5"` is `"1e+5"` (escapes change the text, never the string).
    var decimalNumber: DecimalNumber? {
        switch kind {
        case .number, .string:
            if kind == .string, node.flags & JSONNode.escaped != 0 { return DecimalNumber(text: unescapedBytes()) }
            return withBytes { DecimalNumber(text: $0) }
        default:
            return nil
        }
    }
}

/// "an object", "a string", ... for messages.
public func describeKind(_ kind: JSONKind) -> String {
    switch kind {
    case .null: return "null"
    case .true, .false: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
}

/// A value as a message shows it: its JSON text, shortened.
func describe(_ value: JSONValue) -> String {
    switch value.kind {
    case .array, .object:
        let text = JSONWriter.minified(value)
        return text.count > 60 ? describeKind(value.kind) : text
    case .string:
        return quoted(value.string ?? "")
    default:
        return JSONWriter.minified(value)
    }
}

extension MappedValue {
    /// The JSON value reached, if it is one.
    var jsonValue: JSONValue? {
        if case let .json(value) = self { return value }
        return nil
    }

    /// Where the value stands, if it is a JSON value.
    var fileOffset: Int? { jsonValue?.fileOffset }

    /// The text of `@file.N`, if it is one.
    var fileText: JSONValue? {
        if case let .fileText(value) = self { return value }
        return nil
    }
}
