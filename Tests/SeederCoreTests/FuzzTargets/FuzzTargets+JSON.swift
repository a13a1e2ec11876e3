import SeederCore

/// fuzz-json: the streaming reader, its block boundaries, and every value it hands out.
extension FuzzTargets {
    /// Block sizes the reader is run with besides its default: refills then fall inside every
    /// token, escape and UTF-8 sequence.
    static let blockSizes = [1, 3, 16]

    /// Reads `bytes` as a dump, as one JSON value and as JSON Lines, at the root, along a key
    /// path and as an object whose keys are records (`keyedBy`), walking every value of every
    /// record. Whatever the block size, the reader must give
    /// the same transcript (items, offsets, errors); every offset must point at its value in the
    /// bytes; a minified record must parse again to the same text.
    public static func json(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        for format in [DumpFormat.json, .jsonLines] {
            for (keyPath, keyed) in [([], false), (["a"], false), ([], true)] {
                // One block holds it all (a megabyte block, the default, is slow to allocate under ASan).
                let expected = transcript(
                    bytes, format: format, keyPath: keyPath, keyed: keyed, blockSize: bytes.count + 1, problems: &problems)
                for blockSize in blockSizes {
                    let actual = transcript(
                        bytes, format: format, keyPath: keyPath, keyed: keyed, blockSize: blockSize, problems: &problems)
                    if actual != expected {
                        problems.append("\(format) \(keyPath) keyed \(keyed) block size \(blockSize): \(firstDifference(actual, expected))")
                    }
                }
            }
        }
        problems += wholeDocumentAgreement(bytes)
        problems += structureAgreement(bytes)
        return problems
    }

    /// The outer levels `infer` reads a root object by (`forEachStructure`): the same events and
    /// error whatever the block size, and an error exactly when the whole-document parser has one.
    static func structureAgreement(_ bytes: [UInt8]) -> [String] {
        func events(blockSize: Int) -> (events: [String], error: JSONSyntaxError?, other: Error?) {
            var events: [String] = []
            do {
                let reader = JSONReader(source: MemoryByteSource(bytes), blockSize: blockSize)
                try reader.forEachStructure(streamingDepth: 3) { events.append("\($0)") }
                return (events, nil, nil)
            } catch let error as JSONSyntaxError {
                return (events, error, nil)
            } catch {
                return (events, nil, error)
            }
        }
        let expected = events(blockSize: bytes.count + 1)
        if let other = expected.other { return ["unexpected error \(other)"] }
        var problems: [String] = []
        for blockSize in blockSizes {
            let actual = events(blockSize: blockSize)
            if actual.events != expected.events || actual.error != expected.error {
                problems.append("structure, block size \(blockSize): \(firstDifference(actual.events, expected.events))")
            }
        }
        let whole = (try? JSONDocument(parsing: bytes)) == nil
        if whole != (expected.error != nil) {
            problems.append(
                "structure \(whole ? "accepts what the parser rejects" : "rejects what the parser accepts"): \(expected.error.map { "\($0)" } ?? "")"
            )
        }
        return problems
    }

    /// What one read gives, as lines of text; broken invariants go to `problems`.
    static func transcript(
        _ bytes: [UInt8], format: DumpFormat, keyPath: [String], keyed: Bool = false, blockSize: Int, problems: inout [String]
    ) -> [String] {
        var lines: [String] = []
        let reader = JSONReader(source: MemoryByteSource(bytes), format: format, keyPath: keyPath, keyed: keyed, blockSize: blockSize)
        do {
            try reader.forEachItem { item in
                switch item {
                case let .record(value):
                    lines.append("record \(value.pointer)@\(value.fileOffset)")
                    checkDocument(value.document, in: bytes, problems: &problems)
                    walk(value, in: bytes, into: &lines, problems: &problems)
                    checkMinified(value, problems: &problems)
                case let .keyedRecord(key, value):
                    lines.append("key \(key.string ?? "?") \(key.pointer)@\(key.fileOffset)")
                    checkOffset(key.fileOffset, startsValueOf: .string, in: bytes, problems: &problems)
                    lines.append("keyed \(value.kind) \(value.pointer)@\(value.fileOffset)")
                    checkDocument(value.document, in: bytes, problems: &problems)
                    walk(value, in: bytes, into: &lines, problems: &problems)
                case let .notARecord(value):
                    lines.append("not a record \(value.kind) \(value.pointer)@\(value.fileOffset)")
                    checkDocument(value.document, in: bytes, problems: &problems)
                    walk(value, in: bytes, into: &lines, problems: &problems)
                case let .skippedNull(offset, pointer):
                    lines.append("null \(pointer)@\(offset)")
                    checkOffset(offset, startsValueOf: .null, in: bytes, problems: &problems)
                case let .keyPathNotFound(offset, pointer, key):
                    lines.append("no '\(key)' \(pointer)@\(offset)")
                    if !(0..<bytes.count).contains(offset) { problems.append("key path offset \(offset) outside the input") }
                case let .lineSyntaxError(error):
                    syntaxError(error, in: bytes, into: &lines, problems: &problems)
                }
            }
        } catch let error as JSONSyntaxError {
            syntaxError(error, in: bytes, into: &lines, problems: &problems)
        } catch {
            problems.append("unexpected error \(error)")
        }
        return lines
    }

    /// A syntax error, of the file or of a JSON Lines line: its offset must be in the input.
    static func syntaxError(_ error: JSONSyntaxError, in bytes: [UInt8], into lines: inout [String], problems: inout [String]) {
        lines.append("error \(error.offset): \(error.message)")
        if !(0...bytes.count).contains(error.offset) {
            problems.append("error offset \(error.offset) outside the input: \(error.message)")
        }
        checkLocation(error.offset, in: bytes, problems: &problems)
    }

    /// Walks a value and everything in it, reading each one the ways the mapper does.
    static func walk(_ value: JSONValue, in bytes: [UInt8], into lines: inout [String], problems: inout [String]) {
        checkOffset(value.fileOffset, startsValueOf: value.kind, in: bytes, problems: &problems)
        switch value.kind {
        case .null, .true, .false:
            lines.append("\(value.kind) \(value.bool.map(String.init) ?? "-")")
        case .number:
            lines.append("number \(value.numberText ?? "?") \(value.isIntegralNumber)")
        case .string:
            let text = value.string ?? ""
            lines.append("string \(JSONWriter.stringLiteral(text))")
            if !value.stringEquals(text) { problems.append("string \(JSONWriter.stringLiteral(text)) is not equal to itself") }
        case .array:
            lines.append("array \(value.count)")
            var count = 0
            for element in value.elements {
                walk(element, in: bytes, into: &lines, problems: &problems)
                count += 1
            }
            if count != value.count { problems.append("array of count \(value.count) has \(count) elements") }
        case .object:
            lines.append("object \(value.count)")
            for (key, member) in value.members {
                guard let name = key.string else {
                    problems.append("an object key is a \(key.kind)")
                    continue
                }
                lines.append("key \(JSONWriter.stringLiteral(name)) \(member.pointer)")
                checkOffset(key.fileOffset, startsValueOf: .string, in: bytes, problems: &problems)
                if value[name] == nil { problems.append("member \(JSONWriter.stringLiteral(name)) not found by subscript") }
                walk(member, in: bytes, into: &lines, problems: &problems)
            }
        }
    }

    /// A document's text must be the input's bytes at its offset.
    static func checkDocument(_ document: JSONDocument, in bytes: [UInt8], problems: inout [String]) {
        let start = document.fileOffset
        let end = start + document.bytes.count
        guard start >= 0, end <= bytes.count, Array(bytes[start..<end]) == document.bytes else {
            problems.append("document at offset \(start) (\(document.bytes.count) bytes) is not the input's text there")
            return
        }
    }

    /// A value's offset must point at the byte its kind starts with.
    static func checkOffset(_ offset: Int, startsValueOf kind: JSONKind, in bytes: [UInt8], problems: inout [String]) {
        guard offset >= 0, offset < bytes.count else {
            problems.append("\(kind) at offset \(offset), outside the input")
            return
        }
        let byte = bytes[offset]
        let fits =
            switch kind {
            case .null: byte == UInt8(ascii: "n")
            case .true: byte == UInt8(ascii: "t")
            case .false: byte == UInt8(ascii: "f")
            case .number: byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            case .string: byte == UInt8(ascii: "\"")
            case .array: byte == UInt8(ascii: "[")
            case .object: byte == UInt8(ascii: "{")
            }
        if !fits { problems.append("\(kind) at offset \(offset), where the input has byte \(byte)") }
    }

    /// The line and column of an offset must agree with counting by hand (scalars, a BOM skipped).
    static func checkLocation(_ offset: Int, in bytes: [UInt8], problems: inout [String]) {
        guard let located = try? LineLocator.locate([offset], in: MemoryByteSource(bytes))[offset] else {
            problems.append("offset \(offset) not located")
            return
        }
        var line = 1
        var column = 1
        let bom = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for byte in bytes[min(bom, bytes.count)..<max(min(offset, bytes.count), min(bom, bytes.count))] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        if located != .lineColumn(line: line, column: column) {
            problems.append("offset \(offset) located at \(located), expected \(line):\(column)")
        }
    }

    /// A minified value parses again, to the same text.
    static func checkMinified(_ value: JSONValue, problems: inout [String]) {
        let text = JSONWriter.minified(value)
        do {
            let again = try JSONDocument(parsing: text)
            let second = JSONWriter.minified(again.root)
            if second != text { problems.append("minified text changes when minified again: \(text) -> \(second)") }
        } catch {
            problems.append("minified text does not parse (\(error.message)): \(text)")
        }
    }

    /// The streaming reader and the whole-value parser accept the same single values.
    static func wholeDocumentAgreement(_ bytes: [UInt8]) -> [String] {
        var streamed: JSONSyntaxError?
        do {
            try JSONReader(source: MemoryByteSource(bytes)).forEachItem { _ in }
        } catch let error as JSONSyntaxError {
            streamed = error
        } catch {
            return ["unexpected error \(error)"]
        }
        var whole: JSONSyntaxError?
        do {
            _ = try JSONDocument(parsing: bytes)
        } catch {
            whole = error
        }
        switch (streamed, whole) {
        case (nil, nil), (.some, .some): return []
        case let (nil, error?): return ["the reader accepts what the parser rejects at \(error.offset): \(error.message)"]
        case let (error?, nil): return ["the reader rejects what the parser accepts at \(error.offset): \(error.message)"]
        }
    }

    static func firstDifference(_ actual: [String], _ expected: [String]) -> String {
        for index in 0..<max(actual.count, expected.count) {
            let got = index < actual.count ? actual[index] : "(nothing)"
            let wanted = index < expected.count ? expected[index] : "(nothing)"
            if got != wanted { return "line \(index + 1): \(got), expected \(wanted)" }
        }
        return "equal"
    }
}
