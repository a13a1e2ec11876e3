import Foundation

/// The kind of a JSON value.
public enum JSONKind: UInt8, Sendable {
    case null, `false`, `true`, number, string, array, object
}

/// One value on a document's tape (pre-order, like simdjson's): 16 bytes, no allocation.
///
/// An object's children are its members' keys and values, alternating.
package struct JSONNode: Sendable {
    /// `JSONKind`.
    package var kind: JSONKind
    /// Strings: `escaped` when the text holds a backslash. Numbers: `integral` when the text
    /// has no fraction and no exponent.
    package var flags: UInt8
    /// Offset in the document's bytes of the value's first byte (a string's opening quote).
    package var start: UInt32
    /// Bytes of the value's text: for strings, between the quotes; for containers, from the
    /// opening to the closing bracket.
    package var length: UInt32
    /// Index of the node after this value and all it contains.
    package var end: UInt32

    // Computed, not stored: a stored static is a lazy global, checked on every read.
    package static var escaped: UInt8 { 1 }
    package static var integral: UInt8 { 1 }
}

/// One parsed JSON value and everything in it: the text it was parsed from and its tape.
///
/// A dump file is read record by record; each record is one `JSONDocument`, so memory holds
/// one record at a time however large the file is.
///
/// Immutable once handed out. The one exception is `JSONReader`, which parses the next value
/// into the last document when nothing but the reader holds it any more (three allocations a
/// record fewer): no value of it is left to see the change. Hence `var`s, read without run-time
/// exclusivity checks, which every value's every read would pay.
public final class JSONDocument: @unchecked Sendable {
    /// The value's text as it stands in the file (whitespace included).
    @exclusivity(unchecked) public internal(set) var bytes: [UInt8]
    /// The file offset of `bytes[0]`, for locating any value of the document.
    @exclusivity(unchecked) public internal(set) var fileOffset: Int
    /// The JSON Pointer of this document's root within its file (`/2/project`).
    @exclusivity(unchecked) public internal(set) var path: JSONPointer
    @exclusivity(unchecked) package var nodes: [JSONNode]

    init(bytes: [UInt8], fileOffset: Int, path: JSONPointer, nodes: [JSONNode]) {
        self.bytes = bytes
        self.fileOffset = fileOffset
        self.path = path
        self.nodes = nodes
    }

    /// The root value.
    public var root: JSONValue { JSONValue(document: self, index: 0) }

    /// The value whose text starts at `start`, an offset in `bytes`; `nil` if none does.
    public func value(startingAt start: Int) -> JSONValue? {
        nodes.firstIndex { Int($0.start) == start }.map { JSONValue(document: self, index: $0) }
    }

    /// Parses `text` as one complete JSON value (tests, mapping defaults, small inputs).
    public convenience init(parsing text: String) throws(JSONSyntaxError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Parses `bytes` as one complete JSON value, with RFC 8259's rules.
    public convenience init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        var parser = JSONParser()
        var nodes: [JSONNode] = []
        var start = 0
        let end: Int
        do {
            end = try bytes.withUnsafeBufferPointer { buffer throws(JSONParser.Failure) -> Int in
                let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
                start = JSONParser.skipByteOrderMark(base, buffer.count)
                start = JSONParser.skipWhitespace(base, from: start, to: buffer.count)
                let end = try parser.parseValue(base, from: start, to: buffer.count, atEnd: true, nodes: &nodes)
                let after = JSONParser.skipWhitespace(base, from: end, to: buffer.count)
                guard after == buffer.count else {
                    throw .syntax(
                        JSONSyntaxError(
                            offset: after, message: "unexpected \(JSONParser.describe(base, after, buffer.count)) after the JSON value"))
                }
                return end
            }
        } catch {
            switch error {
            case let .syntax(syntax): throw syntax
            case .needMore: throw JSONSyntaxError(offset: bytes.count, message: "unexpected end of input")
            }
        }
        self.init(bytes: Array(bytes[start..<end]), fileOffset: start, path: JSONPointer(), nodes: nodes)
    }
}

/// A value inside a `JSONDocument`: cheap to copy, keeps its document alive.
public struct JSONValue: Sendable {
    /// The document holding the value.
    public let document: JSONDocument
    package let index: Int

    package init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    package var node: JSONNode { document.nodes[index] }

    /// The value's kind.
    public var kind: JSONKind { node.kind }

    /// `true` for JSON `null`.
    public var isNull: Bool { node.kind == .null }

    /// `true` for the empty string `""` (an escape always stands for a character).
    var isEmptyString: Bool { node.kind == .string && node.length == 0 }

    /// The file offset of the value's first byte.
    public var fileOffset: Int { document.fileOffset + Int(node.start) }

    /// The Boolean of `true`/`false`, else `nil`.
    public var bool: Bool? {
        switch node.kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// A number's text as written in the dump (`1.50e3`), else `nil`.
    public var numberText: String? {
        guard node.kind == .number else { return nil }
        return withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// `true` for a number written with no fraction and no exponent.
    public var isIntegralNumber: Bool { node.kind == .number && node.flags & JSONNode.integral != 0 }

    /// A string's decoded text, else `nil`.
    public var string: String? {
        guard node.kind == .string else { return nil }
        if node.flags & JSONNode.escaped == 0 {
            return withBytes { String(decoding: $0, as: UTF8.self) }
        }
        return String(decoding: unescapedBytes(), as: UTF8.self)
    }

    /// The value's raw text: a number's digits, a string's content between the quotes
    /// (escapes as written), a literal's word, a container's whole text.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let node = node
        var start = Int(node.start)
        if node.kind == .string { start += 1 }
        let count = Int(node.length)
        return try document.bytes.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[start..<(start + count)]))
        }
    }

    /// The offset in the document just past this value's text.
    package var textEnd: Int {
        let node = node
        return Int(node.start) + Int(node.length) + (node.kind == .string ? 2 : 0)
    }

    /// A string's content with its escapes decoded, as UTF-8.
    package func unescapedBytes() -> [UInt8] {
        withBytes { JSONParser.unescape($0) }
    }

    /// The number of elements of an array or members of an object, else 0.
    public var count: Int {
        switch node.kind {
        case .array: return elements.reduce(0) { count, _ in count + 1 }
        case .object: return members.reduce(0) { count, _ in count + 1 }
        default: return 0
        }
    }

    /// An array's elements in order; empty for anything else.
    public var elements: JSONElements {
        JSONElements(document: document, first: index + 1, end: node.kind == .array ? Int(node.end) : index + 1)
    }

    /// An object's members in order; empty for anything else.
    public var members: JSONMembers {
        JSONMembers(document: document, first: index + 1, end: node.kind == .object ? Int(node.end) : index + 1)
    }

    /// `true` when this is a string equal to `key` after unescaping.
    public func stringEquals(_ key: String) -> Bool {
        guard node.kind == .string else { return false }
        if node.flags & JSONNode.escaped != 0 { return string == key }
        var key = key
        // By length, then `memcmp`: `elementsEqual` went byte by byte through the generic
        // sequence path (a key path's lookup of each member, bench/README.md).
        return key.withUTF8 { keyBytes in
            withBytes { bytes in
                bytes.count == keyBytes.count && (bytes.isEmpty || memcmp(bytes.baseAddress!, keyBytes.baseAddress!, bytes.count) == 0)
            }
        }
    }

    /// The value of the member whose key is exactly `key`, else `nil`.
    public subscript(key: String) -> JSONValue? {
        for member in members where member.key.stringEquals(key) { return member.value }
        return nil
    }

    /// The JSON Pointer of this value in its file (`/2/project/tasks/0/id`); for a key, the
    /// pointer of its member. Computed by a walk down the tape, only when a diagnostic needs it.
    public var pointer: JSONPointer {
        let nodes = document.nodes
        var pointer = document.path
        var current = 0
        while current != index {
            if nodes[current].kind == .array {
                var child = current + 1
                var position = 0
                while Int(nodes[child].end) <= index {
                    child = Int(nodes[child].end)
                    position += 1
                }
                pointer.append(.index(position))
                current = child
            } else {
                var key = current + 1
                while Int(nodes[key + 1].end) <= index { key = Int(nodes[key + 1].end) }
                pointer.append(.key(JSONValue(document: document, index: key).string ?? ""))
                if key == index { return pointer }
                current = key + 1
            }
        }
        return pointer
    }
}

/// An array's elements, in order.
public struct JSONElements: Sequence, Sendable {
    let document: JSONDocument
    let first: Int
    let end: Int

    public struct Iterator: IteratorProtocol {
        let document: JSONDocument
        var cursor: Int
        let end: Int

        public mutating func next() -> JSONValue? {
            guard cursor < end else { return nil }
            let value = JSONValue(document: document, index: cursor)
            cursor = Int(document.nodes[cursor].end)
            return value
        }
    }

    public func makeIterator() -> Iterator { Iterator(document: document, cursor: first, end: end) }
}

/// An object's members, in order.
public struct JSONMembers: Sequence, Sendable {
    let document: JSONDocument
    let first: Int
    let end: Int

    public struct Iterator: IteratorProtocol {
        let document: JSONDocument
        var cursor: Int
        let end: Int

        public mutating func next() -> (key: JSONValue, value: JSONValue)? {
            guard cursor < end else { return nil }
            let key = JSONValue(document: document, index: cursor)
            let value = JSONValue(document: document, index: cursor + 1)
            cursor = Int(document.nodes[cursor + 1].end)
            return (key, value)
        }
    }

    public func makeIterator() -> Iterator { Iterator(document: document, cursor: first, end: end) }
}
