/// The calendar arithmetic the round-trip test needs, written apart from seeder's
/// `DateCoding`: proleptic Gregorian dates of milliseconds since 1970, UTC.
struct CivilTime {
    var year: Int, month: Int, day: Int
    var hour: Int, minute: Int, second: Int, millisecond: Int

    var millisecondOfDay: Int { ((hour * 60 + minute) * 60 + second) * 1000 + millisecond }

    init(milliseconds: Int64) {
        let (days, ofDay) = RoundTripValues.floorDivision(milliseconds, 86_400_000)
        // Whole 400-year cycles (146,097 days) from 2000-03-01, then years of a cycle.
        let fromEpoch = Int(days) - 11_017  // 2000-03-01 is day 11,017
        let cycles = Int(RoundTripValues.floorDivision(Int64(fromEpoch), 146_097).quotient)
        var rest = fromEpoch - cycles * 146_097
        var year = 2000 + cycles * 400
        // Years counted from March, so February's leap day ends each one.
        while true {
            let length = CivilTime.isLeap(year + 1) ? 366 : 365
            if rest < length { break }
            rest -= length
            year += 1
        }
        let monthLengths = [31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 31, CivilTime.isLeap(year + 1) ? 29 : 28]
        var month = 0
        while rest >= monthLengths[month] {
            rest -= monthLengths[month]
            month += 1
        }
        self.year = month >= 10 ? year + 1 : year
        self.month = (month + 2) % 12 + 1
        self.day = rest + 1
        let ms = Int(ofDay)
        hour = ms / 3_600_000
        minute = ms / 60_000 % 60
        second = ms / 1000 % 60
        millisecond = ms % 1000
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// `2011-07-10T16:51:03.000Z`, the `iso8601` storage of docs/mapping.md.
    var storedISO8601: String {
        Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) + "T" + Self.pad(hour, 2) + ":"
            + Self.pad(minute, 2) + ":" + Self.pad(second, 2) + "." + Self.pad(millisecond, 3) + "Z"
    }
}

/// An attribute's `timeZone`: UTC, or a zone with one fixed offset over the years it is used
/// in (outside them, dates carry an offset of their own).
struct DateZone: Equatable {
    var identifier: String
    var offsetSeconds: Int
    /// The years in which the zone had no other offset.
    var years: ClosedRange<Int>

    static let utc = DateZone(identifier: "UTC", offsetSeconds: 0, years: 0...9999)
    static let all = [
        utc, DateZone(identifier: "Asia/Kolkata", offsetSeconds: 19_800, years: 1946...2037),
        DateZone(identifier: "Asia/Tokyo", offsetSeconds: 32_400, years: 1952...2037),
    ]

    /// `+0530`, as the pattern letter `Z` writes it.
    var compactOffset: String {
        (offsetSeconds < 0 ? "-" : "+") + CivilTime.pad(abs(offsetSeconds) / 3600, 2) + CivilTime.pad(abs(offsetSeconds) % 3600 / 60, 2)
    }
}
