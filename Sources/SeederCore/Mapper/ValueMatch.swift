/// `match:` applied to a value (docs/mapping.md, Values inside text): the text of a string, a
/// number as the dump writes it, or an `@file.N` text, searched with the pattern; the part it
/// finds is coerced as a JSON string holding it would be. `null` and absent stay so.
extension Coercion {
    /// The stored value of what a record holds for `attribute`: through its `match` when it has
    /// one, else `coerce`.
    @inline(__always)
    func coerceField(_ value: JSONValue, to attribute: UnsafePointer<Attribute>) throws(CoercionFailure) -> SQLValue {
        guard let pattern = attribute.pointee.match else { return try coerce(value, to: attribute) }
        return try coerce(.json(value), matching: pattern, to: attribute)
    }

    /// `coerceField` for what a key path reached.
    func coerceField(_ value: MappedValue, to attribute: UnsafePointer<Attribute>) throws(CoercionFailure) -> SQLValue {
        guard let pattern = attribute.pointee.match else { return try coerce(value, to: attribute) }
        return try coerce(value, matching: pattern, to: attribute)
    }

    /// The stored value of the part of `value`'s text that `pattern` finds; an error naming the
    /// pattern and the value when it finds none, or when the value has no text (an object, an
    /// array, a Boolean).
    func coerce(_ value: MappedValue, matching pattern: TextPattern, to attribute: UnsafePointer<Attribute>) throws(CoercionFailure)
        -> SQLValue
    {
        switch value {
        case .absent, .null:
            return .null
        case let .number(number):
            let shown = number.description
            var text = shown
            return try text.withUTF8 { coerce($0, matching: pattern, shown: shown, to: attribute) }.get()
        case let .list(items):
            throw CoercionFailure(message: "is a list of \(items.count) values; 'match' reads one string or number")
        case let .json(json), let .fileText(json):
            if json.isNull { return .null }
            let node = json.node
            guard node.kind == .string || node.kind == .number else {
                throw CoercionFailure(message: "is \(describe(json)); 'match' reads a string or a number")
            }
            if node.kind == .string, node.flags & JSONNode.escaped != 0 {
                var text = json.string ?? ""
                return try text.withUTF8 { coerce($0, matching: pattern, shown: describe(json), to: attribute) }.get()
            }
            // The text in place: a string's bytes between its quotes, a number's as written.
            let start = Int(node.start) + (node.kind == .string ? 1 : 0)
            return try json.document.bytes.withUnsafeBufferPointer { bytes in
                let text = UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(node.length))])
                return coerce(text, matching: pattern, shown: describe(json), to: attribute)
            }.get()
        }
    }

    /// A `Result`, not a throw: the closures of `withUTF8` and `withUnsafeBufferPointer` rethrow
    /// untyped errors.
    private func coerce(
        _ text: UnsafeBufferPointer<UInt8>, matching pattern: TextPattern, shown: @autoclosure () -> String,
        to attribute: UnsafePointer<Attribute>
    ) -> Result<SQLValue, CoercionFailure> {
        // The reader's strings are UTF-8, checked as it read them; a number's text is ASCII.
        switch pattern.search(validUTF8: text) {
        case let .found(range):
            return Result { () throws(CoercionFailure) in try coerce(matched: UnsafeBufferPointer(rebasing: text[range]), to: attribute) }
        case .notFound:
            return .failure(CoercionFailure(message: "is \(shown()), which 'match' '\(pattern.source)' does not match"))
        case let .failed(reason):
            return .failure(CoercionFailure(message: "is \(shown()), which 'match' '\(pattern.source)' could not search: \(reason)"))
        }
    }

    /// The text a pattern found, coerced as the JSON string holding it: strings and plain
    /// integers (an id, the common case) directly, every other type through `coerceInFull`.
    private func coerce(matched text: UnsafeBufferPointer<UInt8>, to attribute: UnsafePointer<Attribute>) throws(CoercionFailure)
        -> SQLValue
    {
        switch attribute.pointee.type {
        case .string:
            return .text(String(decoding: text, as: UTF8.self))
        case .integer where text.first != UInt8(ascii: "0") || text.count == 1:
            // A leading zero (`007`) goes the full way, as the string "007" would.
            if let integer = Self.smallInteger(text) { return .integer(integer) }
        default:
            break
        }
        let literal = JSONWriter.stringLiteral(String(decoding: text, as: UTF8.self))
        // A string literal always parses.
        guard let document = try? JSONDocument(parsing: literal) else {
            throw CoercionFailure(message: "is \(literal), which is not JSON text")
        }
        return try coerceInFull(document.root, to: attribute)
    }
}
