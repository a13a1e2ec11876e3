import Foundation
import SeederCore

/// The forms a secret takes in text a service sends back (docs/guides/fetching.md, What fetch
/// guarantees): as is, percent-encoded (either case of hex, `+` for a space, every byte or only
/// the reserved ones) and JSON-escaped (`\/`, `\uXXXX`). The common forms are listed, for
/// replacing; any mix of them (`\/` and `%2B` in one value) is found by decoding the text first
/// (`decoded`), for refusing or hiding what the list misses.
enum SecretForms {
    /// `value`'s common forms, the value itself first, without repeats.
    static func of(_ value: String) -> [String] {
        let bytes = Array(value.utf8)
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        // encodeURIComponent's set: also leaves `!'()*` alone.
        let component = unreserved.union("!'()*".utf8)
        func percent(_ keep: Set<UInt8>, lowercase: Bool = false, plus: Bool = false) -> String {
            var text = ""
            for byte in bytes {
                if keep.contains(byte) {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                } else if plus, byte == 0x20 {
                    text += "+"
                } else {
                    let hex = String(format: lowercase ? "%%%02x" : "%%%02X", byte)
                    text += hex
                }
            }
            return text
        }
        func jsonEveryScalar(lowercase: Bool) -> String {
            value.unicodeScalars.map { scalar -> String in
                if scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) { return String(scalar) }
                return String(scalar).utf16.map { String(format: lowercase ? "\\u%04x" : "\\u%04X", $0) }.joined()
            }.joined()
        }
        let json = JSONWriter.escaped(value)
        var forms = [
            value, percent(unreserved), percent(unreserved, lowercase: true), percent(unreserved, plus: true),
            percent(unreserved, lowercase: true, plus: true), percent(component), percent(component, plus: true), percent([]),
            percent([], lowercase: true), json, json.replacingOccurrences(of: "/", with: "\\/"), jsonEveryScalar(lowercase: false),
            jsonEveryScalar(lowercase: true),
        ]
        forms += forms.filter { $0.contains("%") }.map { $0.replacingOccurrences(of: "%", with: "%25") }
        var seen: Set<String> = []
        return forms.filter { seen.insert($0).inserted }
    }

    /// How a text is decoded before it is searched: JSON's escapes undone, then percent-encoding
    /// undone `percentPasses` times (twice: a value encoded once more on its way). Each stage
    /// is searched on its own: a secret may hold `%41` itself, which a second pass would turn
    /// into `A`. A `+` for a space is matched by the search (`firstIndex`), not decoded here:
    /// a `+` may stand for itself in the same text.
    static let percentPasses = [0, 1, 2]

    /// `bytes` decoded: JSON's escapes undone, then percent-encoding `percentPasses` times.
    /// `origins`, when asked for, gives each decoded byte's offset in `bytes`.
    static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, percentPasses: Int, origins: inout [Int]?) -> [UInt8] {
        var first = unescapeJSON(bytes, origins: &origins)
        for _ in 0..<percentPasses {
            var next: [Int]? = origins == nil ? nil : []
            let again = first.withUnsafeBufferPointer { percentDecoded($0, origins: &next) }
            if let map = origins, let inner = next { origins = inner.map { map[$0] } }
            first = again
        }
        return first
    }

    /// Where `needle` first is in `haystack`, a space in it matched by a space or a `+` (form
    /// encoding): `memchr` for its first byte, then the rest compared.
    static func firstIndex(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let start = haystack.baseAddress, let first = needle.first, needle.count <= haystack.count else { return nil }
        let last = haystack.count - needle.count
        let spaced = needle.contains(0x20)
        func matches(at index: Int) -> Bool {
            guard spaced else { return memcmp(start + index, needle, needle.count) == 0 }
            for (offset, byte) in needle.enumerated() {
                let other = start[index + offset]
                guard other == byte || (byte == 0x20 && other == UInt8(ascii: "+")) else { return false }
            }
            return true
        }
        if first == 0x20 { return (0...last).first(where: matches) }
        var offset = 0
        while offset <= last {
            guard let hit = memchr(start + offset, Int32(first), last - offset + 1) else { return nil }
            let index = start.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if matches(at: index) { return index }
            offset = index + 1
        }
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `bytes` with each `%XX` undone (the rest as it is); `origins`, when asked for, gives each
    /// decoded byte's offset in `bytes`. A detail URL's file name is decoded with it too.
    static func percentDecoded(_ bytes: UnsafeBufferPointer<UInt8>, origins: inout [Int]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                origins?.append(index)
                index += 3
                continue
            }
            out.append(byte)
            origins?.append(index)
            index += 1
        }
        return out
    }

    private static func unescapeJSON(_ bytes: UnsafeBufferPointer<UInt8>, origins: inout [Int]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        func hex4(at start: Int) -> UInt32? {
            guard start + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = hexValue(bytes[start + offset]) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                out.append(byte)
                origins?.append(index)
                index += 1
                continue
            }
            let start = index
            var scalar: UInt32?
            var length = 2
            switch bytes[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = UInt32(bytes[index + 1])
            case UInt8(ascii: "b"): scalar = 8
            case UInt8(ascii: "f"): scalar = 12
            case UInt8(ascii: "n"): scalar = 10
            case UInt8(ascii: "r"): scalar = 13
            case UInt8(ascii: "t"): scalar = 9
            case UInt8(ascii: "u"):
                if let unit = hex4(at: index + 2) {
                    length = 6
                    scalar = unit
                    if (0xD800..<0xDC00).contains(unit), index + 12 <= bytes.count, bytes[index + 6] == UInt8(ascii: "\\"),
                        bytes[index + 7] == UInt8(ascii: "u"), let low = hex4(at: index + 8), (0xDC00..<0xE000).contains(low)
                    {
                        scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                        length = 12
                    }
                }
            default: break
            }
            guard let scalar, let decoded = Unicode.Scalar(scalar) else {
                out.append(byte)
                origins?.append(index)
                index += 1
                continue
            }
            for utf8 in String(decoded).utf8 {
                out.append(utf8)
                origins?.append(start)
            }
            index += length
        }
        return out
    }
}
