#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Parses one JSON value from bytes into a tape of `JSONNode`s, with RFC 8259's rules exactly.
///
/// Iterative (an explicit stack, never the machine stack), so nesting is limited by
/// `maxDepth` and not by the thread's stack. Strings are scanned eight bytes at a time.
/// When the bytes end inside a value and more may come, it throws `.needMore`: the reader
/// refills its buffer and parses the value again from its start.
struct JSONParser {
    /// Why a parse stopped.
    enum Failure: Error {
        /// The bytes ended inside the value and the input has more.
        case needMore
        /// Not JSON; the offset is into the bytes given to the parser.
        case syntax(JSONSyntaxError)
    }

    /// Nesting limit (docs/mapping.md: "nesting deeper than 512 levels" is an error).
    static let maxDepth = 512

    /// Open containers, as node indices; kept between calls to avoid allocating.
    private var stack: [Int] = []

    /// Parses the value that starts at `start` (no whitespace before it) into `nodes`, with
    /// offsets relative to `start`; returns the offset just past the value.
    ///
    /// `depth` is the nesting of the value in its file, counted against `maxDepth`.
    mutating func parseValue(
        _ p: UnsafePointer<UInt8>, from start: Int, to n: Int, atEnd: Bool, depth: Int = 0, nodes: inout [JSONNode]
    ) throws(Failure) -> Int {
        nodes.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        var i = start

        @inline(__always) func relative(_ position: Int) -> UInt32 { UInt32(truncatingIfNeeded: position - start) }

        @inline(__always) func endOfInput(_ what: String, at position: Int) -> Failure {
            atEnd ? Self.error(position, what) : .needMore
        }

        value: while true {
            guard i < n else { throw endOfInput("unexpected end of input, expected a value", at: i) }
            let index = nodes.count
            let byte = p[i]
            switch byte {
            case UInt8(ascii: "\""):
                let (close, escaped) = try Self.scanString(p, i, n, atEnd)
                nodes.append(
                    JSONNode(
                        kind: .string, flags: escaped ? JSONNode.escaped : 0, start: relative(i),
                        length: UInt32(truncatingIfNeeded: close - i - 1), end: UInt32(index + 1)))
                i = close + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth + stack.count < Self.maxDepth else {
                    throw Self.error(i, "nesting deeper than \(Self.maxDepth) levels")
                }
                let isObject = byte == UInt8(ascii: "{")
                nodes.append(JSONNode(kind: isObject ? .object : .array, flags: 0, start: relative(i), length: 0, end: 0))
                stack.append(index)
                i = try skipWhitespace(p, i + 1, n, atEnd)
                guard i < n else { throw endOfInput("unexpected end of input in \(isObject ? "object" : "array")", at: i) }
                if p[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    try close(p, start: start, at: i, nodes: &nodes)
                } else {
                    if isObject { i = try parseKey(p, i, n, atEnd, start: start, nodes: &nodes) }
                    continue value
                }
            case UInt8(ascii: "t"):
                i = try Self.literal(p, i, n, atEnd, "true", .true, start: start, nodes: &nodes)
            case UInt8(ascii: "f"):
                i = try Self.literal(p, i, n, atEnd, "false", .false, start: start, nodes: &nodes)
            case UInt8(ascii: "n"):
                i = try Self.literal(p, i, n, atEnd, "null", .null, start: start, nodes: &nodes)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (end, integral) = try Self.scanNumber(p, i, n, atEnd)
                nodes.append(
                    JSONNode(
                        kind: .number, flags: integral ? JSONNode.integral : 0, start: relative(i),
                        length: UInt32(truncatingIfNeeded: end - i), end: UInt32(index + 1)))
                i = end
            default:
                throw Self.unexpected(p, i, n, atEnd, ", expected a value")
            }

            // After a value: close containers until one wants another element.
            while let top = stack.last {
                i = try skipWhitespace(p, i, n, atEnd)
                guard i < n else {
                    throw endOfInput("unexpected end of input in \(nodes[top].kind == .object ? "object" : "array")", at: i)
                }
                let isObject = nodes[top].kind == .object
                switch p[i] {
                case UInt8(ascii: ","):
                    let comma = i
                    i = try skipWhitespace(p, i + 1, n, atEnd)
                    guard i < n else { throw endOfInput("unexpected end of input after ','", at: i) }
                    if p[i] == UInt8(ascii: "]") || p[i] == UInt8(ascii: "}") {
                        throw Self.error(comma, "trailing comma")
                    }
                    if isObject { i = try parseKey(p, i, n, atEnd, start: start, nodes: &nodes) }
                    continue value
                case isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"):
                    i += 1
                    try close(p, start: start, at: i, nodes: &nodes)
                default:
                    throw Self.unexpected(p, i, n, atEnd, ", expected ',' or '\(isObject ? "}" : "]")'")
                }
            }
            guard i - start <= Int(UInt32.max) else {
                throw Self.error(start, "a single JSON value larger than 4 GiB is not supported")
            }
            return i
        }
    }

    /// Parses `"key" :` and the whitespace after it; returns the offset of the member's value.
    @inline(__always)
    private mutating func parseKey(
        _ p: UnsafePointer<UInt8>, _ position: Int, _ n: Int, _ atEnd: Bool, start: Int, nodes: inout [JSONNode]
    ) throws(Failure) -> Int {
        guard p[position] == UInt8(ascii: "\"") else {
            throw Self.unexpected(p, position, n, atEnd, ", expected a string key")
        }
        let (close, escaped) = try Self.scanString(p, position, n, atEnd)
        let index = nodes.count
        nodes.append(
            JSONNode(
                kind: .string, flags: escaped ? JSONNode.escaped : 0,
                start: UInt32(truncatingIfNeeded: position - start),
                length: UInt32(truncatingIfNeeded: close - position - 1), end: UInt32(index + 1)))
        var i = try skipWhitespace(p, close + 1, n, atEnd)
        guard i < n else { throw atEnd ? Self.error(i, "unexpected end of input, expected ':'") : .needMore }
        guard p[i] == UInt8(ascii: ":") else {
            throw Self.unexpected(p, i, n, atEnd, ", expected ':' after the key")
        }
        i = try skipWhitespace(p, i + 1, n, atEnd)
        return i
    }

    /// Ends the innermost open container, whose closing bracket ends just before `end`.
    @inline(__always)
    private mutating func close(_ p: UnsafePointer<UInt8>, start: Int, at end: Int, nodes: inout [JSONNode]) throws(Failure) {
        let top = stack.removeLast()
        nodes[top].length = UInt32(truncatingIfNeeded: end - start) - nodes[top].start
        nodes[top].end = UInt32(nodes.count)
        if nodes[top].kind == .object {
            try Self.checkDuplicateKeys(of: top, in: nodes, p, start: start)
        }
    }

    @inline(__always)
    private func skipWhitespace(_ p: UnsafePointer<UInt8>, _ position: Int, _ n: Int, _ atEnd: Bool) throws(Failure) -> Int {
        Self.skipWhitespace(p, from: position, to: n)
    }

    /// Skips JSON whitespace (space, tab, line feed, carriage return).
    static func skipWhitespace(_ p: UnsafePointer<UInt8>, from position: Int, to n: Int) -> Int {
        var i = position
        while i < n, p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09 { i += 1 }
        return i
    }

    /// 3 when the bytes start with a UTF-8 byte-order mark, else 0.
    static func skipByteOrderMark(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
        n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0
    }

    // MARK: Scalars

    /// Scans a string from its opening quote; returns the offset of the closing quote and
    /// whether the string holds escapes. Validates UTF-8, escapes and surrogate pairs.
    @inline(__always)
    static func scanString(_ p: UnsafePointer<UInt8>, _ open: Int, _ n: Int, _ atEnd: Bool) throws(Failure) -> (Int, Bool) {
        var i = open + 1
        var escaped = false
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while true {
            // Eight plain bytes at a time: none below 0x20, none above 0x7F, no quote, no backslash.
            while i + 8 <= n {
                let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                let control = (word &- ones &* 0x20) & ~word
                let quotes = word ^ (ones &* 0x22)
                let quote = (quotes &- ones) & ~quotes
                let backslashes = word ^ (ones &* 0x5C)
                let backslash = (backslashes &- ones) & ~backslashes
                if (control | quote | backslash | word) & highs != 0 { break }
                i += 8
            }
            while i < n {
                let byte = p[i]
                if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    i += 1
                } else {
                    break
                }
            }
            guard i < n else { throw atEnd ? error(open, "unterminated string") : .needMore }
            let byte = p[i]
            if byte == UInt8(ascii: "\"") {
                return (i, escaped)
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                i = try scanEscape(p, i, n, atEnd)
            } else if byte < 0x20 {
                throw error(i, "control character U+\(hex4(UInt16(byte))) must be escaped in a string")
            } else {
                i = try scanUTF8(p, i, n, atEnd)
            }
        }
    }

    /// Validates the escape at `i` (a backslash); returns the offset after it.
    private static func scanEscape(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, _ atEnd: Bool) throws(Failure) -> Int {
        guard i + 1 < n else { throw atEnd ? error(i, "unterminated string") : .needMore }
        switch p[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            let unit = try hexUnit(p, i, n, atEnd)
            if unit >= 0xDC00, unit <= 0xDFFF {
                throw error(i, "lone surrogate escape \\u\(hex4(unit))")
            }
            guard unit >= 0xD800, unit <= 0xDBFF else { return i + 6 }
            guard i + 7 < n || atEnd else { throw .needMore }
            guard i + 7 < n, p[i + 6] == UInt8(ascii: "\\"), p[i + 7] == UInt8(ascii: "u") else {
                throw error(i, "lone surrogate escape \\u\(hex4(unit))")
            }
            let low = try hexUnit(p, i + 6, n, atEnd)
            guard low >= 0xDC00, low <= 0xDFFF else { throw error(i, "lone surrogate escape \\u\(hex4(unit))") }
            return i + 12
        default:
            if !atEnd, mayBeCut(p, i + 1, n) { throw .needMore }
            let escaped = describe(p, i + 1, n)
            throw error(
                i, escaped.hasPrefix("'") ? "invalid escape '\\\(escaped.dropFirst())" : "invalid escape: '\\' followed by \(escaped)")
        }
    }

    /// The code unit of the `\uXXXX` escape at `i`.
    private static func hexUnit(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, _ atEnd: Bool) throws(Failure) -> UInt16 {
        guard i + 6 <= n else { throw atEnd ? error(i, "invalid escape: \\u needs four hex digits") : .needMore }
        var unit: UInt16 = 0
        for k in 2..<6 {
            let byte = p[i + k]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(i, "invalid escape: \\u needs four hex digits")
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// Validates the multi-byte UTF-8 sequence at `i`; returns the offset after it.
    @inline(__always)
    static func scanUTF8(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, _ atEnd: Bool) throws(Failure) -> Int {
        let lead = p[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default: throw error(i, "invalid UTF-8 byte 0x\(String(lead, radix: 16, uppercase: true))")
        }
        guard i + length <= n else {
            if !atEnd { throw .needMore }
            throw error(i, "invalid UTF-8: truncated sequence")
        }
        guard p[i + 1] >= low, p[i + 1] <= high else { throw error(i, "invalid UTF-8 sequence") }
        for k in 2..<length where p[i + k] & 0xC0 != 0x80 {
            throw error(i, "invalid UTF-8 sequence")
        }
        return i + length
    }

    /// Scans a number per RFC 8259's grammar; returns its end and whether it is integral.
    @inline(__always)
    static func scanNumber(_ p: UnsafePointer<UInt8>, _ start: Int, _ n: Int, _ atEnd: Bool) throws(Failure) -> (Int, Bool) {
        var i = start
        @inline(__always) func isDigit(_ k: Int) -> Bool { p[k] &- UInt8(ascii: "0") < 10 }
        @inline(__always) func more() -> Failure { atEnd ? error(start, "unexpected end of input in a number") : .needMore }
        if p[i] == UInt8(ascii: "-") {
            i += 1
            guard i < n else { throw more() }
        }
        if p[i] == UInt8(ascii: "0") {
            i += 1
            if i < n, isDigit(i) { throw error(start, "leading zeros are not allowed in a number") }
        } else if isDigit(i) {
            while i < n, isDigit(i) { i += 1 }
        } else {
            throw error(start, "invalid number: a digit must follow '-'")
        }
        var integral = true
        if i < n, p[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            guard i < n else { throw more() }
            guard isDigit(i) else { throw error(start, "invalid number: a digit must follow '.'") }
            while i < n, isDigit(i) { i += 1 }
        }
        if i < n, p[i] | 0x20 == UInt8(ascii: "e") {
            integral = false
            i += 1
            guard i < n else { throw more() }
            if p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") {
                i += 1
                guard i < n else { throw more() }
            }
            guard isDigit(i) else { throw error(start, "invalid number: the exponent needs digits") }
            while i < n, isDigit(i) { i += 1 }
        }
        // A number running to the end of the buffer may go on in the next block.
        if i == n, !atEnd { throw .needMore }
        return (i, integral)
    }

    /// Matches `true`, `false` or `null` at `i`.
    @inline(__always)
    private static func literal(
        _ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, _ atEnd: Bool, _ word: StaticString, _ kind: JSONKind,
        start: Int, nodes: inout [JSONNode]
    ) throws(Failure) -> Int {
        let count = word.utf8CodeUnitCount
        let text = word.utf8Start
        for k in 0..<count {
            guard i + k < n else { throw atEnd ? error(i, "unexpected end of input in '\(word)'") : .needMore }
            guard p[i + k] == text[k] else { throw error(i, "unexpected \(describe(p, i, n)), expected a value") }
        }
        let index = nodes.count
        nodes.append(
            JSONNode(
                kind: kind, flags: 0, start: UInt32(truncatingIfNeeded: i - start),
                length: UInt32(count), end: UInt32(index + 1)))
        return i + count
    }

    // MARK: Helpers

    /// Decodes the escapes of a string's validated content into UTF-8.
    static func unescape(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        func hex(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for k in 0..<4 {
                let byte = text[at + k]
                let digit: UInt8 = byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while i < text.count {
            let byte = text[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            let kind = text[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex(i)
                i += 4
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    let low = hex(i + 2)
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: utf8Bytes(of: Unicode.Scalar(scalar)!))
            default: out.append(kind)
            }
        }
        return out
    }

    /// A short description of the byte at `i` for messages: `'x'`, `end of input`, `byte 0xFF`.
    static func describe(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> String {
        guard i < n else { return "end of input" }
        let byte = p[i]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80 {
            // Show a whole valid scalar (a curly quote, say) rather than its first byte.
            var end = i + 1
            while end < n, end < i + 4, p[end] & 0xC0 == 0x80 { end += 1 }
            if let text = String(validating: UnsafeBufferPointer(start: p + i, count: end - i), as: UTF8.self) {
                return "'\(text)'"
            }
        }
        return "byte 0x\(hex2(byte))"
    }

    /// An "unexpected ..." error at `i`; `.needMore` instead when more bytes may come and a
    /// UTF-8 sequence there may be cut by the end of these, so the message names it whole
    /// whatever the reader's block size.
    static func unexpected(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int, _ atEnd: Bool, _ context: String) -> Failure {
        if !atEnd, mayBeCut(p, i, n) { return .needMore }
        return error(i, "unexpected \(describe(p, i, n))\(context)")
    }

    /// Whether the byte at `i` starts a UTF-8 sequence that may run past `n`.
    static func mayBeCut(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        i >= n || (p[i] >= 0x80 && i + 4 > n)
    }

    static func error(_ offset: Int, _ message: String) -> Failure {
        .syntax(JSONSyntaxError(offset: offset, message: message))
    }
}

/// The UTF-8 bytes of a scalar.
func utf8Bytes(of scalar: Unicode.Scalar) -> [UInt8] {
    var bytes: [UInt8] = []
    UTF8.encode(scalar) { bytes.append($0) }
    return bytes
}

func hex4(_ value: UInt16) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - text.count) + text
}

func hex2(_ value: UInt8) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return text.count == 1 ? "0" + text : text
}
