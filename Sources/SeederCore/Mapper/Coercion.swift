import Foundation

/// Why a value does not fit its attribute's type: the part of the message after the
/// attribute's name (`is "7a", expected integer`).
struct CoercionFailure: Error, Equatable {
    var message: String
}

/// Turns a JSON value into the SQLite value of an attribute's type, with exactly the
/// coercions of docs/mapping.md's type table and an error for everything else: nothing is
/// truncated or silently dropped.
package struct Coercion {
    private let patterns = PatternDateParser()

    /// The stored value of `value` for `attribute`; `null` stays `null`. (Defaults and `values`
    /// of the mapping, and tests.)
    func coerce(_ value: JSONValue, to attribute: Attribute) throws(CoercionFailure) -> SQLValue {
        try withUnsafePointer(to: attribute) { attribute throws(CoercionFailure) in try coerce(value, to: attribute) }
    }

    // From here on the attribute is read through a pointer: the mapper passes one into its
    // entity's attributes, where an `Attribute` passed by value would be retained and released
    // for every field of every record.

    /// The stored value of what a key path reached for `attribute`; `null` stays `null`.
    func coerce(_ value: MappedValue, to attribute: UnsafePointer<Attribute>) throws(CoercionFailure) -> SQLValue {
        switch value {
        case .absent, .null:
            return .null
        case let .number(number):
            return try coerceNumber(number, text: number.description, to: attribute)
        case let .list(items):
            guard attribute.pointee.type == .json else {
                throw CoercionFailure(message: "is a list of \(items.count) values, which only a json attribute can store")
            }
            return .text(Self.listJSON(items))
        case let .json(json), let .fileText(json):
            return try coerce(json, to: attribute)
        }
    }

    /// The stored value of a JSON value for `attribute`; `null` stays `null`.
    func coerce(_ value: JSONValue, to attribute: UnsafePointer<Attribute>) throws(CoercionFailure) -> SQLValue {
        let document = value.document
        if let common = commonValue(at: value.index, nodes: document.nodes, bytes: document.bytes, to: attribute) { return common }
        return try coerceInFull(value, to: attribute)
    }

    /// `coerce` without `commonValue`: every row of docs/mapping.md's type table, each rejection
    /// with its message. (`commonValue` must agree with it wherever it answers; a test holds
    /// the two together.)
    func coerceInFull(_ value: JSONValue, to attribute: UnsafePointer<Attribute>) throws(CoercionFailure) -> SQLValue {
        let type = attribute.pointee.type
        if value.isNull { return .null }
        func mismatch(_ expected: String = type.rawValue) -> CoercionFailure {
            CoercionFailure(message: "is \(describe(value)), expected \(expected)")
        }
        switch type {
        case .json:
            return .text(JSONWriter.minified(value))
        case .string:
            switch value.kind {
            case .string: return .text(value.string!)
            case .number, .true, .false: return .text(JSONWriter.minified(value))
            default: throw mismatch()
            }
        case .integer, .real, .decimal:
            guard value.kind == .number || value.kind == .string else { throw mismatch() }
            guard let number = value.decimalNumber else {
                // A URL or path holding the number (`/api/v2/type/18/`): say how to take it out.
                let inText = value.string.map { $0.contains("/") && $0.contains(where: \.isNumber) } ?? false
                throw mismatch(inText ? "\(type.rawValue) (to take the number out of text, add 'match:')" : type.rawValue)
            }
            return try coerceNumber(number, text: describe(value), to: attribute)
        case .boolean:
            switch value.kind {
            case .true: return .integer(1)
            case .false: return .integer(0)
            case .number:
                if let number = value.decimalNumber, number.isIntegral, let integer = number.int64, integer == 0 || integer == 1 {
                    return .integer(integer)
                }
                throw mismatch("boolean (true, false, 0 or 1)")
            case .string:
                switch value.string!.lowercased() {
                case "true", "yes", "t", "y", "1": return .integer(1)
                case "false", "no", "f", "n", "0": return .integer(0)
                default: throw mismatch("boolean (true, false, yes, no, t, f, y, n, 1 or 0)")
                }
            default: throw mismatch()
            }
        case .date:
            return try coerceDate(value, to: attribute)
        case .url:
            guard let text = value.string else { throw mismatch() }
            guard Self.isAbsoluteURL(text) else { throw mismatch("an absolute URL") }
            return .text(text)
        case .uuid:
            guard let text = value.string else { throw mismatch() }
            guard let canonical = Self.canonicalUUID(text) else { throw mismatch("a UUID (8-4-4-4-12 hex digits)") }
            return .text(canonical)
        case .data:
            guard let text = value.string else { throw mismatch() }
            guard let bytes = Self.base64Decoded(text) else { throw mismatch("base64 data") }
            return .blob(bytes)
        }
    }

    /// `coerce` for the common cases, over the value at tape index `index` of a document's
    /// `nodes` and `bytes`, read in place (a `JSONValue` would retain and release its document for
    /// every field of every record): plain strings, small integers, finite reals,
    /// Booleans, ISO 8601 dates and URLs. `nil` for anything else and for anything `coerce`
    /// would reject, which `coerceInFull` then does, with its message.
    ///
    /// Always inlined: the mapper calls it for almost every field, and inlined into its loop it
    /// shares that loop's work. (`@_transparent`: the optimizer does not honour
    /// `@inline(__always)` here.)
    @_transparent
    func commonValue(at index: Int, nodes: [JSONNode], bytes: [UInt8], to attribute: UnsafePointer<Attribute>) -> SQLValue? {
        let node = nodes[index]
        let isPlainString = node.kind == .string && node.flags & JSONNode.escaped == 0
        return bytes.withUnsafeBufferPointer { bytes -> SQLValue? in
            let start = Int(node.start) + (node.kind == .string ? 1 : 0)
            let text = UnsafeBufferPointer(rebasing: bytes[start..<(start + Int(node.length))])
            switch attribute.pointee.type {
            case .string:
                return isPlainString ? .text(String(decoding: text, as: UTF8.self)) : nil
            case .integer:
                guard node.kind == .number, node.flags & JSONNode.integral != 0 else { return nil }
                return Self.smallInteger(text).map(SQLValue.integer)
            case .real:
                return node.kind == .number ? Self.finiteDouble(text).map(SQLValue.real) : nil
            case .boolean:
                return node.kind == .true ? .integer(1) : node.kind == .false ? .integer(0) : nil
            case .date:
                guard isPlainString, case .iso8601 = attribute.pointee.dateFormat,
                    let milliseconds = DateCoding.parseISO8601(text, zone: attribute.pointee.timeZone)
                else { return nil }
                // Out of range: `coerce` says so, with the value in its message.
                return try? store(milliseconds, text: "", attribute: attribute)
            case .url:
                return isPlainString && Self.isAbsoluteURL(text) ? .text(String(decoding: text, as: UTF8.self)) : nil
            case .json, .decimal, .uuid, .data:
                return nil
            }
        }
    }

    private func coerceNumber(
        _ number: DecimalNumber, text: @autoclosure () -> String, to attribute: UnsafePointer<Attribute>
    ) throws(CoercionFailure) -> SQLValue {
        switch attribute.pointee.type {
        case .integer:
            guard number.isIntegral else { throw CoercionFailure(message: "is \(text()), expected integer (it has a fraction)") }
            guard let integer = number.int64 else {
                throw CoercionFailure(message: "is \(text()), past the 64-bit integer range")
            }
            return .integer(integer)
        case .real:
            guard let double = number.double else { throw CoercionFailure(message: "is \(text()), out of range for real") }
            return .real(double)
        case .decimal:
            guard number.canonicalLength <= DecimalNumber.maxCanonicalLength else {
                throw CoercionFailure(message: "is \(text()), longer than \(DecimalNumber.maxCanonicalLength) digits as a decimal")
            }
            return .text(number.description)
        case .string, .json:
            return .text(number.description)
        case .boolean:
            if number.isIntegral, let integer = number.int64, integer == 0 || integer == 1 { return .integer(integer) }
            throw CoercionFailure(message: "is \(text()), expected boolean (true, false, 0 or 1)")
        case .date:
            return try storeDate(fromNumber: number, text: text(), attribute: attribute)
        case .url, .uuid, .data:
            throw CoercionFailure(message: "is \(text()), expected \(attribute.pointee.type.rawValue)")
        }
    }

    // MARK: Dates

    private func coerceDate(_ value: JSONValue, to attribute: UnsafePointer<Attribute>) throws(CoercionFailure) -> SQLValue {
        switch attribute.pointee.dateFormat {
        case .iso8601:
            // Read as the string decodes: an encoder may escape any character (`\u002B` for `+`).
            let zone = attribute.pointee.timeZone
            guard value.kind == .string,
                let milliseconds = value.node.flags & JSONNode.escaped == 0
                    ? value.withBytes({ DateCoding.parseISO8601($0, zone: zone) })
                    : value.unescapedBytes().withUnsafeBufferPointer({ DateCoding.parseISO8601($0, zone: zone) })
            else {
                throw CoercionFailure(message: "is \(describe(value)), expected an ISO 8601 date")
            }
            return try store(milliseconds, text: describe(value), attribute: attribute)
        case .unix, .unixMilliseconds, .unixMicroseconds, .unixNanoseconds:
            guard let number = value.decimalNumber else {
                throw CoercionFailure(message: "is \(describe(value)), expected \(Self.dateExpectation(attribute.pointee.dateFormat))")
            }
            return try storeDate(fromNumber: number, text: describe(value), attribute: attribute)
        case let .pattern(pattern):
            guard let text = value.string,
                let milliseconds = patterns.parse(text, pattern: pattern, zone: attribute.pointee.timeZone)
            else {
                throw CoercionFailure(message: "is \(describe(value)), expected a date like '\(pattern)'")
            }
            return try store(milliseconds, text: describe(value), attribute: attribute)
        }
    }

    private func storeDate(
        fromNumber number: DecimalNumber, text: @autoclosure () -> String, attribute: UnsafePointer<Attribute>
    ) throws(CoercionFailure) -> SQLValue {
        var milliseconds = number
        // Scaled to milliseconds by the exponent, exactly; a finer unit's digits past the
        // millisecond become a fraction that `floorMilliseconds` drops toward the past.
        switch attribute.pointee.dateFormat {
        case .unix:
            if !milliseconds.isZero { milliseconds.exponent += 3 }
        case .unixMilliseconds:
            break
        case .unixMicroseconds:
            if !milliseconds.isZero { milliseconds.exponent -= 3 }
        case .unixNanoseconds:
            if !milliseconds.isZero { milliseconds.exponent -= 6 }
        case .iso8601, .pattern:
            throw CoercionFailure(message: "is \(text()), expected \(Self.dateExpectation(attribute.pointee.dateFormat))")
        }
        return try store(Self.floorMilliseconds(milliseconds, text: text()), text: text(), attribute: attribute)
    }

    private static func floorMilliseconds(_ number: DecimalNumber, text: @autoclosure () -> String) throws(CoercionFailure) -> Int64 {
        var integral = number
        if !number.isIntegral {
            // Drop the fraction, then step toward the past for negatives.
            let keep = number.digits.count + number.exponent
            integral =
                keep <= 0
                ? .zero
                : DecimalNumber(normalizing: Array(number.digits[..<keep]), exponent: 0, isNegative: number.isNegative)
            if number.isNegative { integral = integral + DecimalNumber(-1) }
        }
        guard let milliseconds = integral.int64, abs(milliseconds) < 253_402_300_800_000 else {
            throw CoercionFailure(message: "is \(text()), out of the range of dates")
        }
        return milliseconds
    }

    private func store(
        _ milliseconds: Int64, text: @autoclosure () -> String, attribute: UnsafePointer<Attribute>
    ) throws(CoercionFailure) -> SQLValue {
        guard let stored = DateCoding.store(milliseconds: milliseconds, as: attribute.pointee.dateStorage) else {
            throw CoercionFailure(message: "is \(text()), outside the years 0000-9999")
        }
        return stored
    }

    private static func dateExpectation(_ format: DateFormat) -> String {
        switch format {
        case .iso8601: return "an ISO 8601 date"
        case .unix: return "a unix time in seconds"
        case .unixMilliseconds: return "a unix time in milliseconds"
        case .unixMicroseconds: return "a unix time in microseconds"
        case .unixNanoseconds: return "a unix time in nanoseconds"
        case let .pattern(pattern): return "a date like '\(pattern)'"
        }
    }

    // MARK: Scalars

    /// The integer of 1 to 18 digits (with an optional `-`) without allocating; `nil` otherwise.
    package static func smallInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var negative = false
        if text.first == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        let count = text.count - i
        guard count > 0, count <= 18 else { return nil }
        var value: Int64 = 0
        while i < text.count {
            let digit = text[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
            i += 1
        }
        return negative ? -value : value
    }

    /// Clinger's fast path: a number of at most 15 significant digits whose decimal exponent is
    /// within 22 of zero is an exact integer times or over an exact power of ten, so one IEEE
    /// multiplication or division rounds it correctly, as strtod would, for far less work; `nil`
    /// otherwise. Most prices, ratings and coordinates take this path.
    static func exactDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: Int64 = 0
        var digits = 0
        var exponent = 0
        var seenPoint = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + Int64(byte &- UInt8(ascii: "0"))
                if seenPoint { exponent -= 1 }
            } else {
                break
            }
            index += 1
        }
        if index < text.count {
            // An exponent: `e` or `E`, an optional sign, digits (RFC 8259).
            index += 1
            var sign = 1
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                if text[index] == UInt8(ascii: "-") { sign = -1 }
                index += 1
            }
            var written = 0
            while index < text.count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10, written < 1000 else { return nil }
                written = written * 10 + Int(digit)
                index += 1
            }
            exponent += sign * written
        }
        guard exponent >= -22, exponent <= 22 else { return nil }
        var power = 1.0
        for _ in 0..<abs(exponent) { power *= 10 }  // exact: 10^22 < 2^53 * 2^22
        let magnitude = exponent < 0 ? Double(mantissa) / power : Double(mantissa) * power
        return negative ? -magnitude : magnitude
    }

    /// The double nearest to RFC 8259 number text, by `strtod` (correctly rounded); `nil` past
    /// the range of a double.
    package static func finiteDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        if let exact = exactDouble(text) { return exact }
        guard text.count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            for index in 0..<text.count { buffer[index] = CChar(bitPattern: text[index]) }
            buffer[text.count] = 0
            let value = strtod(buffer.baseAddress!, nil)
            return value.isFinite ? value : nil
        }
    }

    /// RFC 3986's absolute URI (`scheme:rest`), with IRI characters (non-ASCII) allowed;
    /// no spaces, no bare `%`.
    package static func isAbsoluteURL(_ text: String) -> Bool {
        // Over the string's own bytes: a copy into an array would cost more than the check.
        var text = text
        return text.withUTF8(isAbsoluteURL)
    }

    private static func isAbsoluteURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Through a pointer, byte by byte, to the end: URLs can be long, and the collection's
        // `firstIndex` and a slice of the scheme cost several times as much a byte (bench/README.md).
        guard let p = bytes.baseAddress, bytes.count > 0, isAlpha(p[0]) else { return false }
        let n = bytes.count
        var index = 1
        while index < n, p[index] != UInt8(ascii: ":") {
            let byte = p[index]
            guard
                isAlpha(byte) || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            else { return false }
            index += 1
        }
        guard index < n else { return false }
        index += 1
        while index < n {
            let byte = p[index]
            if isURLCharacter(byte) {
                index += 1
            } else {
                guard byte == UInt8(ascii: "%"), index + 2 < n, isHex(p[index + 1]), isHex(p[index + 2]) else { return false }
                index += 3
            }
        }
        return true
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// A byte an absolute URL may hold as it is: RFC 3986's unreserved and reserved ASCII
    /// characters (a bit each in two 64-bit masks, for codes 0-63 and 64-127), and any byte of a
    /// non-ASCII character (IRI).
    @inline(__always)
    private static func isURLCharacter(_ byte: UInt8) -> Bool {
        if byte >= 0x80 { return true }
        let mask: UInt64 = byte < 64 ? 0xafff_ffda_0000_0000 : 0x47ff_fffe_afff_ffff
        return (mask >> UInt64(byte & 63)) & 1 != 0
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }

    /// `8-4-4-4-12` hex digits, any case, as lowercase; `nil` otherwise.
    package static func canonicalUUID(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
            } else {
                guard isHex(byte) else { return nil }
            }
        }
        return text.lowercased()
    }

    /// Standard base64 (RFC 4648 alphabet), padding optional, no whitespace.
    static func base64Decoded(_ text: String) -> [UInt8]? {
        var padded = text
        if padded.utf8.count % 4 == 2 { padded += "==" } else if padded.utf8.count % 4 == 3 { padded += "=" }
        return Data(base64Encoded: padded).map { Array($0) }
    }

    /// The JSON array text of a list of mapped values.
    static func listJSON(_ items: [MappedValue]) -> String {
        "["
            + items.map { item -> String in
                switch item {
                case .absent, .null: return "null"
                case let .json(value), let .fileText(value): return JSONWriter.minified(value)
                case let .number(number): return number.description
                case let .list(inner): return listJSON(inner)
                }
            }.joined(separator: ",") + "]"
    }
}
