import Foundation
import SeederCore
import SeederFiles

/// Everything one key of one kind of record held, counted over every occurrence: the evidence
/// `seeder infer` chooses a type, `required`, an identity and relationships from
/// (docs/commands.md, `seeder infer`).
///
/// Each check on strings (ISO 8601, URL, UUID, number, Boolean) runs only while every string so
/// far passed it, so a key costs one check per value once its type is settled.
final class KeyStats {
    /// The JSON key.
    let key: String
    /// Occurrences of the key, `null` included, and those that were `null`.
    var present = 0
    var nulls = 0
    var booleans = 0
    /// Of those, `true`s: a key that only ever holds `true` is a member of a set (`{"u2": true}`).
    var trues = 0
    /// Numbers without a fraction or exponent, and the others.
    var integers = 0
    var fractions = 0
    /// Integers past 64 bits, and the most significant digits of a number with a fraction.
    var wideIntegers = 0
    var maxDigits = 0
    var strings = 0
    var objects = 0
    var arrays = 0
    /// Strings that are, each: RFC 8259 number text (and of those, with a fraction), a Boolean
    /// word as `boolean` reads it, an ISO 8601 date, an absolute URL, a UUID.
    var numericStrings = 0
    var numericFractions = 0
    var booleanWords = 0
    var dates = 0
    var urls = 0
    var uuids = 0
    /// Numbers 0 and 1, which `boolean` reads.
    var bits = 0
    /// The least and greatest number (numbers and numeric strings), for unix timestamps.
    var minimum = Double.infinity
    var maximum = -Double.infinity
    /// Records in which this key was the only one: a reference to an identity, not a record.
    var soleKey = 0
    /// Elements of arrays: objects, scalars (not null), arrays.
    var elementObjects = 0
    var elementScalars = 0
    var elementArrays = 0
    /// Objects that were list envelopes (`ListEnvelope`), and the key of their records; empty
    /// objects, which are either.
    var emptyObjects = 0
    var envelopes = 0
    var envelopeKey: String?
    /// Objects that only say how long a list is (`ListEnvelope.isStub`), held apart until every
    /// value is seen: lists of none where the key's records come in envelopes, else records
    /// (`settleEmptyObjects`).
    var stubs: ShapeObserver?
    var listStubs = 0
    /// Elements that wrap one record of the key's own kind under its singular (Spotify's
    /// playlist `"tracks": [{"added_at": ..., "added_by": {...}, "track": {...}}]`): entries of a
    /// list, not tracks, counted by `entries` (`Track` -> `TrackEntry`), never by `child`.
    var entries: ShapeObserver?
    var wrappedElements = 0
    /// The singular of the key (`track` for `tracks`; `pokemon` for PokéAPI's `pokemon`, whose
    /// entries `{"pokemon": {...}, "slot": 1}` wrap one each).
    private lazy var entryKey: String? = Naming.singular(key)
    /// The records the key's objects (or arrays' objects) are.
    var child: ShapeObserver?
    /// The distinct scalar values (of arrays: of their elements), for keys named like ids.
    var values: ValueSet?
    /// The ids the key's URLs end in (of arrays: their elements'), while every value but null
    /// is such a URL (`https://swapi.dev/api/planets/1/`); `nil` once one is not.
    var urlIDs: URLIdentities? = URLIdentities()
    /// The keys that tell apart the objects of each array within it (`OwnedKeys`).
    var owned = OwnedKeys()
    /// The objects that only name a record by the id its URL ends in (`{"name": "stench", "url":
    /// ".../ability/1/"}`, no `id`), observed apart from `child` until
    /// `ShapeCatalog.resolveDetailedReferences` finds whether they name records detailed
    /// elsewhere; then `referenced` is those records and the key of the URL.
    var references: ShapeObserver?
    var referenced: (target: ShapeObserver, urlKey: String)?

    private static let utc = TimeZone(identifier: "UTC")!

    init(key: String) {
        self.key = key
        if Self.isIdentityLike(key) { values = ValueSet() }
    }

    /// Non-null occurrences.
    var nonNull: Int { present - nulls }

    /// Keys named like identities or references: their values are kept (`ValueSet`).
    static func isIdentityLike(_ key: String) -> Bool {
        let lower = key.lowercased()
        if lower == "id" || IdentityChoice.names.contains(lower) { return true }
        return lower.hasSuffix("_id") || lower.hasSuffix("_ids") || key.hasSuffix("Id") || key.hasSuffix("ID")
            || key.hasSuffix("Ids") || key.hasSuffix("IDs") || lower.hasSuffix("uuid") || lower.hasSuffix("_key") || key.hasSuffix("Key")
    }

    /// `id` and keys named like references (`user_id`, `tag_ids`, `userId`).
    static func isReferenceLike(_ key: String) -> Bool {
        let lower = key.lowercased()
        return lower == "id" || lower.hasSuffix("_id") || lower.hasSuffix("_ids") || key.hasSuffix("Id") || key.hasSuffix("ID")
            || key.hasSuffix("Ids") || key.hasSuffix("IDs")
    }

    /// Adds what `other` (the same key of records of the same kind, seen under another key)
    /// counted: every counter above has its line here.
    func add(_ other: KeyStats, asCopies: Bool = false) {
        present += other.present
        nulls += other.nulls
        booleans += other.booleans
        trues += other.trues
        integers += other.integers
        fractions += other.fractions
        wideIntegers += other.wideIntegers
        maxDigits = max(maxDigits, other.maxDigits)
        strings += other.strings
        objects += other.objects
        arrays += other.arrays
        numericStrings += other.numericStrings
        numericFractions += other.numericFractions
        booleanWords += other.booleanWords
        dates += other.dates
        urls += other.urls
        uuids += other.uuids
        bits += other.bits
        minimum = min(minimum, other.minimum)
        maximum = max(maximum, other.maximum)
        soleKey += other.soleKey
        elementObjects += other.elementObjects
        elementScalars += other.elementScalars
        elementArrays += other.elementArrays
        envelopes += other.envelopes
        emptyObjects += other.emptyObjects
        listStubs += other.listStubs
        wrappedElements += other.wrappedElements
        if envelopeKey == nil { envelopeKey = other.envelopeKey }
        // Nested records are observed by their key's name: both hold the same observer, or one none.
        if child == nil { child = other.child }
        if let otherValues = other.values { values?.add(otherValues, asCopies: asCopies) }
        if let otherURLs = other.urlIDs { urlIDs?.add(otherURLs) } else { urlIDs = nil }
        owned.add(other.owned)
        if references == nil { references = other.references }
        if referenced == nil { referenced = other.referenced }
    }

    /// Empty objects beside list envelopes are lists of none; elsewhere each is a record of no
    /// keys, counted by the observer of the key's records as if it had seen it.
    func settleEmptyObjects() {
        if let stubs, let child {
            // Spotify's playlists hold `"tracks": {"href": ..., "total": 12}` where an album holds
            // the envelope of its tracks: the same key, a list not sent.
            if child.fillsEnvelopes { listStubs += stubs.records } else { child.absorb(stubs) }
            self.stubs = nil
        }
        // A list of entries only: its records are the entries (a to-many to `TrackEntry`).
        if wrappedElements > 0, wrappedElements == elementObjects { child = entries }
        guard emptyObjects > 0, envelopes == 0, listStubs == 0, let child else { return }
        child.records += emptyObjects
        emptyObjects = 0
    }

    /// Counts one value of the key; nested records go to `catalog`'s observers.
    func observe(_ value: JSONValue, in catalog: ShapeCatalog, record: () -> UInt64, fromSource: Bool, soleMember: Bool) {
        present += 1
        if soleMember { soleKey += 1 }
        switch value.kind {
        case .null:
            nulls += 1
        case .true:
            booleans += 1
            trues += 1
        case .false:
            booleans += 1
        case .number:
            observeNumber(value)
        case .string:
            observeString(value)
        case .object:
            objects += 1
            if Self.isURLReference(value) {
                observe(reference: value, in: catalog)
                break
            }
            if child == nil { child = catalog.observer(forKey: key) }
            if Int(value.node.end) == value.index + 1 {
                // A record of no keys, or a list envelope's "none" (`"subscriptions": {}`): told
                // apart once every value is seen (`settleEmptyObjects`).
                emptyObjects += 1
            } else if let recordsKey = ListEnvelope.recordsKey(of: value), envelopeKey == nil || envelopeKey == recordsKey {
                envelopes += 1
                envelopeKey = recordsKey
                child!.fillsEnvelopes = true
                for element in value[recordsKey]!.elements { observe(element: element, in: catalog) }
            } else if ListEnvelope.isStub(value) {
                if stubs == nil { stubs = ShapeObserver(name: child!.name, catalog: catalog) }
                stubs!.observe(value, fromSource: false)
            } else {
                child!.observe(value, fromSource: fromSource && soleMember)
            }
        case .array:
            arrays += 1
            var holdsObjects = false
            for element in value.elements {
                switch element.kind {
                case .null: break
                case .object:
                    urlIDs = nil
                    holdsObjects = true
                    observe(element: element, in: catalog)
                case .array:
                    urlIDs = nil
                    elementArrays += 1
                default:
                    elementScalars += 1
                    if let hash = element.identityHash { values?.insert(hash, record: 0, fromSource: false) }
                    if urlIDs != nil { noteURL(element, record: 0, fromSource: false) }
                }
            }
            if holdsObjects { owned.observe(value) }
            return
        }
        if values != nil, let hash = value.identityHash { values!.insert(hash, record: record(), fromSource: fromSource) }
        if urlIDs != nil, value.kind != .null { noteURL(value, record: record(), fromSource: fromSource) }
    }

    /// Adds a URL's id to `urlIDs`, or ends the key's candidacy when `value` is not one.
    private func noteURL(_ value: JSONValue, record: UInt64, fromSource: Bool) {
        guard value.kind == .string, value.withDecodedBytes({ urlIDs!.insert($0, record: record, fromSource: fromSource) }) else {
            urlIDs = nil
            return
        }
    }

    /// Counts an object of an array (or of a list envelope's): a record of the key's kind, or an
    /// entry that wraps one (`entries`).
    private func observe(element: JSONValue, in catalog: ShapeCatalog) {
        elementObjects += 1
        if let entryKey, element[entryKey]?.kind == .object {
            wrappedElements += 1
            if entries == nil {
                entries = catalog.ownedObserver(named: DraftNaming.entityName(fromWords: DraftNaming.words(of: entryKey)) + "Entry")
            }
            entries!.observe(element, fromSource: false)
            return
        }
        if Self.isURLReference(element) { return observe(reference: element, in: catalog) }
        // The records of one owner's arrays are observed apart, and rejoin the others of their
        // name unless they are told apart within it (`ShapeCatalog.separateOwnedRecords`).
        if child == nil { child = catalog.ownedObserver(named: DraftNaming.entityName(fromWords: DraftNaming.words(of: key))) }
        child!.observe(element, fromSource: false)
    }

    /// Counts an object that names a record by URL (`isURLReference`) in `references`.
    private func observe(reference: JSONValue, in catalog: ShapeCatalog) {
        if references == nil { references = catalog.ownedObserver(named: DraftNaming.entityName(fromWords: DraftNaming.words(of: key))) }
        references!.observe(reference, fromSource: false)
    }

    /// Whether an object names a record by URL only: no `id`, and a `url` that ends in one.
    static func isURLReference(_ object: JSONValue) -> Bool {
        guard object["id"] == nil, let url = object["url"], url.kind == .string else { return false }
        return url.withDecodedBytes { URLIdentities.id(in: $0) != nil }
    }

    private func observeNumber(_ value: JSONValue) {
        value.withBytes { text in
            if value.isIntegralNumber {
                integers += 1
                if let small = Coercion.smallInteger(text) {
                    if small == 0 || small == 1 { bits += 1 }
                    note(Double(small))
                } else if let number = DecimalNumber(text: text) {
                    if number.int64 == nil { wideIntegers += 1 }
                    note(number.double ?? 0)
                }
            } else {
                fractions += 1
                var digits = 0
                var leading = true
                for byte in text {
                    if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
                    guard byte &- UInt8(ascii: "0") < 10 else { continue }
                    if leading, byte == UInt8(ascii: "0") { continue }
                    leading = false
                    digits += 1
                }
                maxDigits = max(maxDigits, digits)
                if let double = Coercion.finiteDouble(text) { note(double) } else { wideIntegers += 1 }
            }
        }
    }

    private func note(_ number: Double) {
        minimum = min(minimum, number)
        maximum = max(maximum, number)
    }

    private func observeString(_ value: JSONValue) {
        let before = strings
        strings += 1
        value.withDecodedBytes { text in
            if numericStrings == before, let first = text.first, first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10,
                let number = DecimalNumber(text: text)
            {
                numericStrings += 1
                if !number.isIntegral || text.contains(UInt8(ascii: ".")) { numericFractions += 1 }
                if number.int64 == nil, number.isIntegral { wideIntegers += 1 }
                note(number.double ?? 0)
            }
            if booleanWords == before,
                ["true", "false", "yes", "no", "t", "f", "y", "n", "1", "0"].contains(String(decoding: text, as: UTF8.self).lowercased())
            {
                booleanWords += 1
            }
            if dates == before, let milliseconds = DateCoding.parseISO8601(text, zone: Self.utc),
                DateCoding.formatISO8601(milliseconds: milliseconds) != nil
            {
                dates += 1
            }
            if urls == before, Coercion.isAbsoluteURL(String(decoding: text, as: UTF8.self)) { urls += 1 }
            if uuids == before, text.count == 36, Coercion.canonicalUUID(String(decoding: text, as: UTF8.self)) != nil { uuids += 1 }
        }
    }
}

extension JSONValue {
    /// Calls `body` with a string's decoded UTF-8: its bytes in place when it holds no escape.
    func withDecodedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if node.flags & JSONNode.escaped == 0 { return withBytes(body) }
        return unescapedBytes().withUnsafeBufferPointer(body)
    }
}
