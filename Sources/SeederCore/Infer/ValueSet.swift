/// The distinct values one key held, for telling whether it can be an identity and whether a
/// `*_id` key's values are identities of an entity (docs/commands.md, `seeder infer`).
///
/// **Decision: values are kept as 64-bit hashes**, never as text, so memory is 16 bytes per
/// distinct value whatever the values' length, and a key's values are all counted, not sampled:
/// two values that differ share a hash with odds of about n²/2⁶⁵ (3 in 100 million at a million
/// values). Up to `limit` distinct values are kept; past it the set stops growing and says so
/// (`overflowed`), and the inference treats the key as unverified.
///
/// Each value is kept with a hash of the record it identifies, so a repeated identity is told
/// apart from a conflicting one: the same record again (a page read twice, an owner embedded in
/// every repository) merges into one row; different records with one identity do not.
struct ValueSet {
    /// Distinct values kept at most: 8 Mi, 128 MiB of table at worst per key.
    static let limit = 1 << 23

    /// Value hash -> hash of the record it was seen in, its low bit set when that record was a
    /// source's record (not an embedded one).
    private(set) var contents: [UInt64: UInt64] = [:]
    /// Values seen more than once with a different record among a source's own records.
    private(set) var sourceConflicts = 0
    /// Values seen more than once with a different record, an embedded one among them.
    private(set) var embeddedConflicts = 0
    /// Whether values were left out past `limit`.
    private(set) var overflowed = false

    var count: Int { contents.count }

    /// Adds the value `hash`, seen in a record whose text hashes to `record`.
    mutating func insert(_ hash: UInt64, record: UInt64, fromSource: Bool) {
        let tagged = (record & ~1) | (fromSource ? 1 : 0)
        if let earlier = contents[hash] {
            guard earlier & ~1 != tagged & ~1 else { return }
            if earlier & 1 == 1, fromSource { sourceConflicts += 1 } else { embeddedConflicts += 1 }
            return
        }
        guard contents.count < Self.limit else {
            overflowed = true
            return
        }
        contents[hash] = tagged
    }

    /// Whether the value `hash` was seen.
    func contains(_ hash: UInt64) -> Bool { contents[hash] != nil }

    /// Whether every value of `other` is one of these.
    func containsAll(of other: ValueSet) -> Bool {
        !other.overflowed && other.contents.keys.allSatisfy { contents[$0] != nil }
    }
}

extension JSONValue {
    /// The hash an identity value is compared by: numbers (and strings holding a number) by their
    /// text, as `3` and `"3"` are one integer identity; other strings by their text. `nil` for
    /// anything else.
    var identityHash: UInt64? {
        var hasher = Hasher()
        switch kind {
        case .number:
            hasher.combine(0 as UInt8)
            withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .string:
            let bytes = unescapedBytes()
            let isNumber = bytes.first.map { $0 == UInt8(ascii: "-") || ($0 &- UInt8(ascii: "0")) < 10 } == true
                && DecimalNumber(text: bytes) != nil
            hasher.combine(isNumber ? 0 as UInt8 : 1)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        default:
            return nil
        }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// A hash of the value's text as written: what tells one record from another.
    var textHash: UInt64 {
        var hasher = Hasher()
        document.bytes.withUnsafeBytes { bytes in
            let node = node
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[Int(node.start)..<textEnd]))
        }
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
