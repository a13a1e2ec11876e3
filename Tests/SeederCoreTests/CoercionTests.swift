import Foundation
import Testing

@testable import SeederCore

/// An attribute of `type` with the given options, for coercion tests.
func attribute(_ type: AttributeType, format: DateFormat = .iso8601, zone: String = "UTC", storage: DateStorage = .iso8601) -> Attribute {
    Attribute(
        name: "value", column: "value", type: type, keyPath: nil, isRequired: false, defaultValue: nil,
        allowedValues: nil, isUnique: false, isIndexed: false, dateFormat: format,
        timeZone: TimeZone(identifier: zone)!, dateStorage: storage, location: SourceLocation(file: "test"))
}

/// Coerces the JSON text `json` to `attribute`: the value, or the failure's message.
func coerced(_ json: String, _ attribute: Attribute) -> String {
    do {
        let document = try JSONDocument(parsing: json)
        switch try Coercion().coerce(document.root, to: attribute) {
        case .null: return "null"
        case let .integer(value): return "integer \(value)"
        case let .real(value): return "real \(value)"
        case let .text(value): return "text \(value)"
        case let .blob(bytes): return "blob \(bytes)"
        }
    } catch let failure as CoercionFailure {
        return failure.message
    } catch {
        return "\(error)"
    }
}

/// Every row of docs/mapping.md's type table: what each type accepts and what it refuses.
struct CoercionTests {
    static let table: [(AttributeType, String, String)] = [
        (.integer, "42", "integer 42"),
        (.integer, "-7", "integer -7"),
        (.integer, "\"42\"", "integer 42"),
        (.integer, "3.0", "integer 3"),
        (.integer, "3e2", "integer 300"),
        (.integer, "1.5e1", "integer 15"),
        (.integer, "9223372036854775807", "integer 9223372036854775807"),
        (.integer, "-9223372036854775808", "integer -9223372036854775808"),
        (.integer, "3.5", "is 3.5, expected integer (it has a fraction)"),
        (.integer, "9223372036854775808", "is 9223372036854775808, past the 64-bit integer range"),
        (.integer, "\"7a\"", "is \"7a\", expected integer"),
        (.integer, "\"/api/v2/type/18/\"", "is \"/api/v2/type/18/\", expected integer (to take the number out of text, add 'match:')"),
        // Numeric strings as they decode: escapes are spelling (an encoder may write `+` as
        // `\u002B`); these were "expected integer", "expected real", "expected decimal".
        (.integer, "\"4\\u0032\"", "integer 42"),
        (.real, "\"2.\\u00325\"", "real 2.25"),
        (.decimal, "\"1e\\u002B3\"", "text 1000"),
        (.integer, "\"042\"", "is \"042\", expected integer"),
        (.integer, "true", "is true, expected integer"),
        (.integer, "null", "null"),
        (.real, "1.5", "real 1.5"),
        (.real, "\"2.25\"", "real 2.25"),
        (.real, "10", "real 10.0"),
        (.real, "1e400", "is 1e400, out of range for real"),
        (.real, "\"x\"", "is \"x\", expected real"),
        (.decimal, "5013.26", "text 5013.26"),
        (.decimal, "5013.260", "text 5013.26"),
        (.decimal, "1.50e3", "text 1500"),
        (.decimal, "1e-3", "text 0.001"),
        (.decimal, "-0.0", "text 0"),
        (.decimal, "\"12345678901234567890.123456789\"", "text 12345678901234567890.123456789"),
        (.decimal, "[1]", "is [1], expected decimal"),
        (.boolean, "true", "integer 1"),
        (.boolean, "false", "integer 0"),
        (.boolean, "1", "integer 1"),
        (.boolean, "0", "integer 0"),
        (.boolean, "\"YES\"", "integer 1"),
        (.boolean, "\"No\"", "integer 0"),
        (.boolean, "\"TRUE\"", "integer 1"),
        (.boolean, "\"0\"", "integer 0"),
        (.boolean, "\"t\"", "integer 1"),
        (.boolean, "\"F\"", "integer 0"),
        (.boolean, "\"Y\"", "integer 1"),
        (.boolean, "\"n\"", "integer 0"),
        (.boolean, "\"ye\"", "is \"ye\", expected boolean (true, false, yes, no, t, f, y, n, 1 or 0)"),
        (.boolean, "2", "is 2, expected boolean (true, false, 0 or 1)"),
        (.boolean, "\"maybe\"", "is \"maybe\", expected boolean (true, false, yes, no, t, f, y, n, 1 or 0)"),
        (.string, "\"Blake\"", "text Blake"),
        (.string, "\"a\\nb\\u00e9\"", "text a\nbé"),
        (.string, "12.50", "text 12.50"),
        (.string, "true", "text true"),
        (.string, "{\"a\":1}", "is {\"a\":1}, expected string"),
        (.url, "\"https://example.com/a?b=c#d\"", "text https://example.com/a?b=c#d"),
        (.url, "\"mailto:someone@example.com\"", "text mailto:someone@example.com"),
        (.url, "\"https://例え.jp/パス\"", "text https://例え.jp/パス"),
        (.url, "\"/relative/path\"", "is \"/relative/path\", expected an absolute URL"),
        (.url, "\"http://a b\"", "is \"http://a b\", expected an absolute URL"),
        (.url, "\"http://a/%zz\"", "is \"http://a/%zz\", expected an absolute URL"),
        (.url, "\"git+ssh://host/p%20q\"", "text git+ssh://host/p%20q"),
        (.url, "\"1http://a\"", "is \"1http://a\", expected an absolute URL"),
        (.url, "\"h_t://a\"", "is \"h_t://a\", expected an absolute URL"),
        (.url, "\":a\"", "is \":a\", expected an absolute URL"),
        (.url, "\"urn:\"", "text urn:"),
        (.url, "\"http\"", "is \"http\", expected an absolute URL"),
        (.url, "\"http://a/%41\"", "text http://a/%41"),
        (.url, "\"http://a/%4\"", "is \"http://a/%4\", expected an absolute URL"),
        (.url, "\"http://a/\\\\b\"", "is \"http://a/\\\\b\", expected an absolute URL"),
        (.uuid, "\"3F2504E0-4F89-11D3-9A0C-0305E82C3301\"", "text 3f2504e0-4f89-11d3-9a0c-0305e82c3301"),
        (.uuid, "\"3f2504e04f8911d39a0c0305e82c3301\"", "is \"3f2504e04f8911d39a0c0305e82c3301\", expected a UUID (8-4-4-4-12 hex digits)"),
        (.data, "\"AAH/\"", "blob [0, 1, 255]"),
        (.data, "\"AAE\"", "blob [0, 1]"),
        (.data, "\"not base64!\"", "is \"not base64!\", expected base64 data"),
        (.json, "{ \"b\" : [1, 2.50, \"x\\u0041\"], \"a\": null }", "text {\"b\":[1,2.50,\"xA\"],\"a\":null}"),
        (.json, "\"plain\"", "text \"plain\""),
        (.json, "12345678901234567890", "text 12345678901234567890"),
        (.json, "null", "null"),
    ]

    /// The fast path for doubles (Clinger's) gives exactly what strtod gives, and declines what
    /// it cannot do exactly.
    @Test func fastDoublesEqualStrtod() {
        func exact(_ text: String) -> Double? {
            var text = text
            return text.withUTF8 { Coercion.exactDouble($0) }
        }
        #expect(exact("0.1") == 0.1 && exact("-2.5E-3") == -0.0025 && exact("1E+2") == 100 && exact("1e22") == 1e22)
        #expect(exact("-0")?.sign == .minus && exact("0") == 0 && exact("123456789012345") == 123456789012345)
        #expect(exact("1e23") == nil && exact("1234567890123456") == nil && exact("1e-23") == nil)
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        for _ in 0..<20000 {
            let digits = String(next() % 1_000_000_000_000_000)
            let point = Int(next() % UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if text.hasPrefix(".") { text = "0" + text }
            if text.hasSuffix(".") { text += "0" }
            if next() % 3 == 0 { text += "e\(Int(next() % 40) - 20)" }
            if next() % 2 == 0 { text = "-" + text }
            guard let fast = exact(text) else { continue }
            #expect(fast == Double(text)!, "\(text)")
        }
    }

    @Test(arguments: table)
    func coercesPerTheTypeTable(_ type: AttributeType, _ json: String, _ expected: String) {
        #expect(coerced(json, attribute(type)) == expected)
    }

    static let dates: [(String, DateFormat, String, DateStorage, String)] = [
        ("\"2011-07-10\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T00:00:00.000Z"),
        ("\"2011-07-10T09:51:03Z\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T09:51:03.000Z"),
        ("\"2011-07-10T09:51:03.5Z\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T09:51:03.500Z"),
        ("\"2011-07-10T09:51:03.123456Z\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T09:51:03.123Z"),
        ("\"0099-02-03T04:05:06.007Z\"", .iso8601, "UTC", .iso8601, "text 0099-02-03T04:05:06.007Z"),
        ("\"9999-12-31T23:59:59.99Z\"", .iso8601, "UTC", .iso8601, "text 9999-12-31T23:59:59.990Z"),
        ("\"2011-07-10T09:51:03-07:00\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T16:51:03.000Z"),
        ("\"2011-07-10T09:51:03-0700\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T16:51:03.000Z"),
        ("\"2011-07-10T09:51:03+05\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T04:51:03.000Z"),
        ("\"2011-07-10 09:51:03\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T09:51:03.000Z"),
        // Escaped characters are the characters (this was "expected an ISO 8601 date").
        ("\"2011-07-10T09:51:03\\u002B02:00\"", .iso8601, "UTC", .iso8601, "text 2011-07-10T07:51:03.000Z"),
        ("\"131029146\\u0033\"", .unix, "UTC", .iso8601, "text 2011-07-10T09:51:03.000Z"),
        ("\"2011-07-10 09:51\"", .iso8601, "America/New_York", .iso8601, "text 2011-07-10T13:51:00.000Z"),
        ("\"2011-01-10T09:51:03\"", .iso8601, "America/New_York", .iso8601, "text 2011-01-10T14:51:03.000Z"),
        ("\"2011-07-10T09:51:03Z\"", .iso8601, "America/New_York", .iso8601, "text 2011-07-10T09:51:03.000Z"),
        ("\"2012-02-29T00:00:00Z\"", .iso8601, "UTC", .unixepoch, "real 1330473600.0"),
        ("\"2011-02-29\"", .iso8601, "UTC", .iso8601, "is \"2011-02-29\", expected an ISO 8601 date"),
        ("\"2011-07-10T25:00:00Z\"", .iso8601, "UTC", .iso8601, "is \"2011-07-10T25:00:00Z\", expected an ISO 8601 date"),
        ("\"10/07/2011\"", .iso8601, "UTC", .iso8601, "is \"10/07/2011\", expected an ISO 8601 date"),
        ("1310291463", .unix, "UTC", .iso8601, "text 2011-07-10T09:51:03.000Z"),
        ("\"1310291463.25\"", .unix, "UTC", .unixepochMilliseconds, "integer 1310291463250"),
        ("-1.5", .unix, "UTC", .unixepochMilliseconds, "integer -1500"),
        ("1310291463123", .unixMilliseconds, "UTC", .iso8601, "text 2011-07-10T09:51:03.123Z"),
        ("1310291463123", .unixMilliseconds, "UTC", .unixepoch, "real 1310291463.123"),
        // Microseconds and nanoseconds: kept to the millisecond, floored (toward the past) like
        // a fraction of a millisecond; the unit is the format's, whatever the magnitude.
        ("1310291463123999", .unixMicroseconds, "UTC", .iso8601, "text 2011-07-10T09:51:03.123Z"),
        ("\"1310291463123456.9\"", .unixMicroseconds, "UTC", .unixepochMilliseconds, "integer 1310291463123"),
        ("-1500", .unixMicroseconds, "UTC", .iso8601, "text 1969-12-31T23:59:59.998Z"),
        ("1310291463", .unixMicroseconds, "UTC", .iso8601, "text 1970-01-01T00:21:50.291Z"),
        ("1310291463123999999", .unixNanoseconds, "UTC", .iso8601, "text 2011-07-10T09:51:03.123Z"),
        ("\"1310291463123456789\"", .unixNanoseconds, "UTC", .unixepoch, "real 1310291463.123"),
        ("1.310291463123e18", .unixNanoseconds, "UTC", .reference, "real 331984263.123"),
        ("-0.5", .unixNanoseconds, "UTC", .unixepochMilliseconds, "integer -1"),
        ("0", .unixNanoseconds, "UTC", .unixepochMilliseconds, "integer 0"),
        ("253402300800000000", .unixMicroseconds, "UTC", .iso8601, "is 253402300800000000, out of the range of dates"),
        ("1e40", .unixNanoseconds, "UTC", .iso8601, "is 1e40, out of the range of dates"),
        ("\"soon\"", .unixMicroseconds, "UTC", .iso8601, "is \"soon\", expected a unix time in microseconds"),
        ("true", .unixNanoseconds, "UTC", .iso8601, "is true, expected a unix time in nanoseconds"),
        ("\"2001-01-01T00:01:00Z\"", .iso8601, "UTC", .reference, "real 60.0"),
        ("\"soon\"", .unix, "UTC", .iso8601, "is \"soon\", expected a unix time in seconds"),
        ("\"2011-07-10 09:51:03 -0700\"", .pattern("yyyy-MM-dd HH:mm:ss Z"), "UTC", .iso8601, "text 2011-07-10T16:51:03.000Z"),
        ("\"07/10/2011\"", .pattern("MM/dd/yyyy"), "UTC", .iso8601, "text 2011-07-10T00:00:00.000Z"),
        ("\"07/10/2011\"", .pattern("MM/dd/yyyy"), "Europe/Paris", .iso8601, "text 2011-07-09T22:00:00.000Z"),
        ("\"2011-07-10\"", .pattern("MM/dd/yyyy"), "UTC", .iso8601, "is \"2011-07-10\", expected a date like 'MM/dd/yyyy'"),
        // A pattern's date is proleptic Gregorian like an ISO 8601 one, before 1582 too (the
        // formatter's calendar was Julian there: this was stored as 1209-07-17).
        ("\"10.07.1209 09:51:03\"", .pattern("dd.MM.yyyy HH:mm:ss"), "UTC", .iso8601, "text 1209-07-10T09:51:03.000Z"),
        ("\"01/01/0001\"", .pattern("MM/dd/yyyy"), "UTC", .unixepochMilliseconds, "integer -62135596800000"),
        ("\"10/10/1582\"", .pattern("MM/dd/yyyy"), "UTC", .iso8601, "text 1582-10-10T00:00:00.000Z"),
    ]

    @Test(arguments: dates)
    func parsesAndStoresEveryDateForm(_ json: String, _ format: DateFormat, _ zone: String, _ storage: DateStorage, _ expected: String) {
        #expect(coerced(json, attribute(.date, format: format, zone: zone, storage: storage)) == expected)
    }

    /// The in-place path (`commonValue`) gives what the general one (`coerceInFull`) gives, or declines: over
    /// every value of the tables above (and a few more) for every type and date setting.
    @Test func commonValuesAreWhatTheGeneralPathGives() throws {
        func common(_ json: String, _ attribute: Attribute) throws -> SQLValue? {
            let document = try JSONDocument(parsing: json)
            return withUnsafePointer(to: attribute) { Coercion().commonValue(at: 0, nodes: document.nodes, bytes: document.bytes, to: $0) }
        }
        let texts = Set(
            Self.table.map(\.1) + Self.dates.map(\.0) + [
                "\"plain\"", "\"esc\\u0041ped\"", "\"https://x.test/a?b=1\"", "\"x\\/y:z\"", "\"-\"", "\"\"", "0", "-0", "1e400", "-1.5e-3",
                "12345678901234567890", "\"42\"", "true", "false", "null", "[1]", "{\"a\": 1}", "\"0000-01-01\"",
                "\"9999-12-31T23:59:59.999Z\"",
            ])
        var declined = 0
        for json in texts.sorted() {
            for type in AttributeType.allCases {
                for storage in type == .date ? DateStorage.allCases : [.iso8601] {
                    for zone in type == .date ? ["UTC", "America/New_York"] : ["UTC"] {
                        let attribute = attribute(type, zone: zone, storage: storage)
                        guard let value = try common(json, attribute) else {
                            declined += 1
                            continue
                        }
                        let document = try JSONDocument(parsing: json)
                        let full = try withUnsafePointer(to: attribute) { try Coercion().coerceInFull(document.root, to: $0) }
                        #expect(full == value, "\(json) as \(type), \(storage), \(zone)")
                    }
                }
            }
        }
        #expect(declined > 0)
        // What a flat dump's fields are goes the in-place way.
        for (json, type) in [
            ("\"abc\"", AttributeType.string), ("42", .integer), ("2.5", .real), ("true", .boolean),
            ("\"2011-07-10T09:51:03Z\"", .date), ("\"https://x.test\"", .url),
        ] {
            #expect(try common(json, attribute(type)) != nil, "\(json) as \(type)")
        }
        // Other date formats, escapes and values with a message go `coerce`'s way.
        #expect(try common("1310291463", attribute(.date, format: .unix)) == nil)
        #expect(try common("\"a\\u0041\"", attribute(.string)) == nil)
        #expect(try common("\"2011-02-29\"", attribute(.date)) == nil)
        #expect(try common("\"not a url\"", attribute(.url)) == nil)
        #expect(try common("null", attribute(.string)) == nil)
    }

    @Test func formatsTheWholeRangeOfYears() {
        #expect(DateCoding.formatISO8601(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(DateCoding.formatISO8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(DateCoding.formatISO8601(milliseconds: -62_167_219_200_000) == "0000-01-01T00:00:00.000Z")
        #expect(DateCoding.formatISO8601(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
        for days in stride(from: -800_000, through: 2_900_000, by: 997) {
            let (year, month, day) = DateCoding.civil(fromDays: days)
            #expect(DateCoding.daysFromCivil(year: year, month: month, day: day) == days)
        }
    }
}
