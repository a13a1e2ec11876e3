import SeederCore
import SeederFiles

/// The type rules of `seeder infer` (docs/commands.md), over every value a key held: the
/// narrowest type that every value coerces to, by docs/mapping.md's type table.
extension KeyStats {
    /// What a key's values are: a scalar type, records (objects or arrays of objects), or
    /// `json` for shapes that mix.
    enum Shape: Equatable {
        case scalar(AttributeType, format: String?, reason: String)
        /// Every non-null value an object.
        case object
        /// Every non-null value an array of objects (`null` elements aside), or a list envelope
        /// holding one (`envelopeKey`).
        case arrayOfObjects
        /// Every non-null value an array of scalars.
        case arrayOfScalars
        case json(reason: String)
    }

    /// Unix timestamps in seconds (or milliseconds) must fall from 1973 to 2100 to be dates.
    static let plausibleSeconds = 100_000_000.0...4_102_444_800.0

    /// The key names a date (`created_at`, `dueDate`, `timestamp`), so numbers may be one.
    var namesADate: Bool {
        let words = DraftNaming.words(of: key).map { $0.lowercased() }
        guard let last = words.last else { return false }
        // A word alone names one too when it says what happened when (Stripe's `created`).
        if words.count == 1, ["created", "updated", "modified", "deleted", "expires", "timestamp"].contains(last) { return true }
        return ["at", "date", "timestamp", "time", "on"].contains(last) && words.count > 1
    }

    /// The key names a version (`version`, `minOsVersion`, `version_string`): its numeric strings
    /// are text.
    var namesAVersion: Bool {
        DraftNaming.words(of: key).contains { $0.lowercased() == "version" }
    }

    /// Some elements are entries that wrap a record (`KeyStats.entries`), and some records.
    var mixesEntries: Bool { wrappedElements > 0 && wrappedElements < elementObjects }

    /// Null or an empty array in every record: nothing says what the key holds.
    var neverHeldAValue: Bool {
        nonNull == 0 || (arrays == nonNull && elementObjects + elementScalars + elementArrays == 0)
    }

    var shape: Shape {
        let nonNull = nonNull
        // Null in every record says nothing of the type: `json` takes whatever value comes first
        // (an object, a date), so the next dump with one still builds (docs/commands.md, Types).
        guard nonNull > 0 else { return .json(reason: "null in every record") }
        // HAL's links (`"_links": {"self": {"href": ...}, "next": {...}}`): which links a resource
        // has varies by its kind and state, and none is a record of its own.
        if key == "_links", objects > 0 { return .json(reason: "HAL's links, kept whole: which links a record has varies") }
        if envelopes > 0 || listStubs > 0 {
            if mixesEntries { return .json(reason: "lists mixing records and entries that wrap one under '\(Naming.singular(key))'") }
            guard envelopes + emptyObjects + listStubs == nonNull else {
                return .json(reason: "list envelopes and other values: \(describeKinds())")
            }
            guard elementObjects > 0 else {
                return .json(
                    reason: envelopes > 0 ? "a list envelope that never held a record" : "lists sent as their length only, never a record")
            }
            return .arrayOfObjects
        }
        if objects > 0 || arrays > 0 {
            if objects == nonNull { return .object }
            if arrays == nonNull {
                if elementArrays > 0 { return .json(reason: "arrays of arrays") }
                if mixesEntries { return .json(reason: "arrays mixing records and entries that wrap one under '\(Naming.singular(key))'") }
                if elementObjects > 0, elementScalars > 0 { return .json(reason: "arrays mixing objects and scalars") }
                if elementObjects > 0 { return .arrayOfObjects }
                if elementScalars > 0 { return .arrayOfScalars }
                return .json(reason: "an empty array in every record")
            }
            return .json(reason: "mixed shapes: \(describeKinds())")
        }
        let numbers = integers + fractions
        if booleans == nonNull { return .scalar(.boolean, format: nil, reason: "") }
        if booleans > 0 {
            if booleans + booleanWords + bits == nonNull, booleanWords == strings, bits == numbers {
                return .scalar(.boolean, format: nil, reason: "boolean: \(Wording.grouped(booleans)) true/false, the rest 0/1 or words")
            }
            return .scalar(.string, format: nil, reason: "string: \(describeKinds())")
        }
        if numbers > 0, numericStrings == strings {
            let described =
                strings > 0
                ? "\(Wording.count(numbers, "number")) and \(Wording.count(strings, "numeric string"))" : Wording.count(numbers, "number")
            if let date = unixDate {
                return .scalar(
                    .date, format: date,
                    reason:
                        "date: \(described), unix \(date == "unix" ? "seconds" : "milliseconds") from \(Int(minimum)) to \(Int(maximum)), and the key names a date"
                )
            }
            if fractions == 0, numericFractions == 0 {
                if wideIntegers > 0 {
                    return .scalar(.decimal, format: nil, reason: "decimal: \(Wording.grouped(wideIntegers)) past 64 bits")
                }
                return .scalar(.integer, format: nil, reason: strings > 0 ? "integer: \(described)" : "")
            }
            if strings > 0 {
                return .scalar(.decimal, format: nil, reason: "decimal: \(described), with fractions: money-like, kept exact")
            }
            if maxDigits > 15 || wideIntegers > 0 {
                return .scalar(.decimal, format: nil, reason: "decimal: up to \(maxDigits) digits, more than a double holds")
            }
            return .scalar(
                .real, format: nil,
                reason: integers > 0 ? "real: \(Wording.grouped(fractions)) with a fraction, \(Wording.grouped(integers)) without" : "")
        }
        if numbers > 0 { return .scalar(.string, format: nil, reason: "string: \(describeKinds())") }
        // Strings only.
        if dates == strings {
            return .scalar(.date, format: nil, reason: "date: \(Wording.grouped(dates)) of \(Wording.count(strings, "value")) ISO 8601")
        }
        if uuids == strings {
            return .scalar(.uuid, format: nil, reason: "uuid: \(Wording.grouped(uuids)) of \(Wording.count(strings, "value"))")
        }
        if urls == strings {
            return .scalar(.url, format: nil, reason: "url: \(Wording.grouped(urls)) of \(Wording.count(strings, "value")) absolute URLs")
        }
        if numericStrings == strings {
            if let date = unixDate {
                return .scalar(
                    .date, format: date,
                    reason:
                        "date: \(Wording.count(strings, "numeric string")), unix \(date == "unix" ? "seconds" : "milliseconds"), and the key names a date"
                )
            }
            // Money as text: some with a fraction, the rest whole (`"10.00"`, `"7"`). Not a
            // version (`"11.0"`): the next one is `"11.0.1"`, and `"1.10"` is not `"1.1"`.
            if numericFractions > 0, !namesAVersion {
                return .scalar(
                    .decimal, format: nil,
                    reason:
                        "decimal: \(Wording.count(strings, "numeric string")), \(Wording.grouped(numericFractions)) with fractions: money-like, kept exact"
                )
            }
        }
        return .scalar(.string, format: nil, reason: "")
    }

    /// `unix` or `unix_ms` when every number is a plausible timestamp and the key names a date.
    private var unixDate: String? {
        guard namesADate, minimum <= maximum else { return nil }
        if Self.plausibleSeconds.contains(minimum), Self.plausibleSeconds.contains(maximum) { return "unix" }
        if Self.plausibleSeconds.contains(minimum / 1000), Self.plausibleSeconds.contains(maximum / 1000) { return "unix_ms" }
        return nil
    }

    func describeKinds() -> String {
        var parts: [String] = []
        for (number, what) in [
            (strings, "string"), (integers, "integer"), (fractions, "real"), (booleans, "boolean"), (objects, "object"),
            (arrays, "array"),
        ] where number > 0 {
            parts.append(Wording.count(number, what))
        }
        return parts.joined(separator: ", ")
    }
}
