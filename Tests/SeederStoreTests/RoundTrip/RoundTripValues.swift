import SeederTestSupport

/// Random logical values of each type, weighted toward the edges a seed must keep exactly:
/// the ends of 64-bit integers, subnormal and huge doubles, long decimals, the years 0000 and
/// 9999, empty strings and blobs, controls, emoji, combining marks and their precomposed twins.
enum RoundTripValues {
    static let integers: [Int64] = [
        .min, .max, .min + 1, .max - 1, 0, -1, 1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1,
        999_999_999_999_999_999, 1_000_000_000_000_000_000, -1_000_000_000_000_000_000, 300,
    ]

    static let reals: [Double] = [
        0, -0.0, 0.1, 1.5, -2.25, 1e-5, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1.7976931348623157e308,
        -1.7976931348623157e308, 0.30000000000000004, 1e22, 1e23, 9_007_199_254_740_992, 3.0, 123_456.789,
    ]

    /// Strings whose bytes must come back unchanged. `é` twice (precomposed and `e` + U+0301):
    /// Swift calls them equal, SQLite and the docs do not.
    static let strings: [String] = [
        "", "plain", "with \"quotes\" and \\ backslash", "tab\tnewline\ncr\r", "\u{01}\u{1F}\u{7F}",
        "\u{E9}", "e\u{301}", "🎉", "👩‍👩‍👧‍👦", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "日本語", "a/b", "\u{2028}\u{2029}", "\u{FEFF}bom",
        "12.50", "-0", "1E5", "true", "false", "null", " spaced ", "Ünïcödé", "\u{10FFFF}",
    ]

    /// Numbers as JSON writes them, kept as text in a `json` value.
    static let numberTexts = ["0", "-0", "1.50", "1e5", "-12.5E-3", "9223372036854775808", "3.0", "0.1", "1E+400"]

    static let urls = [
        "https://example.com", "https://example.com/a/b?c=d&e=f#g", "http://[::1]:8080/x", "mailto:someone@example.com",
        "urn:isbn:0451450523", "https://例え.jp/ü", "ftp://ftp.example.org/%20file", "x:", "a+b-c.d:rest",
    ]

    static func integer(_ random: inout SplitMix64) -> Int64 {
        switch random.int(0...3) {
        case 0: return random.pick(integers)
        case 1: return Int64(bitPattern: random.next())
        default: return Int64(random.int(-1000...1000))
        }
    }

    static func real(_ random: inout SplitMix64) -> Double {
        switch random.int(0...3) {
        case 0: return random.pick(reals)
        case 1:
            // Any finite double, subnormals included.
            while true {
                let value = Double(bitPattern: random.next())
                if value.isFinite { return value }
            }
        default: return Double(random.int(-100_000...100_000)) / 100
        }
    }

    static func decimal(_ random: inout SplitMix64) -> LogicalValue {
        let negative = random.chance(0.4)
        switch random.int(0...9) {
        case 0: return .decimal(negative: false, digits: [], exponent: 0)
        // Exactly 1000 characters of canonical text, the most the docs allow.
        case 1: return .decimal(negative: false, digits: [1], exponent: 999)
        case 2: return .decimal(negative: negative, digits: [5, 0, 1, 3, 2, 6], exponent: -2)
        default:
            var digits = (0..<random.int(1...40)).map { _ in UInt8(random.int(0...9)) }
            digits[0] = UInt8(random.int(1...9))
            digits[digits.count - 1] = UInt8(random.int(1...9))
            return .decimal(negative: negative, digits: digits, exponent: random.int(-45...12))
        }
    }

    static func string(_ random: inout SplitMix64) -> String {
        if random.chance(0.6) { return random.pick(strings) }
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{1B}", "é", "e\u{301}", "ß", "€", "😀", "\u{200D}", "ﬁ", "\u{7F}"]
        return (0..<random.int(1...8)).map { _ in random.pick(pieces) }.joined()
    }

    /// Milliseconds since 1970 that `format` can write: whole seconds or days for patterns
    /// (which carry no milliseconds), and for the years `yyyy` may be asked to write.
    static func date(_ random: inout SplitMix64, format: DateFormatChoice) -> Int64 {
        let first: Int64 = -62_167_219_200_000  // 0000-01-01T00:00:00.000Z
        let last: Int64 = 253_402_300_799_999  // 9999-12-31T23:59:59.999Z
        var milliseconds: Int64
        switch random.int(0...4) {
        case 0: milliseconds = random.pick([first, last, 0, -1, 978_307_200_000, 1_310_291_463_500])
        case 1: milliseconds = first + Int64(random.next() % UInt64(last - first + 1))
        default: milliseconds = Int64(random.int(-2_000_000_000...4_000_000_000)) * 1000 + Int64(random.int(0...999))
        }
        if case let .pattern(_, hasTime) = format {
            // Mostly 1901-2100; sometimes any year from 0001 that `yyyy` writes as it is.
            if !random.chance(0.2) || milliseconds < -62_135_596_800_000 {
                milliseconds = Int64(random.int(-2_177_452_800...4_102_444_799)) * 1000
            }
            let unit: Int64 = hasTime ? 1000 : 86_400_000
            milliseconds = floorDivision(milliseconds, unit).quotient * unit
        }
        return milliseconds
    }

    static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let (q, r) = (a / b, a % b)
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    static func uuid(_ random: inout SplitMix64) -> String {
        let hex = (0..<32).map { _ in String(random.int(0...15), radix: 16) }.joined()
        let cuts = [8, 12, 16, 20]
        var text = ""
        for (index, character) in hex.enumerated() {
            if cuts.contains(index) { text += "-" }
            text.append(character)
        }
        return text
    }

    static func data(_ random: inout SplitMix64) -> [UInt8] {
        (0..<random.pick([0, 0, 1, 2, 3, 16, 24])).map { _ in UInt8(random.int(0...255)) }
    }

    static func json(_ random: inout SplitMix64, depth: Int = 0) -> JSONTree {
        // A `null` at the top is no json value but a null (stored as NULL), drawn apart.
        switch random.int((depth == 0 ? 1 : 0)...(depth < 3 ? 6 : 3)) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2: return .number(random.pick(numberTexts))
        case 3: return .string(string(&random))
        case 4: return .array((0..<random.int(0...3)).map { _ in json(&random, depth: depth + 1) })
        default:
            // Distinct keys by their bytes (`é` and `e` + U+0301 are two keys).
            var keys: [String] = []
            for _ in 0..<random.int(0...4) {
                let key = string(&random)
                if !keys.contains(where: { Array($0.utf8) == Array(key.utf8) }) { keys.append(key) }
            }
            return .object(keys.map { JSONMember(key: $0, value: json(&random, depth: depth + 1)) })
        }
    }

    /// A value of `type`, never `null`.
    static func value(_ random: inout SplitMix64, type: ValueType) -> LogicalValue {
        switch type {
        case .integer: return .integer(integer(&random))
        case .real: return .real(real(&random))
        case .decimal: return decimal(&random)
        case .boolean: return .boolean(random.chance(0.5))
        case .string: return .string(string(&random))
        case let .date(format, _): return .date(date(&random, format: format))
        case .url: return .url(random.pick(urls))
        case .uuid: return .uuid(uuid(&random))
        case .data: return .data(data(&random))
        case .json: return .json(json(&random))
        }
    }
}
