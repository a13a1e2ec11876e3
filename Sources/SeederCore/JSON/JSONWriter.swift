/// Writes JSON text: minified values for `json` attributes, escaped strings for messages.
///
/// Minified means no whitespace between tokens; numbers keep the text they were written with,
/// strings are re-escaped minimally (`"`, `\`, control characters), key order is kept. Two
/// occurrences that differ only in whitespace or escaping give the same text.
public enum JSONWriter {
    /// The minified text of a value.
    ///
    /// Written straight into the string's storage: the text is never longer than the value's
    /// text in the dump (whitespace goes, and no escape is written longer than it was read), so
    /// a large `json` value costs its size once, not twice (bench/README.md, Memory).
    public static func minified(_ value: JSONValue) -> String {
        String(unsafeUninitializedCapacity: value.textEnd - Int(value.node.start)) { storage in
            var out = FilledBytes(storage: storage)
            write(value, into: &out)
            return out.count
        }
    }

    static func write(_ value: JSONValue, into out: inout some JSONByteSink) {
        switch value.kind {
        case .null: out.append(contentsOf: "null".utf8)
        case .true: out.append(contentsOf: "true".utf8)
        case .false: out.append(contentsOf: "false".utf8)
        case .number: value.withBytes { out.append(contentsOf: $0) }
        case .string:
            if value.node.flags & JSONNode.escaped == 0 {
                out.append(UInt8(ascii: "\""))
                value.withBytes { out.append(contentsOf: $0) }
                out.append(UInt8(ascii: "\""))
            } else {
                writeString(value.unescapedBytes(), into: &out)
            }
        case .array:
            out.append(UInt8(ascii: "["))
            var first = true
            for element in value.elements {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object:
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in value.members {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                write(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Writes a string with minimal escapes.
    static func writeString(_ bytes: some Sequence<UInt8>, into out: inout some JSONByteSink) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x08: out.append(contentsOf: #"\b"#.utf8)
            case 0x0C: out.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20: out.append(contentsOf: "\\u00\(hex2(byte).lowercased())".utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string: quotes, and JSON's escapes inside.
    public static func stringLiteral(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text.utf8, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` with JSON's escapes, without the quotes.
    public static func escaped(_ text: String) -> String {
        var out: [UInt8] = []
        writeString(text.utf8, into: &out)
        return String(decoding: out.dropFirst().dropLast(), as: UTF8.self)
    }
}

/// Where `JSONWriter` writes bytes: an array, or a string's storage being filled.
protocol JSONByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: some Sequence<UInt8>)
}

extension [UInt8]: JSONByteSink {}

/// Storage of a known size filled from its start: `JSONWriter.minified`'s string.
struct FilledBytes: JSONByteSink {
    let storage: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(storage: UnsafeMutableBufferPointer<UInt8>) {
        self.storage = storage
    }

    mutating func append(_ byte: UInt8) {
        precondition(count < storage.count, "minified JSON longer than its text")
        storage[count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            guard let base = source.baseAddress else { return }
            precondition(count + source.count <= storage.count, "minified JSON longer than its text")
            (storage.baseAddress! + count).update(from: base, count: source.count)
            count += source.count
        }
        if copied == nil { for byte in bytes { append(byte) } }
    }
}
