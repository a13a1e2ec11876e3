#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a dump file holds its values (docs/mapping.md, Sources).
public enum DumpFormat: String, Sendable, Hashable {
    /// One JSON value (`.json`).
    case json
    /// One JSON value per line, blank lines skipped (`.jsonl`, `.ndjson`).
    case jsonLines
}

/// Reads the records of one dump file, one at a time, in file order.
///
/// It streams through the file's bytes in blocks: through the objects and arrays that lead to
/// the records along the source's key path (`data.results`, or `project` applied to every
/// element of `[{"project": {...}}]`), handing out each record as a `JSONDocument` of its own.
/// Memory holds one block and one record, whatever the file's size.
///
///     let reader = JSONReader(source: try FileByteSource(path: "dumps/pods.json"), keyPath: ["result"])
///     try reader.forEachItem { item in
///         if case let .record(record) = item { print(record["name"]?.string ?? "") }
///     }
public final class JSONReader {
    /// What the reader found where records are expected.
    public enum Item {
        /// A record: an object.
        case record(JSONValue)
        /// A `null` where a record was expected; skipped and counted (docs/mapping.md, Sources).
        case skippedNull(fileOffset: Int, pointer: JSONPointer)
        /// A value that is neither an object nor `null` where a record was expected (in keyed
        /// mode, where an object of records was expected).
        case notARecord(JSONValue)
        /// In keyed mode, a member of an object whose keys are records: its key (a string value,
        /// at the key, with the member's pointer) and its value, which need not be an object
        /// (`null` is handed out as `skippedNull`).
        case keyedRecord(key: JSONValue, value: JSONValue)
        /// An object on the key path that lacks the next key, or a scalar where the path goes on.
        case keyPathNotFound(fileOffset: Int, pointer: JSONPointer, key: String)
        /// A line of JSON Lines that is not JSON. A line feed ends every value, so the reader
        /// goes on with the next line (in plain JSON a syntax error ends the file, and is thrown).
        case lineSyntaxError(JSONSyntaxError)
    }

    private let buffer: ByteBuffer
    private let format: DumpFormat
    private let keyPath: [String]
    /// Whether the values the key path reaches are objects whose keys are records (`keyedBy`).
    private let keyed: Bool
    // A reader is used by one thread, and read for every record: no run-time exclusivity
    // checks on this hot path (bench/README.md).
    @exclusivity(unchecked) private var parser = JSONParser()
    /// Index in `buffer.storage` of the next byte to read.
    @exclusivity(unchecked) private var position = 0
    /// The end of the bytes the walk may read: the buffer's end, or the current line's end.
    @exclusivity(unchecked) private var limit = 0
    /// Whether `limit` is the end of the input (or of the line) rather than of a block.
    @exclusivity(unchecked) private var limitIsEnd = false
    @exclusivity(unchecked) private var pointer = JSONPointer()
    @exclusivity(unchecked) private var nodeCapacity = 16
    /// The document last handed out, parsed into again once nothing else holds it.
    @exclusivity(unchecked) private var recycled: JSONDocument?
    /// The same for members' keys (`streamObject`), kept apart: a key held while its value is
    /// read (a keyed record's, or one on the key path) leaves the values' document free.
    @exclusivity(unchecked) private var recycledKey: JSONDocument?

    /// The most bytes a document keeps for the next one, or reserves for a new one: 1 MiB.
    private static let keptCapacity = 1 << 20

    /// A reader of `source` in `format`, handing out the values at `keyPath`; when `keyed`, the
    /// members of each object reached there (an array's elements each), as `keyedRecord`s.
    public init(
        source: ByteSource, format: DumpFormat = .json, keyPath: [String] = [], keyed: Bool = false, blockSize: Int = 1 << 20
    ) {
        self.buffer = ByteBuffer(source: source, capacity: blockSize)
        self.format = format
        self.keyPath = keyPath
        self.keyed = keyed
    }

    /// Calls `body` with every item in file order. A syntax error ends a JSON file and is thrown
    /// as `JSONSyntaxError` with its file offset (in JSON Lines it ends its line only, as a
    /// `lineSyntaxError` item); I/O errors are thrown as they come.
    public func forEachItem(_ body: (Item) throws -> Void) throws {
        do {
            switch format {
            case .json:
                try startDocument()
                try walk(keyPath[...], depth: 0, body)
                if try skipWhitespace() {
                    throw try unexpected(" after the JSON value")
                }
            case .jsonLines:
                _ = try buffer.refill(keeping: 0)
                // A first block shorter than a byte-order mark would leave part of it unseen.
                while buffer.count < 3, try buffer.refill(keeping: 0) != nil {}
                position = JSONParser.skipByteOrderMark(buffer.base, buffer.count)
                while try nextLine() {
                    pointer = JSONPointer()
                    do {
                        if try skipWhitespace() {
                            try walk(keyPath[...], depth: 0, body)
                            if try skipWhitespace() {
                                throw try unexpected(" after the value on this line")
                            }
                        }
                    } catch let failure as JSONParser.Failure {
                        try body(.lineSyntaxError(syntaxError(failure)))
                    }
                    position = limit + 1
                }
            }
        } catch let failure as JSONParser.Failure {
            throw syntaxError(failure)
        }
    }

    /// What `forEachStructure` reports of a JSON file's outer levels, in file order.
    public enum Structure {
        case objectStart
        /// A member's key; its value's events follow.
        case key(String)
        case objectEnd
        case arrayStart
        case arrayEnd
        /// A value read whole: an array's element, or any value `streamingDepth` deep.
        case value(JSONKind)
    }

    /// Streams the outer levels of a JSON document (`format` must be `.json`; the key path is
    /// not followed): objects fewer than `streamingDepth` levels deep and not inside an array are
    /// reported key by key, arrays that deep element by element, every other value read whole
    /// (one array element, one deep value, at a time). It finds where a file's records are
    /// without holding the file (docs/commands.md, `seeder infer`).
    public func forEachStructure(streamingDepth: Int, _ body: (Structure) throws -> Void) throws {
        do {
            try startDocument()
            try walkStructure(depth: 0, inArray: false, streamingDepth: streamingDepth, body)
            if try skipWhitespace() {
                throw try unexpected(" after the JSON value")
            }
        } catch let failure as JSONParser.Failure {
            throw syntaxError(failure)
        }
    }

    /// The first byte of a JSON document after any byte-order mark and whitespace (`{` for an
    /// object), `nil` when the file holds nothing else. Reads no further than that byte.
    public static func firstByte(of source: ByteSource) throws -> UInt8? {
        let buffer = ByteBuffer(source: source, capacity: 4096)
        _ = try buffer.refill(keeping: 0)
        while buffer.count < 3, try buffer.refill(keeping: 0) != nil {}
        var position = JSONParser.skipByteOrderMark(buffer.base, buffer.count)
        while true {
            position = JSONParser.skipWhitespace(buffer.base, from: position, to: buffer.count)
            if position < buffer.count { return buffer.base[position] }
            guard let shift = try buffer.refill(keeping: position) else { return nil }
            position -= shift
        }
    }

    /// Reads the first block and the whitespace before the document's value.
    private func startDocument() throws {
        _ = try buffer.refill(keeping: 0)
        // A first block shorter than a byte-order mark would leave part of it unseen.
        while buffer.count < 3, try buffer.refill(keeping: 0) != nil {}
        position = JSONParser.skipByteOrderMark(buffer.base, buffer.count)
        syncLimit()
        guard try skipWhitespace() else {
            throw JSONSyntaxError(offset: 0, message: "the file holds no JSON value")
        }
    }

    private func walkStructure(depth: Int, inArray: Bool, streamingDepth: Int, _ body: (Structure) throws -> Void) throws {
        let byte = buffer.base[position]
        if depth < streamingDepth, !inArray, byte == UInt8(ascii: "{") {
            try body(.objectStart)
            try streamObject(depth: depth) { _, name, depth in
                try body(.key(name))
                try walkStructure(depth: depth, inArray: false, streamingDepth: streamingDepth, body)
                return true
            }
            try body(.objectEnd)
        } else if depth < streamingDepth, !inArray, byte == UInt8(ascii: "[") {
            try body(.arrayStart)
            try streamArray(depth: depth) { depth in
                try walkStructure(depth: depth, inArray: true, streamingDepth: streamingDepth, body)
            }
            try body(.arrayEnd)
        } else {
            try body(.value(try parseDocument(depth: depth).root.kind))
        }
    }

    /// A parser failure as an error with its file offset.
    private func syntaxError(_ failure: JSONParser.Failure) -> JSONSyntaxError {
        switch failure {
        case let .syntax(error):
            return JSONSyntaxError(offset: buffer.fileOffset + error.offset, message: error.message)
        case .needMore:
            return JSONSyntaxError(offset: buffer.fileOffset + position, message: "unexpected end of input")
        }
    }

    // MARK: The walk

    /// Follows `path` from the value at `position`, streaming through containers.
    private func walk(_ path: ArraySlice<String>, depth: Int, _ body: (Item) throws -> Void) throws {
        guard depth < JSONParser.maxDepth else {
            throw JSONParser.error(position, "nesting deeper than \(JSONParser.maxDepth) levels")
        }
        let byte = buffer.base[position]
        if byte == UInt8(ascii: "[") {
            try streamArray(depth: depth) { depth in
                if path.isEmpty {
                    if keyed { return try keyedRecords(depth: depth, body) }
                    try body(try recordItem(depth: depth))
                } else {
                    try walk(path, depth: depth, body)
                }
            }
        } else if byte == UInt8(ascii: "{"), let key = path.first {
            let objectOffset = buffer.fileOffset + position
            var found = false
            try streamObject(depth: depth) { _, member, depth in
                guard member == key else { return false }
                found = true
                pointer.append(.key(key))
                defer { pointer.components.removeLast() }
                try walk(path.dropFirst(), depth: depth, body)
                return true
            }
            if !found { try body(.keyPathNotFound(fileOffset: objectOffset, pointer: pointer, key: key)) }
        } else if path.isEmpty {
            if keyed { return try keyedRecords(depth: depth, body) }
            try body(try recordItem(depth: depth))
        } else {
            let value = try parseDocument(depth: depth).root
            if value.isNull {
                try body(.skippedNull(fileOffset: value.fileOffset, pointer: pointer))
            } else {
                try body(.keyPathNotFound(fileOffset: value.fileOffset, pointer: pointer, key: path.first!))
            }
        }
    }

    /// Parses the value at `position` as a record.
    private func recordItem(depth: Int) throws -> Item {
        let value = try parseDocument(depth: depth).root
        switch value.kind {
        case .object: return .record(value)
        case .null: return .skippedNull(fileOffset: value.fileOffset, pointer: pointer)
        default: return .notARecord(value)
        }
    }

    /// Streams the members of the object at `position` as records keyed by their keys (a value
    /// that is not an object as `notARecord`, `null` skipped). The key's document is its own:
    /// it lives as long as its record.
    private func keyedRecords(depth: Int, _ body: (Item) throws -> Void) throws {
        guard buffer.base[position] == UInt8(ascii: "{") else { return try body(try recordItem(depth: depth)) }
        try streamObject(depth: depth) { key, name, depth in
            pointer.append(.key(name))
            key.document.path = pointer
            let value = try parseDocument(depth: depth).root
            try body(value.isNull ? .skippedNull(fileOffset: value.fileOffset, pointer: pointer) : .keyedRecord(key: key, value: value))
            pointer.components.removeLast()
            return true
        }
    }

    /// Streams the elements of the array at `position`; `element` reads each one.
    private func streamArray(depth: Int, _ element: (Int) throws -> Void) throws {
        position += 1
        guard try skipWhitespace() else { throw endOfInput("in array") }
        if buffer.base[position] == UInt8(ascii: "]") {
            position += 1
            return
        }
        var index = 0
        while true {
            pointer.append(.index(index))
            try element(depth + 1)
            // A recycled document lets go of its path, or removing the index would copy it.
            if isKnownUniquelyReferenced(&recycled) { recycled?.path = JSONPointer() }
            pointer.components.removeLast()
            index += 1
            if try endOfElement(closing: UInt8(ascii: "]"), in: "array") { return }
        }
    }

    /// Streams the members of the object at `position`. `member` gets each key (the root of a
    /// document of its own, and its text) and reads the value itself (returning `true`) or
    /// leaves it to be skipped (returning `false`). Every key is checked for duplicates.
    private func streamObject(depth: Int, _ member: (_ key: JSONValue, _ name: String, _ depth: Int) throws -> Bool) throws {
        position += 1
        guard try skipWhitespace() else { throw endOfInput("in object") }
        if buffer.base[position] == UInt8(ascii: "}") {
            position += 1
            return
        }
        var seen = Set<String>()
        while true {
            guard buffer.base[position] == UInt8(ascii: "\"") else {
                throw try unexpected(", expected a string key")
            }
            // A file offset: parsing the key may refill, which moves every position.
            let keyOffset = buffer.fileOffset + position
            let key = try parseDocument(depth: depth + 1, reusing: &recycledKey, capacity: 1).root
            let name = key.string!
            guard seen.insert(name).inserted else {
                throw JSONParser.error(keyOffset - buffer.fileOffset, "duplicate key \"\(name)\" in object")
            }
            guard try skipWhitespace() else { throw endOfInput("expected ':'") }
            guard buffer.base[position] == UInt8(ascii: ":") else {
                throw try unexpected(", expected ':' after the key")
            }
            position += 1
            guard try skipWhitespace() else { throw endOfInput("expected a value") }
            if try !member(key, name, depth + 1) {
                _ = try parseDocument(depth: depth + 1)
            }
            if try endOfElement(closing: UInt8(ascii: "}"), in: "object") { return }
        }
    }

    /// Reads what follows an element of a streamed container: `,` and the next element's first
    /// byte (`false`), or the closing bracket (`true`).
    private func endOfElement(closing: UInt8, in container: String) throws -> Bool {
        guard try skipWhitespace() else { throw endOfInput("in \(container)") }
        switch buffer.base[position] {
        case UInt8(ascii: ","):
            // A file offset: skipping whitespace may refill, which moves every position.
            let comma = buffer.fileOffset + position
            position += 1
            guard try skipWhitespace() else { throw endOfInput("after ','") }
            if buffer.base[position] == closing { throw JSONParser.error(comma - buffer.fileOffset, "trailing comma") }
            return false
        case closing:
            position += 1
            return true
        default:
            throw try unexpected(", expected ',' or '\(Character(Unicode.Scalar(closing)))'")
        }
    }

    /// Parses the whole value at `position` into a document of its own, refilling as needed:
    /// into the last one when nothing but the reader holds it any more (its values are all
    /// gone), else into a new one.
    private func parseDocument(depth: Int) throws -> JSONDocument {
        try parseDocument(depth: depth, reusing: &recycled, capacity: nodeCapacity)
    }

    private func parseDocument(depth: Int, reusing recycled: inout JSONDocument?, capacity: Int) throws -> JSONDocument {
        let document: JSONDocument
        if isKnownUniquelyReferenced(&recycled), let last = recycled {
            document = last
            // A large record's storage is let go, not kept for the small ones after it.
            if document.bytes.capacity > Self.keptCapacity {
                document.bytes = []
                document.nodes = []
            }
        } else {
            document = JSONDocument(bytes: [], fileOffset: 0, path: JSONPointer(), nodes: [])
            document.nodes.reserveCapacity(capacity)
            recycled = document
        }
        while true {
            do {
                let end = try parser.parseValue(
                    buffer.base, from: position, to: limit, atEnd: limitIsEnd, depth: depth, nodes: &document.nodes)
                document.bytes.removeAll(keepingCapacity: true)
                document.bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.base + position, count: end - position))
                document.fileOffset = buffer.fileOffset + position
                document.path = pointer
                nodeCapacity = min(max(nodeCapacity, document.nodes.count), Self.keptCapacity / MemoryLayout<JSONNode>.stride)
                position = end
                // A value larger than a block grew the window: given back before the value is
                // mapped, so that a record's copies are not made beside it (bench/README.md, Memory).
                let shift = buffer.shrink(keeping: position)
                position -= shift
                limit -= shift
                return document
            } catch {
                // (A `catch .needMore` pattern crashes the 6.3 compiler's SILGen.)
                guard case .needMore = error else { throw error }
                guard try refill() else { throw JSONParser.error(limit, "unexpected end of input") }
            }
        }
    }

    // MARK: The buffer

    /// Skips whitespace, refilling as needed; `false` at the end of the input (or line).
    private func skipWhitespace() throws -> Bool {
        while true {
            position = JSONParser.skipWhitespace(buffer.base, from: position, to: limit)
            if position < limit { return true }
            guard try refill() else { return false }
        }
    }

    /// Reads the next block, keeping the bytes from `position` on. `false` when there is none.
    private func refill() throws -> Bool {
        guard format == .json, let shift = try buffer.refill(keeping: position) else { return false }
        position -= shift
        syncLimit()
        return true
    }

    private func syncLimit() {
        limit = buffer.count
        limitIsEnd = buffer.isAtEnd
    }

    /// Finds the next line (JSON Lines): sets `limit` to its line feed, or the end of input.
    private func nextLine() throws -> Bool {
        var scanned = position
        while true {
            let count = buffer.count
            if position >= count, buffer.isAtEnd { return false }
            if scanned < count, let found = memchr(buffer.base + scanned, Int32(UInt8(ascii: "\n")), count - scanned) {
                limit = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - buffer.base
                limitIsEnd = true
                return true
            }
            scanned = count
            if buffer.isAtEnd {
                limit = count
                limitIsEnd = true
                return position < count
            }
            let shift = try buffer.refill(keeping: position) ?? 0
            position -= shift
            scanned -= shift
        }
    }

    private func endOfInput(_ context: String) -> JSONParser.Failure {
        JSONParser.error(position, "unexpected end of input \(context)")
    }

    /// An "unexpected ..." error at `position`, naming the byte there. The bytes after it are
    /// read in first, so that a UTF-8 sequence cut by the end of a block is named whole.
    private func unexpected(_ context: String) throws -> JSONParser.Failure {
        while limit - position < 4, !limitIsEnd, try refill() {}
        return JSONParser.error(position, "unexpected \(JSONParser.describe(buffer.base, position, limit))\(context)")
    }
}
