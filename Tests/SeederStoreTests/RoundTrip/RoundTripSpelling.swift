import Foundation
import SeederTestSupport

/// Spells logical values as JSON text, each time one of the ways docs/mapping.md says mean the
/// same value: `42`, `"42"`, `42.0`, `4.2e1`; `true`, `1`, `"Yes"`; a date in any listed form and
/// offset; strings with or without escapes. Occurrences of one record spell it differently, and
/// must still merge.
struct RoundTripSpelling {
    var random: SplitMix64
    /// JSON Lines: a value may not span lines.
    var singleLine = false

    mutating func spell(_ value: LogicalValue, as type: ValueType, timeZone: DateZone) -> String {
        switch value {
        case .null: return "null"
        case let .integer(n): return integer(n)
        case let .real(d): return real(d)
        case let .decimal(negative, digits, exponent): return decimal(negative: negative, digits: digits, exponent: exponent)
        case let .boolean(b):
            if random.chance(0.4) { return random.pick(b ? ["true", "1"] : ["false", "0"]) }
            return string(random.pick(b ? ["true", "TRUE", "yes", "Yes", "t", "Y", "1"] : ["false", "False", "no", "NO", "F", "n", "0"]))
        case let .string(text):
            if Self.isNumberText(text) || text == "true" || text == "false", random.chance(0.5) { return text }
            return string(text)
        case let .date(milliseconds):
            guard case let .date(format, _) = type else { fatalError("a date value of a \(type) attribute") }
            return date(milliseconds, format: format, zone: timeZone)
        case let .url(text): return string(text)
        case let .uuid(text): return string(String(text.map { random.chance(0.5) ? Character($0.uppercased()) : $0 }))
        case let .data(bytes):
            var base64 = Data(bytes).base64EncodedString()
            if random.chance(0.5) { base64 = String(base64.prefix { $0 != "=" }) }
            return string(base64)
        case let .json(tree): return json(tree)
        }
    }

    // MARK: Numbers

    mutating func integer(_ n: Int64) -> String {
        let sign = n < 0 ? "-" : (n == 0 && random.chance(0.2) ? "-" : "")
        let magnitude = String(n.magnitude)
        let text: String
        switch random.int(0...5) {
        case 0:
            text = sign + magnitude + random.pick([".0", ".000"])
        case 1:
            // Trailing zeros moved into the exponent: `3e2`.
            let trimmed = magnitude == "0" ? "0" : String(magnitude.reversed().drop { $0 == "0" }.reversed())
            text = sign + trimmed + random.pick(["e", "E", "e+"]) + String(magnitude.count - trimmed.count)
        case 2:
            // Scientific: `9.223372036854775807e18`.
            let head = magnitude.prefix(1), tail = magnitude.dropFirst()
            text = sign + head + (tail.isEmpty ? "" : "." + tail) + "e" + String(magnitude.count - 1)
        default:
            text = sign + magnitude
        }
        return random.chance(0.25) ? string(text) : text
    }

    mutating func real(_ d: Double) -> String {
        var text: String
        switch random.int(0...3) {
        case 0: text = String(format: "%.17g", d)
        case 1: text = String(format: "%.17E", d)
        default: text = "\(d)"
        }
        if text.hasPrefix("-0") == false, d == 0, d.sign == .minus { text = "-" + text }
        return random.chance(0.2) ? string(text) : text
    }

    mutating func decimal(negative: Bool, digits: [UInt8], exponent: Int) -> String {
        let sign = negative ? "-" : ""
        let text: String
        if digits.isEmpty {
            text = random.pick(["0", "0.0", "-0", "0e5", "-0.000", "0E-7"])
        } else {
            let written = digits.map { String($0) }.joined()
            switch random.int(0...3) {
            case 0:
                // All digits and an exponent, with zeros to spare: `1234500e-4`.
                let zeros = random.int(0...3)
                text = sign + written + String(repeating: "0", count: zeros) + "e" + String(exponent - zeros)
            case 1:
                text =
                    sign + written.prefix(1) + (digits.count > 1 ? "." + written.dropFirst() : "") + "E"
                    + String(exponent + digits.count - 1)
            default:
                let canonical = RoundTripExpectation.canonicalDecimal(negative: negative, digits: digits, exponent: exponent)
                text = canonical + (random.chance(0.5) ? "" : (canonical.contains(".") ? "00" : ".0"))
            }
        }
        return random.chance(0.2) ? string(text) : text
    }

    /// RFC 8259 number text, as `string` attributes take a bare number "as written".
    static func isNumberText(_ text: String) -> Bool {
        text.range(of: #"\A-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\z"#, options: .regularExpression) != nil
    }

    // MARK: Strings

    /// A JSON string literal of `text`, each character escaped or not at random (controls always).
    mutating func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/": out += random.chance(0.3) ? "\\/" : "/"
            case "\n": out += random.chance(0.5) ? "\\n" : "\\u000A"
            case "\t": out += random.chance(0.5) ? "\\t" : "\\u0009"
            case "\r": out += "\\r"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case _ where scalar.value < 0x20: out += Self.unicodeEscape(scalar.value)
            default:
                if random.chance(0.15) {
                    if scalar.value > 0xFFFF {
                        // A surrogate pair, as JSON must write characters past the BMP.
                        let v = scalar.value - 0x10000
                        out += Self.unicodeEscape(0xD800 + (v >> 10)) + Self.unicodeEscape(0xDC00 + (v & 0x3FF))
                    } else {
                        out += Self.unicodeEscape(scalar.value)
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    // MARK: JSON values

    mutating func json(_ tree: JSONTree) -> String {
        let space = singleLine ? random.pick(["", " ", "\t"]) : random.pick(["", " ", "\n  ", " \r\n"])
        switch tree {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(text): return text
        case let .string(text): return string(text)
        case let .array(items): return "[" + space + items.map { json($0) }.joined(separator: "," + space) + space + "]"
        case let .object(members):
            return "{" + space + members.map { string($0.key) + space + ":" + json($0.value) }.joined(separator: "," + space) + "}"
        }
    }

    // MARK: Dates

    mutating func date(_ milliseconds: Int64, format: DateFormatChoice, zone: DateZone) -> String {
        switch format {
        case .iso8601: return string(iso8601(milliseconds, zone: zone))
        case .unix: return epoch(milliseconds, scale: 3)
        case .unixMilliseconds: return epoch(milliseconds, scale: 0)
        case .unixMicroseconds: return subMillisecondEpoch(milliseconds, digits: 3)
        case .unixNanoseconds: return subMillisecondEpoch(milliseconds, digits: 6)
        case let .pattern(pattern, _):
            let parts = CivilTime(milliseconds: milliseconds + Int64(zone.offsetSeconds) * 1000)
            var text = pattern.replacingOccurrences(of: "yyyy", with: CivilTime.pad(parts.year, 4))
            text = text.replacingOccurrences(of: "MM", with: CivilTime.pad(parts.month, 2))
            text = text.replacingOccurrences(of: "dd", with: CivilTime.pad(parts.day, 2))
            text = text.replacingOccurrences(of: "HH", with: CivilTime.pad(parts.hour, 2))
            text = text.replacingOccurrences(of: "mm", with: CivilTime.pad(parts.minute, 2))
            text = text.replacingOccurrences(of: "ss", with: CivilTime.pad(parts.second, 2))
            text = text.replacingOccurrences(of: "Z", with: zone.offsetSeconds == 0 ? "+0000" : zone.compactOffset)
            return string(text)
        }
    }

    /// ISO 8601 in one of the forms docs/mapping.md lists: with an offset of its own (the wall
    /// time moved by it), or none (the attribute's zone); fractions of 1 to 6 digits; a space
    /// for `T`; a date alone at midnight.
    mutating func iso8601(_ milliseconds: Int64, zone: DateZone) -> String {
        var offset = 0
        var suffix = ""
        let zoneApplies = zone.years.contains(CivilTime(milliseconds: milliseconds + Int64(zone.offsetSeconds) * 1000).year)
        if random.chance(0.6) || !zoneApplies {
            offset = random.pick([0, 0, 3600, -18_000, 19_800, -34_200, 50_400, -43_200])
            let sign = offset < 0 ? "-" : "+"
            let h = CivilTime.pad(abs(offset) / 3600, 2), m = CivilTime.pad(abs(offset) % 3600 / 60, 2)
            suffix =
                offset == 0 && random.chance(0.5) ? "Z" : random.pick([sign + h + ":" + m, sign + h + m] + (m == "00" ? [sign + h] : []))
        } else {
            offset = zone.offsetSeconds
        }
        let local = CivilTime(milliseconds: milliseconds + Int64(offset) * 1000)
        guard (0...9999).contains(local.year) else {
            // The offset moved the wall time out of the years: the instant in UTC, said so.
            return CivilTime(milliseconds: milliseconds).storedISO8601
        }
        let day = CivilTime.pad(local.year, 4) + "-" + CivilTime.pad(local.month, 2) + "-" + CivilTime.pad(local.day, 2)
        if local.millisecondOfDay == 0, suffix.isEmpty, random.chance(0.5) { return day }
        var time = CivilTime.pad(local.hour, 2) + ":" + CivilTime.pad(local.minute, 2)
        if local.second != 0 || local.millisecond != 0 || random.chance(0.5) {
            time += ":" + CivilTime.pad(local.second, 2)
            if local.millisecond != 0 || random.chance(0.3) {
                // Digits past the millisecond are truncated by the docs' rule.
                let fraction = CivilTime.pad(local.millisecond, 3) + String(repeating: String(random.int(0...9)), count: random.int(0...3))
                let trimmed = String(fraction.reversed().drop { $0 == "0" }.reversed())
                time += "." + (trimmed.isEmpty ? "0" : trimmed)
            }
        }
        return day + random.pick(["T", " "]) + time + suffix
    }

    /// Seconds (`scale` 3) or milliseconds (0) since 1970, sometimes with a digit past the
    /// millisecond that the docs' floor (toward the past) drops: `-1.5004` seconds is -1501 ms.
    mutating func epoch(_ milliseconds: Int64, scale: Int) -> String {
        let extra = random.chance(0.3)
        // With an extra digit, a negative instant is written from the millisecond after it.
        let written = extra && milliseconds < 0 ? milliseconds + 1 : milliseconds
        let magnitude = String(written.magnitude)
        let padded = String(repeating: "0", count: max(0, scale + 1 - magnitude.count)) + magnitude
        var integer = String(padded.dropLast(scale)), fraction = String(padded.suffix(scale))
        if extra { fraction += String(random.int(1...9)) }
        fraction = String(fraction.reversed().drop { $0 == "0" }.reversed())
        if integer.isEmpty { integer = "0" }
        let text = (milliseconds < 0 ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction)
        return random.chance(0.25) ? string(text) : text
    }

    /// Microseconds (`digits` 3) or nanoseconds (6) since 1970: the millisecond times 10^digits
    /// plus, sometimes, a part of a millisecond (and a fraction) that the docs' floor drops. In
    /// text: the values pass 64 bits.
    mutating func subMillisecondEpoch(_ milliseconds: Int64, digits: Int) -> String {
        let scale = Int64(pow(10, Double(digits)))
        let part = random.chance(0.4) ? Int64(random.int(1...Int(scale - 1))) : 0
        func padded(_ value: Int64) -> String {
            let text = String(value)
            return String(repeating: "0", count: digits - text.count) + text
        }
        var text: String
        if milliseconds >= 0 || part == 0 {
            // m * 10^d + p, which floors to m for 0 <= p < 10^d.
            text = String(milliseconds.magnitude) + padded(part)
            if milliseconds >= 0, part != 0, random.chance(0.3) { text += "." + String(random.int(1...9)) }
        } else {
            // m * 10^d + p = -((|m| - 1) * 10^d + (10^d - p)).
            text = String(milliseconds.magnitude - 1) + padded(scale - part)
        }
        text = String(text.drop { $0 == "0" })
        if text.isEmpty || text.hasPrefix(".") { text = "0" + text }
        if milliseconds < 0, text != "0" { text = "-" + text }
        return random.chance(0.25) ? string(text) : text
    }
}
