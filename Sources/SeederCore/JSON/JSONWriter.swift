/// Writes JSON text: minified values for `json` attributes, escaped strings for messages.
///
/// Minified means no whitespace between tokens; numbers keep the text they were written with,
/// strings are re-escaped minimally (`"`, `\`, control characters), key order is kept. Two
/// occurrences that differ only in whitespace or escaping give the same text.
public enum JSONWriter {
    /// The minified text of a value.
    public static func minified(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.textEnd - Int(value.node.start))
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value.kind {
        case .null: out += Array("null".utf8)
        case .true: out += Array("true".utf8)
        case .false: out += Array("false".utf8)
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
    static func writeString(_ bytes: some Sequence<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20: out += Array("\\u00\(hex2(byte).lowercased())".utf8)
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
