import Foundation

/// The schema reader's scalars and flow collections: plain, quoted and block scalars, and
/// `{...}` and `[...]` (docs/guides/swiftpm-plugin.md, The schema file).
extension MappingSchemaReader {
    /// A value that starts on this line: flow, quoted or plain (folded over the lines indented
    /// more than `parent`).
    mutating func inlineValue(parent: Int) throws(Failure) -> Node {
        switch current {
        case "{", "[": return try flowCollection()
        case "\"", "'": return .scalar(try quoted(), plain: false)
        default: return .scalar(try plainScalar(parent: parent, flow: false), plain: true)
        }
    }

    /// A plain scalar: in a block, up to `: ` or ` #` and over lines indented more than `parent`;
    /// in a flow collection, up to `,`, `[`, `]`, `{`, `}` too.
    mutating func plainScalar(parent: Int, flow: Bool) throws(Failure) -> String {
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
    mutating func quoted() throws(Failure) -> String {
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
    mutating func escape() throws(Failure) -> Unicode.Scalar {
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
    mutating func blockScalar(parent: Int) throws(Failure) -> Node {
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
    mutating func flowCollection() throws(Failure) -> Node {
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

    mutating func flowNode() throws(Failure) -> Node {
        switch current {
        case "{", "[": return try flowCollection()
        case "\"", "'": return .scalar(try quoted(), plain: false)
        case nil: throw failure("the document ends inside a flow collection")
        default: return .scalar(try plainScalar(parent: -1, flow: true), plain: true)
        }
    }

    /// Spaces, line breaks and comments between a flow collection's parts.
    mutating func skipFlowSpace() throws(Failure) {
        while true {
            skipSpacesAndComment()
            guard current == "\n" else { return }
            advance()
            if atDocumentMarker { throw failure("a document marker inside a flow collection") }
        }
    }
}
