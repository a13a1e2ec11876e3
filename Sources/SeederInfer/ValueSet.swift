import SeederCore
import SeederFiles

/// The distinct values one key held, for telling whether it can be an identity and whether a
/// `*_id` key's values are identities of an entity (docs/commands.md, `seeder infer`).
///
/// **Decision: values are kept as 64-bit hashes** (`ValueHash`), never as text, so memory is 16 bytes per
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
    /// Of those, the ones whose two records have the same keys: two records, not a full record
    /// and a partial or stale copy of it (an order's line 1 and another order's line 1).
    private(set) var sameKeysConflicts = 0
    /// Of the conflicts, those between a source's record and a record of other keys: one record
    /// both detailed (its own file) and referenced (`{"name": "steel", "url": ".../type/9/"}` in
    /// another, or a list page's entry), which merge by this identity rather than conflict.
    private(set) var detailedConflicts = 0
    /// Whether values were left out past `limit`.
    private(set) var overflowed = false

    var count: Int { contents.count }

    /// Adds the value `hash`, seen in a record whose `JSONValue.recordHash` is `record`.
    mutating func insert(_ hash: UInt64, record: UInt64, fromSource: Bool) {
        let tagged = (record & ~1) | (fromSource ? 1 : 0)
        if let earlier = contents[hash] {
            guard earlier & ~1 != tagged & ~1 else { return }
            if earlier & 1 == 1 || fromSource, earlier & JSONValue.keysHashMask != tagged & JSONValue.keysHashMask {
                detailedConflicts += 1
            }
            if earlier & 1 == 1, fromSource {
                sourceConflicts += 1
            } else {
                embeddedConflicts += 1
                if earlier & JSONValue.keysHashMask == tagged & JSONValue.keysHashMask { sameKeysConflicts += 1 }
            }
            return
        }
        guard contents.count < Self.limit else {
            overflowed = true
            return
        }
        contents[hash] = tagged
    }

    /// Adds every value of `other` with the record it was seen in, and its conflicts: the
    /// values of one kind of record seen under several keys (`ShapeCatalog.mergeSharedShapes`).
    /// With `asCopies`, `other`'s records are copies of these (another source's snapshot of the
    /// same records): one that differs is a stale copy, as an embedded one is, not a conflict.
    mutating func add(_ other: ValueSet, asCopies: Bool = false) {
        sourceConflicts += other.sourceConflicts
        embeddedConflicts += other.embeddedConflicts
        sameKeysConflicts += other.sameKeysConflicts
        detailedConflicts += other.detailedConflicts
        overflowed = overflowed || other.overflowed
        for (hash, tagged) in other.contents { insert(hash, record: tagged, fromSource: !asCopies && tagged & 1 == 1) }
    }

    /// How the values of `other` meet these: how many are here with the same record, and how
    /// many with another.
    func overlap(with other: ValueSet) -> (same: Int, different: Int) {
        var same = 0
        var different = 0
        for (hash, tagged) in other.contents {
            guard let mine = contents[hash] else { continue }
            if mine & ~1 == tagged & ~1 { same += 1 } else { different += 1 }
        }
        return (same, different)
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
        switch kind {
        case .number:
            return withBytes { ValueHash.of($0, seed: 0) }
        case .string:
            return withDecodedBytes { bytes in
                let isNumber =
                    bytes.first.map { $0 == UInt8(ascii: "-") || ($0 &- UInt8(ascii: "0")) < 10 } == true
                    && DecimalNumber(text: bytes) != nil
                return ValueHash.of(bytes, seed: isNumber ? 0 : 1)
            }
        default:
            return nil
        }
    }

    /// What tells one record from another, and whether two have the same keys: the high 32 bits
    /// hash the record's text without whitespace between its tokens (`textHash`), the low ones (but the last, which `ValueSet` uses) its
    /// number of keys. Records of one kind with as many keys have the same ones but for a rare
    /// case, which counts as the same keys: two records, each kept (docs/commands.md, Identity).
    /// Hashing the keys themselves cost the flat workload a fifth of its time.
    var recordHash: UInt64 {
        (textHash & ~Self.keysHashMask) | (ValueHash.mix(UInt64(count)) & Self.keysHashMask)
    }

    /// The bits of `recordHash` that hash the record's keys.
    static let keysHashMask: UInt64 = 0xFFFF_FFFE

    /// A hash of the value's text with no whitespace between its tokens: what tells one record
    /// from another, the same however the dump is laid out. (Pretty-printed, an embedded
    /// record's copies are indented by their depth, and would differ.) Text with none is hashed
    /// as it is; other text is compacted first, so a record hashes alike both ways.
    var textHash: UInt64 {
        let start = Int(node.start)
        let end = textEnd
        return document.bytes.withUnsafeBufferPointer { bytes in
            let length = compactLength
            guard length != end - start else { return ValueHash.of(UnsafeBufferPointer(rebasing: bytes[start..<end]), seed: 2) }
            let compact = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                count = compactText(from: bytes, into: buffer.baseAddress!)
                // The parser checked the text: its tokens are what `compactLength` counted.
                precondition(count == length, "compacted \(count) bytes, counted \(length)")
            }
            return compact.withUnsafeBufferPointer { ValueHash.of($0, seed: 2) }
        }
    }

    /// The length of the value's text with no whitespace between tokens: its scalars' text, two
    /// brackets a container, and a `,` or `:` between each two children of a non-empty one (on a
    /// pre-order tape, every node but the root is a child).
    private var compactLength: Int {
        let nodes = document.nodes
        var length = 0
        var nonEmptyContainers = 0
        for index in index..<Int(node.end) {
            let node = nodes[index]
            switch node.kind {
            case .array, .object:
                length += 2
                if Int(node.end) > index + 1 { nonEmptyContainers += 1 }
            case .string:
                length += Int(node.length) + 2
            default:
                length += Int(node.length)
            }
        }
        return length + (Int(node.end) - index - 1) - nonEmptyContainers
    }

    /// Writes the value's text with no whitespace between tokens to `out` (room for
    /// `compactLength` bytes); returns the bytes written. Whitespace is only ever between a
    /// scalar and what is around it (brackets, `,`, `:`), so each scalar's text is copied whole
    /// and only the bytes between two scalars are looked at one by one.
    private func compactText(from bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let nodes = document.nodes
        var count = 0
        var cursor = Int(node.start)
        func copyStructure(upTo end: Int) {
            while cursor < end {
                let byte = bytes[cursor]
                if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\t"), byte != UInt8(ascii: "\r") {
                    out[count] = byte
                    count += 1
                }
                cursor += 1
            }
        }
        for index in index..<Int(node.end) {
            let node = nodes[index]
            guard node.kind != .array, node.kind != .object else { continue }
            let start = Int(node.start)
            let length = Int(node.length) + (node.kind == .string ? 2 : 0)
            copyStructure(upTo: start)
            (out + count).update(from: bytes.baseAddress! + start, count: length)
            count += length
            cursor = start + length
        }
        copyStructure(upTo: textEnd)
        return count
    }
}

/// A fast 64-bit hash of bytes, eight at a time (multiply and shift, then MurmurHash3's
/// finalizer): values and records are hashed once each, and SipHash cost the flat workload a
/// tenth of its time. Not for adversarial input; a collision only costs an identity or a link.
enum ValueHash {
    static func of(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ (seed &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return mix(hash) }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = (hash ^ mix(word)) &* 0xFF51_AFD7_ED55_8CCD
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(base[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ mix(tail ^ 0xA5)) &* 0xFF51_AFD7_ED55_8CCD
        return mix(hash)
    }

    /// MurmurHash3's 64-bit finalizer.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x = x &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x = x &* 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}
