/// Writes a JSON document token by token into a byte buffer: `seeder`'s own documents (the
/// `--report` and `--json` document, `diff --format json`, `inspect --json`, the mapping
/// description), each in the layout docs/commands.md and docs/seed.md show.
///
/// The writer places the commas and colons; keys come in the order they are written, so a
/// document's key order is the order of its code. Strings are escaped as `JSONWriter` escapes
/// them. A long document is written in parts: take `bytes` out with `removeBytes()` and go on
/// writing, the commas still placed.
///
///     var json = JSONStreamWriter()
///     json.object { json in
///         json.member("name", "Blake")
///         json.lineBreak()
///         json.member("tags") { json in json.array(["a", "b"]) }
///     }
///     json.text  // {"name":"Blake",\n"tags":["a","b"]}
public struct JSONStreamWriter {
    /// The text written so far (since the last `removeBytes()`), UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Something was written at this level: the next key or element takes a comma.
    private var needsComma = false
    /// The next key, element or closing bracket starts on a new line (`lineBreak()`).
    private var breaksLine = false

    public init() {}

    /// A writer that goes on with an array whose earlier elements were written elsewhere (`true`:
    /// the first element it writes takes a comma).
    public init(afterElement: Bool) {
        needsComma = afterElement
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Empties `bytes`, keeping their memory and where the document is.
    public mutating func removeBytes() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Empties `bytes` and starts a new document, as `init(afterElement:)` does.
    public mutating func reset(afterElement: Bool = false) {
        removeBytes()
        needsComma = afterElement
        breaksLine = false
    }

    /// Puts the next key, element or closing bracket at the start of a new line, after its comma.
    public mutating func lineBreak() {
        breaksLine = true
    }

    // MARK: Structure

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// An object whose members `body` writes.
    public mutating func object(_ body: (inout JSONStreamWriter) throws -> Void) rethrows {
        beginObject()
        try body(&self)
        endObject()
    }

    /// An array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONStreamWriter) throws -> Void) rethrows {
        beginArray()
        try body(&self)
        endArray()
    }

    /// An object member's key; its value is what is written next.
    public mutating func key(_ name: String) {
        separate()
        JSONWriter.writeString(name.utf8, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    /// A string, or `null` for `nil`.
    public mutating func value(_ text: String?) {
        separate()
        if let text { JSONWriter.writeString(text.utf8, into: &bytes) } else { bytes += Self.null }
        needsComma = true
    }

    /// A number, or `null` for `nil`.
    public mutating func value<Number: BinaryInteger>(_ number: Number?) {
        raw(number.map { String($0) } ?? "null")
    }

    public mutating func value(_ flag: Bool) {
        raw(flag ? "true" : "false")
    }

    public mutating func null() {
        raw("null")
    }

    /// Text that is JSON already (a number's digits, a stored document), written as it is.
    public mutating func raw(_ json: String) {
        separate()
        bytes += json.utf8
        needsComma = true
    }

    /// An array of strings.
    public mutating func array(_ strings: [String]) {
        array { json in for string in strings { json.value(string) } }
    }

    /// A member whose value is a string, or `null` for `nil`.
    public mutating func member(_ key: String, _ text: String?) {
        self.key(key)
        value(text)
    }

    /// A member whose value is a number, or `null` for `nil`.
    public mutating func member<Number: BinaryInteger>(_ key: String, _ number: Number?) {
        self.key(key)
        value(number)
    }

    public mutating func member(_ key: String, _ flag: Bool) {
        self.key(key)
        value(flag)
    }

    /// A member whose value `body` writes.
    public mutating func member(_ key: String, _ body: (inout JSONStreamWriter) throws -> Void) rethrows {
        self.key(key)
        try body(&self)
    }

    /// A member whose value is an array of one object per element of `elements`, whose members
    /// `body` writes.
    public mutating func member<Elements: Sequence>(
        _ key: String, objects elements: Elements, _ body: (inout JSONStreamWriter, Elements.Element) throws -> Void
    ) rethrows {
        self.key(key)
        try array { json in
            for element in elements { try json.object { try body(&$0, element) } }
        }
    }

    // MARK: Separators

    private static let null = Array("null".utf8)

    /// The comma and line break due before a key or element.
    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        if breaksLine {
            bytes.append(UInt8(ascii: "\n"))
            breaksLine = false
        }
    }

    private mutating func close(_ bracket: UInt8) {
        if breaksLine {
            bytes.append(UInt8(ascii: "\n"))
            breaksLine = false
        }
        bytes.append(bracket)
        needsComma = true
    }
}
