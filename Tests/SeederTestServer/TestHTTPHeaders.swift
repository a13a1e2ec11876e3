/// The header fields of a request or a response: in the order they were written, a name possibly
/// more than once (two `Link` fields), looked up ignoring case.
///
/// ```swift
/// var headers: TestHTTPHeaders = ["ETag": "\"v1\"", "Link": "<…page=2>; rel=\"next\"", "Link": "<…page=9>; rel=\"last\""]
/// headers.first("etag")   // "\"v1\""
/// headers["link"]         // both values, in order
/// ```
public struct TestHTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field, as written.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order.
    public private(set) var fields: [Field]

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// A dictionary literal keeps every pair in order, a repeated name too.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The values of every field named `name` (ignoring case), in order.
    public subscript(name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// The value of the first field named `name` (ignoring case).
    public func first(_ name: String) -> String? {
        fields.first { Self.same($0.name, name) }?.value
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { Self.same($0.name, name) }
    }

    /// Adds a field after the others, keeping any of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field, where the first of them was (or at the end).
    public mutating func set(_ name: String, _ value: String) {
        guard let index = fields.firstIndex(where: { Self.same($0.name, name) }) else { return add(name, value) }
        fields = fields[..<index] + [Field(name: name, value: value)] + fields[(index + 1)...].filter { !Self.same($0.name, name) }
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// `Name: value` lines, as they go on the wire.
    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}
