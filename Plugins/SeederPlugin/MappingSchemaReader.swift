import Foundation

/// The app-schema file a mapping names (`schema: { template: FILE }` or `schema: { room: FILE }`,
/// docs/mapping.md, Fitting the app's own schema), read by a YAML reader of its own: a plugin
/// cannot link seeder's loader. The YAML it reads is written down in docs/guides/swiftpm-plugin.md
/// (The schema file): block and flow collections, explicit keys (`? key`), plain, single- and
/// double-quoted scalars (every escape), block scalars, comments, tags; anchors and aliases, and a
/// repeated `schema`, `template` or `room` key, which seeder refuses, are errors here too. Tests
/// compare its answer with the loader's on each form.
///
///     let paths = try MappingSchemaReader.paths(inMapping: "schema: { room: 'a, b #1.json' }")
///     // ["a, b #1.json"]
struct MappingSchemaReader {
    /// The keys of `schema:` that name a file (the loader's `MappingLoader.Keys.schema`).
    static let keys = ["template", "room"]

    /// Why a mapping could not be read, at its 1-based line and column.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var message: String
        var description: String { "\(line):\(column): \(message)" }
    }

    /// The paths `schema:` gives, as written (relative to the mapping file unless they start with
    /// `/`), in the order of `keys`; empty when the mapping has no `schema:` or gives no path
    /// (seeder reports that itself).
    static func paths(inMapping text: String) throws(Failure) -> [String] {
        var reader = MappingSchemaReader(text)
        guard case .mapping(let document)? = try reader.document(),
            case .mapping(let schema)? = try entry("schema", in: document)?.value
        else { return [] }
        var paths: [String] = []
        for key in keys {
            guard case .scalar(let path, let plain)? = try entry(key, in: schema)?.value else { continue }
            // A plain `~`, `null` or nothing is YAML's null, which the loader refuses.
            if !(path.isEmpty || (plain && ["~", "null", "Null", "NULL"].contains(path))) { paths.append(path) }
        }
        return paths
    }

    /// The entry of a mapping under `key`; seeder refuses a mapping that repeats a key, and so
    /// does the reader, at the repetition.
    static func entry(_ key: String, in mapping: [Entry]) throws(Failure) -> Entry? {
        let found = mapping.filter { $0.key == key }
        guard found.count > 1 else { return found.first }
        throw Failure(
            line: found[1].line, column: found[1].column,
            message: "duplicate key '\(key)' in a YAML mapping; the first one is at \(found[0].line):\(found[0].column)")
    }

    /// The file a path of `schema:` names, for the mapping file at `mapping`: as seeder resolves
    /// it (`SchemaSource.resolved(from:)`), beside the mapping unless it starts with `/`.
    static func file(_ path: String, besideMapping mapping: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : mapping.deletingLastPathComponent().appending(path: path)
    }

    /// A YAML node, as far as the schema's paths need: a mapping's keys are their scalars' text.
    indirect enum Node {
        case scalar(String, plain: Bool)
        case mapping([Entry])
        case sequence([Node])
    }

    /// A mapping's key, where it starts (1-based), and its value.
    typealias Entry = (key: String, line: Int, column: Int, value: Node)

    var text: [Unicode.Scalar]
    var index = 0
    var line = 1
    var lineStart = 0

    private init(_ source: String) {
        // Line breaks as YAML reads them: CR LF and CR are LF; a byte order mark is no content.
        var scalars: [Unicode.Scalar] = []
        for scalar in source.unicodeScalars {
            if scalar == "\n" && scalars.last == "\r" {
                scalars[scalars.count - 1] = "\n"
            } else {
                scalars.append(scalar == "\r" ? "\n" : scalar)
            }
        }
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        text = scalars
    }

    // MARK: Reading

    var current: Unicode.Scalar? { index < text.count ? text[index] : nil }
    func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }
    var column: Int { index - lineStart }
    var atLineEnd: Bool { current == nil || current == "\n" }

    mutating func advance() {
        if current == "\n" {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    func failure(_ message: String) -> Failure { Failure(line: line, column: column + 1, message: message) }

    static func isBlank(_ scalar: Unicode.Scalar?) -> Bool { scalar == nil || scalar == " " || scalar == "\t" || scalar == "\n" }
    static let flowIndicators: Set<Unicode.Scalar> = [",", "[", "]", "{", "}"]

    /// Spaces and tabs, then a comment: between tokens a `#` always starts one (no scalar starts
    /// with it; inside a plain scalar only ` #` ends it).
    mutating func skipSpacesAndComment() {
        while current == " " || current == "\t" { advance() }
        if current == "#" { while !atLineEnd { advance() } }
    }

    /// Whether the reader stands at the first character of a line's content.
    var atContentStart: Bool {
        !atLineEnd && text[lineStart..<index].allSatisfy { $0 == " " }
    }

    /// The indentation of the next line with content, the reader at its first character (where
    /// it may be already); `nil` at the end of the document. Anything but a comment left on this
    /// line is an error.
    mutating func nextContentLine() throws(Failure) -> Int? {
        if atContentStart { return atDocumentMarker ? nil : column }
        skipSpacesAndComment()
        guard !atLineEnd else { return try startOfContent() }
        throw failure("unexpected text after a value")
    }

    /// From the end of a line: past empty and comment lines to the next line's content.
    mutating func startOfContent() throws(Failure) -> Int? {
        while current == "\n" {
            advance()
            while current == " " { advance() }
            // libyaml, seeder's parser, takes no tab in a line's leading white space.
            if current == "\t" { throw failure("a tab in indentation") }
            if current == "#" { while !atLineEnd { advance() } }
        }
        guard current != nil, !atDocumentMarker else { return nil }
        return column
    }

    var atDocumentMarker: Bool {
        column == 0 && ((current == "-" && peek(1) == "-" && peek(2) == "-") || (current == "." && peek(1) == "." && peek(2) == "."))
            && Self.isBlank(peek(3))
    }

    // MARK: Documents and block collections

    /// The document's root: directives and a `---` skipped; a second document is an error, as it
    /// is to seeder.
    mutating func document() throws(Failure) -> Node? {
        while true {
            skipSpacesAndComment()
            if current == "%" && column == 0 {
                while !atLineEnd { advance() }
            } else if current == "\n" {
                advance()
            } else {
                break
            }
        }
        if atDocumentMarker && current == "-" {
            for _ in 0..<3 { advance() }
        }
        let root = try node(parent: -1)
        if try nextContentLine() != nil { throw failure("unexpected content after the document") }
        if current == "." {
            for _ in 0..<3 { advance() }
            if try nextContentLine() != nil { throw failure("a second document: a mapping file holds one") }
        } else if current != nil {
            throw failure("a second document: a mapping file holds one")
        }
        return root
    }

    /// A node that belongs to a collection indented at `parent`: on this line, or on the lines
    /// below, indented more (a sequence under a key may stand at the key's own indentation).
    mutating func node(parent: Int, sequenceAtParent: Bool = false) throws(Failure) -> Node? {
        skipSpacesAndComment()
        try skipProperties()
        guard atLineEnd else { return try content(parent: parent, indent: column) }
        let saved = (index, line, lineStart)
        guard let indent = try startOfContent(),
            indent > parent || (sequenceAtParent && indent == parent && current == "-" && Self.isBlank(peek(1)))
        else {
            (index, line, lineStart) = saved
            return nil
        }
        try skipProperties()
        return try content(parent: parent, indent: indent)
    }

    /// Tags are read past (seeder reads the text); anchors and aliases are refused, as by seeder.
    mutating func skipProperties() throws(Failure) {
        while true {
            if current == "!" {
                while !Self.isBlank(current) { advance() }
            } else if current == "&" || current == "*" {
                throw failure("anchors and aliases are not allowed in a mapping")
            } else {
                return
            }
            skipSpacesAndComment()
        }
    }

    mutating func content(parent: Int, indent: Int) throws(Failure) -> Node {
        switch current {
        case "-" where Self.isBlank(peek(1)): return try blockSequence(indent: indent)
        case "|", ">": return try blockScalar(parent: parent)
        case "?" where Self.isBlank(peek(1)): return try blockMapping(indent: indent)
        default:
            if try startsKey() { return try blockMapping(indent: indent) }
            return try inlineValue(parent: parent)
        }
    }

    /// Whether a key and `:` start here.
    mutating func startsKey() throws(Failure) -> Bool {
        let saved = (index, line, lineStart)
        defer { (index, line, lineStart) = saved }
        switch current {
        case "\"", "'": _ = try quoted()
        case "{", "[": return false
        default: _ = plainKey()
        }
        while current == " " || current == "\t" { advance() }
        return current == ":" && Self.isBlank(peek(1))
    }

    mutating func plainKey() -> String {
        var key = ""
        while let scalar = current, scalar != "\n", !(scalar == ":" && Self.isBlank(peek(1))),
            !(scalar == "#" && (key.last == " " || key.last == "\t"))
        {
            key.unicodeScalars.append(scalar)
            advance()
        }
        return key.trimmingCharacters(in: .whitespaces)
    }

    var atExplicitKey: Bool { current == "?" && Self.isBlank(peek(1)) }

    /// A block mapping's entries: `key: value`, or an explicit key, `? key` and, on a line of its
    /// own at the mapping's indentation, `: value` (or no value, a null), as libyaml reads them.
    mutating func blockMapping(indent: Int) throws(Failure) -> Node {
        var entries: [Entry] = []
        while true {
            var (keyLine, keyColumn) = (line, column + 1)
            let key: String
            let value: Node?
            if atExplicitKey {
                advance()
                while current == " " { advance() }
                if !atLineEnd { (keyLine, keyColumn) = (line, column + 1) }
                guard case .scalar(let text, _) = try node(parent: indent) ?? .scalar("", plain: true) else {
                    throw Failure(line: keyLine, column: keyColumn, message: "a collection as a key is not read here")
                }
                key = text
                if try nextContentLine() == indent, current == ":", Self.isBlank(peek(1)) {
                    advance()
                    value = try node(parent: indent, sequenceAtParent: true)
                } else {
                    value = nil
                }
            } else {
                if current == "\"" || current == "'" { key = try quoted() } else { key = plainKey() }
                while current == " " || current == "\t" { advance() }
                guard current == ":" else { throw failure("expected ':' after the key '\(key)'") }
                advance()
                value = try node(parent: indent, sequenceAtParent: true)
            }
            entries.append((key, keyLine, keyColumn, value ?? .scalar("", plain: true)))
            guard let next = try nextContentLine(), next >= indent else { break }
            guard next == indent else { throw failure("unexpected indentation") }
            try skipProperties()
            if !atExplicitKey, try !startsKey() { throw failure("expected a key of the mapping") }
        }
        return .mapping(entries)
    }

    mutating func blockSequence(indent: Int) throws(Failure) -> Node {
        var items: [Node] = []
        while true {
            advance()
            items.append(try node(parent: indent) ?? .scalar("", plain: true))
            guard let next = try nextContentLine(), next == indent, current == "-", Self.isBlank(peek(1)) else { break }
        }
        return .sequence(items)
    }
}
