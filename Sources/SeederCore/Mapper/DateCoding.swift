import Foundation

/// Dates in and out (docs/mapping.md, Dates): parsed to milliseconds since 1970 in UTC, stored as
/// the mapping's `dates:` or the attribute's `storage:` says.
///
/// ISO 8601 is parsed by hand (the common case, on the hot path); Unicode patterns go through
/// Foundation's `DateFormatter`, one per pattern and zone.
public enum DateCoding {
    /// Seconds from 1970 to 2001-01-01, Core Data's reference date.
    static let referenceDateOffset: Int64 = 978_307_200

    /// Parses ISO 8601 as docs/mapping.md lists it: `2011-07-10`, `2011-07-10T09:51:03Z`,
    /// `2011-07-10 09:51`, fractional seconds, and offsets `Z`, `+hh:mm`, `-hhmm`, `+hh`.
    /// A value with no offset is in `zone`. Returns milliseconds since 1970 (fractions of a
    /// millisecond are truncated), or `nil` when the text is not such a date.
    package static func parseISO8601(_ text: UnsafeBufferPointer<UInt8>, zone: TimeZone) -> Int64? {
        var i = 0
        let n = text.count
        func number(_ count: Int) -> Int? {
            guard i + count <= n else { return nil }
            var value = 0
            for k in 0..<count {
                let digit = text[i + k] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            i += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < n, text[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        var hour = 0, minute = 0, second = 0, millisecond = 0
        var offsetSeconds: Int?
        if i < n {
            guard text[i] == UInt8(ascii: "T") || text[i] == UInt8(ascii: "t") || text[i] == UInt8(ascii: " ") else { return nil }
            i += 1
            guard let h = number(2), expect(UInt8(ascii: ":")), let m = number(2) else { return nil }
            hour = h
            minute = m
            if expect(UInt8(ascii: ":")) {
                guard let s = number(2) else { return nil }
                second = s
                if i < n, text[i] == UInt8(ascii: ".") || text[i] == UInt8(ascii: ",") {
                    i += 1
                    var digits = 0
                    while i < n, text[i] &- UInt8(ascii: "0") < 10 {
                        if digits < 3 { millisecond = millisecond * 10 + Int(text[i] - UInt8(ascii: "0")) }
                        digits += 1
                        i += 1
                    }
                    guard digits > 0 else { return nil }
                    for _ in digits..<max(digits, 3) { millisecond *= 10 }
                }
            }
            guard hour < 24, minute < 60, second < 60 else { return nil }
            if i < n {
                if text[i] == UInt8(ascii: "Z") || text[i] == UInt8(ascii: "z") {
                    i += 1
                    offsetSeconds = 0
                } else if text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") {
                    let sign = text[i] == UInt8(ascii: "-") ? -1 : 1
                    i += 1
                    guard let offsetHours = number(2) else { return nil }
                    var offsetMinutes = 0
                    if i < n {
                        _ = expect(UInt8(ascii: ":"))
                        guard let m = number(2) else { return nil }
                        offsetMinutes = m
                    }
                    guard offsetHours < 24, offsetMinutes < 60 else { return nil }
                    offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
                }
            }
        }
        guard i == n else { return nil }
        let local = Int64(daysFromCivil(year: year, month: month, day: day)) * 86400 + Int64(hour * 3600 + minute * 60 + second)
        let utc = local - Int64(offsetSeconds ?? zoneOffset(zone, forLocalSeconds: local))
        return utc * 1000 + Int64(millisecond)
    }

    /// The offset of `zone` at a local wall-clock time (seconds from 1970 as if it were UTC).
    static func zoneOffset(_ zone: TimeZone, forLocalSeconds local: Int64) -> Int {
        if zone.identifier == "UTC" || zone.identifier == "GMT" { return 0 }
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local)))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local - Int64(guess))))
    }

    /// Formats milliseconds since 1970 as `2011-07-10T16:51:03.000Z`; `nil` outside years 0-9999.
    package static func formatISO8601(milliseconds: Int64) -> String? {
        let (seconds, millisecond) = floorDivision(milliseconds, 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86400)
        let (year, month, day) = civil(fromDays: Int(days))
        guard (0...9999).contains(year) else { return nil }
        let second = Int(secondOfDay)
        // Two digits at a time through a pointer: a digit loop over the checked buffer was much
        // of the cost of storing a date (bench/README.md).
        return String(unsafeUninitializedCapacity: 24) { buffer in
            let out = buffer.baseAddress!
            @inline(__always) func pair(_ value: Int, at position: Int) {
                out[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
                out[position + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            }
            pair(year / 100, at: 0)
            pair(year % 100, at: 2)
            out[4] = UInt8(ascii: "-")
            pair(month, at: 5)
            out[7] = UInt8(ascii: "-")
            pair(day, at: 8)
            out[10] = UInt8(ascii: "T")
            pair(second / 3600, at: 11)
            out[13] = UInt8(ascii: ":")
            pair(second / 60 % 60, at: 14)
            out[16] = UInt8(ascii: ":")
            pair(second % 60, at: 17)
            out[19] = UInt8(ascii: ".")
            out[20] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: millisecond / 100)
            pair(Int(millisecond % 100), at: 21)
            out[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// Seconds since 1970 as `2026-11-21T14:17:41Z` (docs/seed.md's `built_at`).
    public static func iso8601Seconds(_ seconds: Int64) -> String {
        let text = formatISO8601(milliseconds: seconds * 1000) ?? "0000-01-01T00:00:00.000Z"
        return String(text.prefix(19)) + "Z"
    }

    /// The stored value of an instant.
    static func store(milliseconds: Int64, as storage: DateStorage) -> SQLValue? {
        switch storage {
        case .iso8601:
            return formatISO8601(milliseconds: milliseconds).map(SQLValue.text)
        case .unixepoch:
            return .real(Double(milliseconds) / 1000)
        case .unixepochMilliseconds:
            return .integer(milliseconds)
        case .reference:
            return .real(Double(milliseconds - referenceDateOffset * 1000) / 1000)
        }
    }

    static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let quotient = a / b
        let remainder = a % b
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Parses dates written with a Unicode pattern (`yyyy-MM-dd HH:mm:ss Z`), one formatter per
/// pattern and zone. Not thread-safe: each `Mapper` owns one.
final class PatternDateParser {
    private var formatters: [String: DateFormatter] = [:]

    /// Milliseconds since 1970 of `text` in `pattern`, or `nil` when it does not match.
    func parse(_ text: String, pattern: String, zone: TimeZone) -> Int64? {
        let key = pattern + "\u{0}" + zone.identifier
        let formatter: DateFormatter
        if let cached = formatters[key] {
            formatter = cached
        } else {
            formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            // Proleptic Gregorian, as ISO 8601 dates are read: the formatter's calendar is Julian
            // before 1582-10-15 otherwise, and a pattern's `1209-07-10` would be another instant.
            formatter.gregorianStartDate = .distantPast
            formatter.timeZone = zone
            formatter.dateFormat = pattern
            formatter.isLenient = false
            formatters[key] = formatter
        }
        guard let date = formatter.date(from: text) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
