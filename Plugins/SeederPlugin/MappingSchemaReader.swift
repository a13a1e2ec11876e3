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
    private static func entry(_ key: String, in mapping: [Entry]) throws(Failure) -> Entry? {
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

    private var text: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var lineStart = 0

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

    private var current: Unicode.Scalar? { index < text.count ? text[index] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }
    private var column: Int { index - lineStart }
    private var atLineEnd: Bool { current == nil || current == "\n" }

    private mutating func advance() {
        if current == "\n" {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private func failure(_ message: String) -> Failure { Failure(line: line, column: column + 1, message: message) }

    private static func isBlank(_ scalar: Unicode.Scalar?) -> Bool { scalar == nil || scalar == " " || scalar == "\t" || scalar == "\n" }
    private static let flowIndicators: Set<Unicode.Scalar> = [",", "[", "]", "{", "}"]

    /// Spaces and tabs, then a comment: between tokens a `#` always starts one (no scalar starts
    /// with it; inside a plain scalar only ` #` ends it).
    private mutating func skipSpacesAndComment() {
        while current == " " || current == "\t" { advance() }
        if current == "#" { while !atLineEnd { advance() } }
    }

    /// Whether the reader stands at the first character of a line's content.
    private var atContentStart: Bool {
        !atLineEnd && text[lineStart..<index].allSatisfy { $0 == " " }
    }

    /// The indentation of the next line with content, the reader at its first character (where
    /// it may be already); `nil` at the end of the document. Anything but a comment left on this
    /// line is an error.
    private mutating func nextContentLine() throws(Failure) -> Int? {
        if atContentStart { return atDocumentMarker ? nil : column }
        skipSpacesAndComment()
        guard !atLineEnd else { return try startOfContent() }
        throw failure("unexpected text after a value")
    }

    /// From the end of a line: past empty and comment lines to the next line's content.
    private mutating func startOfContent() throws(Failure) -> Int? {
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

    private var atDocumentMarker: Bool {
        column == 0 && ((current == "-" && peek(1) == "-" && peek(2) == "-") || (current == "." && peek(1) == "." && peek(2) == "."))
            && Self.isBlank(peek(3))
    }

    // MARK: Documents and block collections

    /// The document's root: directives and a `---` skipped; a second document is an error, as it
    /// is to seeder.
    private mutating func document() throws(Failure) -> Node? {
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
    private mutating func node(parent: Int, sequenceAtParent: Bool = false) throws(Failure) -> Node? {
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
    private mutating func skipProperties() throws(Failure) {
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

    private mutating func content(parent: Int, indent: Int) throws(Failure) -> Node {
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
    private mutating func startsKey() throws(Failure) -> Bool {
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

    private mutating func plainKey() -> String {
        var key = ""
        while let scalar = current, scalar != "\n", !(scalar == ":" && Self.isBlank(peek(1))),
            !(scalar == "#" && (key.last == " " || key.last == "\t"))
        {
            key.unicodeScalars.append(scalar)
            advance()
        }
        return key.trimmingCharacters(in: .whitespaces)
    }

    private var atExplicitKey: Bool { current == "?" && Self.isBlank(peek(1)) }

    /// A block mapping's entries: `key: value`, or an explicit key, `? key` and, on a line of its
    /// own at the mapping's indentation, `: value` (or no value, a null), as libyaml reads them.
    private mutating func blockMapping(indent: Int) throws(Failure) -> Node {
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

    private mutating func blockSequence(indent: Int) throws(Failure) -> Node {
        var items: [Node] = []
        while true {
            advance()
            items.append(try node(parent: indent) ?? .scalar("", plain: true))
            guard let next = try nextContentLine(), next == indent, current == "-", Self.isBlank(peek(1)) else { break }
        }
        return .sequence(items)
    }

    // MARK: Scalars and flow collections

    /// A value that starts on this line: flow, quoted or plain (folded over the lines indented
    /// more than `parent`).
    private mutating func inlineValue(parent: Int) throws(Failure) -> Node {
        switch current {
        case "{", "[": return try flowCollection()
        case "\"", "'": return .scalar(try quoted(), plain: false)
        default: return .scalar(try plainScalar(parent: parent, flow: false), plain: true)
        }
    }

    /// A plain scalar: in a block, up to `: ` or ` #` and over lines indented more than `parent`;
    /// in a flow collection, up to `,`, `[`, `]`, `{`, `}` too.
    private mutating func plainScalar(parent: Int, flow: Bool) throws(Failure) -> String {
        var value = ""
        var breaks = 0
        while true {
            var piece = ""
            while let scalar = current, scalar != "\n" {
                if scalar == ":" && (Self.isBlank(peek(1)) || (flow && peek(1).map(Self.flowIndicators.contains) == true)) { break }
                if scalar == "#" && (piece.last == " " || piece.last == "\t") { break }
                if flow && Self.flowIndicators.contains(scalar) { break }
                piece.unicodeScalars.append(scalar)
                advance()
            }
            piece = piece.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            if !piece.isEmpty {
                if !value.isEmpty { value += breaks > 1 ? String(repeating: "\n", count: breaks - 1) : " " }
                value += piece
            }
            guard current == "\n" else { return value }
            // The next line continues it if indented more than its parent and not a comment.
            let saved = (index, line, lineStart)
            breaks = 0
            while current == "\n" {
                advance()
                breaks += 1
                while current == " " || (flow && current == "\t") { advance() }
            }
            guard current != nil, column > parent || flow, current != "#", !atDocumentMarker else {
                (index, line, lineStart) = saved
                return value
            }
        }
    }

    /// A single- or double-quoted scalar, its escapes and line folding read as YAML reads them.
    private mutating func quoted() throws(Failure) -> String {
        let quote = current!
        let opening = failure("a quoted scalar (\(quote)) that is never closed")
        advance()
        var value = ""
        var pendingSpaces = ""
        while true {
            guard let scalar = current else { throw opening }
            if scalar == quote {
                if quote == "'" && peek(1) == "'" {
                    value += pendingSpaces + "'"
                    pendingSpaces = ""
                    advance()
                    advance()
                    continue
                }
                advance()
                return value + pendingSpaces
            }
            if scalar == " " || scalar == "\t" {
                pendingSpaces.unicodeScalars.append(scalar)
                advance()
            } else if scalar == "\n" {
                // Folding: one line break is a space, each further one a line feed; the spaces
                // around the break are not content.
                var breaks = 0
                while current == "\n" || current == " " || current == "\t" {
                    if current == "\n" { breaks += 1 }
                    advance()
                }
                if atDocumentMarker { throw failure("a document marker inside a quoted scalar") }
                value += breaks > 1 ? String(repeating: "\n", count: breaks - 1) : " "
                pendingSpaces = ""
            } else if scalar == "\\" && quote == "\"" {
                value += pendingSpaces
                pendingSpaces = ""
                advance()
                if current == "\n" {
                    // An escaped line break: the lines join with nothing between them.
                    advance()
                    while current == " " || current == "\t" { advance() }
                } else {
                    value.unicodeScalars.append(try escape())
                }
            } else {
                value += pendingSpaces
                pendingSpaces = ""
                value.unicodeScalars.append(scalar)
                advance()
            }
        }
    }

    /// The character a double-quoted scalar's `\` escape stands for, the reader past it.
    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        guard let letter = current else { throw failure("a quoted scalar without its closing \"") }
        advance()
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "0": "\0", "a": "\u{07}", "b": "\u{08}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{0B}", "f": "\u{0C}",
            "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\", "N": "\u{85}", "_": "\u{A0}",
            "L": "\u{2028}", "P": "\u{2029}",
        ]
        if let scalar = simple[letter] { return scalar }
        let digits = ["x": 2, "u": 4, "U": 8][String(letter)]
        guard let digits else {
            // At the backslash, two characters back.
            throw Failure(line: line, column: column - 1, message: "an unknown escape '\\\(letter)' in a double-quoted scalar")
        }
        var hex = ""
        for _ in 0..<digits {
            guard let digit = current, digit.properties.isASCIIHexDigit else {
                throw failure("'\\\(letter)' needs \(digits) hexadecimal digits")
            }
            hex.unicodeScalars.append(digit)
            advance()
        }
        guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
            throw failure("'\\\(letter)\(hex)' is not a Unicode character")
        }
        return scalar
    }

    /// A literal (`|`) or folded (`>`) block scalar, with its indentation and chomping indicators,
    /// folded and chomped as libyaml, seeder's YAML parser, does.
    private mutating func blockScalar(parent: Int) throws(Failure) -> Node {
        let folded = current == ">"
        advance()
        var chomping: Unicode.Scalar = "c"
        var increment: Int?
        for _ in 0..<2 {
            if let scalar = current, scalar == "-" || scalar == "+" {
                chomping = scalar
                advance()
            } else if let scalar = current, let digit = Int(String(scalar)), digit > 0 {
                increment = digit
                advance()
            }
        }
        skipSpacesAndComment()
        guard atLineEnd else { throw failure("unexpected text after a block scalar's indicator") }
        var indent = increment.map { parent >= 0 ? parent + $0 : $0 }
        var lines: [(empties: Int, text: String)] = []
        var empties = 0
        while current == "\n" {
            let saved = (index, line, lineStart)
            advance()
            var spaces = 0
            while current == " " && (indent == nil || spaces < indent!) {
                spaces += 1
                advance()
            }
            if atLineEnd {
                empties += 1
                continue
            }
            if indent == nil, spaces >= max(parent + 1, 1) { indent = spaces }
            guard spaces == indent, !atDocumentMarker else {
                (index, line, lineStart) = saved
                break
            }
            var text = ""
            while !atLineEnd {
                text.unicodeScalars.append(current!)
                advance()
            }
            lines.append((empties, text))
            empties = 0
        }
        // libyaml's folding: a line break between two lines that do not start with a space is a
        // space, or nothing when empty lines (each a line feed) stand between them.
        var value = ""
        var leadingBreak = ""
        var leadingBlank = false
        for (empties, text) in lines {
            let trailingBlank = text.first == " " || text.first == "\t"
            if folded && leadingBreak == "\n" && !leadingBlank && !trailingBlank {
                if empties == 0 { value += " " }
            } else {
                value += leadingBreak
            }
            value += String(repeating: "\n", count: empties) + text
            leadingBlank = trailingBlank
            leadingBreak = "\n"
        }
        if chomping != "-" { value += leadingBreak }
        if chomping == "+" { value += String(repeating: "\n", count: empties) }
        return .scalar(value, plain: false)
    }

    /// `{ key: value, ... }` or `[ value, ... ]`, over any number of lines; in either, a `?` is an
    /// explicit key, as libyaml reads it in a flow collection (`{ ? key: value }`, `[ ? key ]`).
    private mutating func flowCollection() throws(Failure) -> Node {
        let isMapping = current == "{"
        let close: Unicode.Scalar = isMapping ? "}" : "]"
        let opening = failure("a flow collection (\(isMapping ? "{" : "[")) that is never closed")
        advance()
        var entries: [Entry] = []
        var items: [Node] = []
        while true {
            try skipFlowSpace()
            if current == close {
                advance()
                return isMapping ? .mapping(entries) : .sequence(items)
            }
            if current == nil { throw opening }
            let explicit = current == "?"
            if explicit {
                advance()
                try skipFlowSpace()
            }
            try skipProperties()
            let (keyLine, keyColumn) = (line, column + 1)
            let start = try flowNode()
            try skipFlowSpace()
            var value: Node?
            if current == ":" {
                advance()
                try skipFlowSpace()
                try skipProperties()
                value = current == "," || current == close ? .scalar("", plain: true) : try flowNode()
                try skipFlowSpace()
            }
            if isMapping || explicit || value != nil {
                guard case .scalar(let key, _) = start else { throw failure("a collection as a key is not read here") }
                let entry = (key, keyLine, keyColumn, value ?? .scalar("", plain: true))
                if isMapping { entries.append(entry) } else { items.append(.mapping([entry])) }
            } else {
                items.append(start)
            }
            if current == "," {
                advance()
            } else if current == nil {
                throw opening
            } else if current != close {
                throw failure("expected ',' or '\(close)'")
            }
        }
    }

    private mutating func flowNode() throws(Failure) -> Node {
        switch current {
        case "{", "[": return try flowCollection()
        case "\"", "'": return .scalar(try quoted(), plain: false)
        case nil: throw failure("the document ends inside a flow collection")
        default: return .scalar(try plainScalar(parent: -1, flow: true), plain: true)
        }
    }

    /// Spaces, line breaks and comments between a flow collection's parts.
    private mutating func skipFlowSpace() throws(Failure) {
        while true {
            skipSpacesAndComment()
            guard current == "\n" else { return }
            advance()
            if atDocumentMarker { throw failure("a document marker inside a flow collection") }
        }
    }
}
