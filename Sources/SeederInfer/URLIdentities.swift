import SeederCore
import SeederFiles

/// The ids a key's URL values end in, for drafting `match:` (docs/commands.md, `seeder infer`):
/// `https://swapi.dev/api/planets/1/` ends in the id 1 of the collection `planets`. A key is a
/// candidate while every string it held is such a URL.
struct URLIdentities {
    /// The pattern the draft writes in `match:`, as docs/mapping.md (Values inside text) writes it:
    /// the digits of the last path segment, before an optional `/` at the very end.
    static let pattern = #"/(\d+)/?$"#
    /// The same with a minus sign allowed, for URLs of which one ends in a negative id
    /// (PokéAPI's `/api/v2/move-ailment/-1/`, "unknown").
    static let signedPattern = #"/(-?\d+)/?$"#

    /// The pattern that takes every id these URLs end in.
    var matchPattern: String { negative ? Self.signedPattern : Self.pattern }

    /// The ids, hashed as the integer identities they are compared with (`JSONValue.identityHash`).
    private(set) var ids = ValueSet()
    /// The path segment before the id (`planets`), while every URL has the same one; `nil` once
    /// two differ.
    private(set) var collection: String?
    private var collectionsDiffer = false
    /// Whether some URL ended in a negative id.
    private(set) var negative = false

    /// The collection when every URL named the same one.
    var sameCollection: String? { collectionsDiffer ? nil : collection }

    /// Adds one string; `false` when it is no `http(s)` URL or path that `pattern` finds an id in (an
    /// image, a page, a URL with a query after the id), so the key is no candidate.
    mutating func insert(_ text: UnsafeBufferPointer<UInt8>, record: UInt64, fromSource: Bool) -> Bool {
        guard let (id, collection) = Self.id(in: text) else { return false }
        if id.first == UInt8(ascii: "-") { negative = true }
        ids.insert(ValueHash.of(id, seed: 0), record: record, fromSource: fromSource)
        if self.collection == nil {
            self.collection = String(decoding: collection, as: UTF8.self)
        } else if !collectionsDiffer, !collection.elementsEqual(self.collection!.utf8) {
            collectionsDiffer = true
        }
        return true
    }

    /// Adds what `other` held (the same key of the same kind of records, seen under another key).
    mutating func add(_ other: URLIdentities) {
        ids.add(other.ids)
        if collection == nil {
            collection = other.collection
        } else if let theirs = other.collection, theirs != collection {
            collectionsDiffer = true
        }
        collectionsDiffer = collectionsDiffer || other.collectionsDiffer
        negative = negative || other.negative
    }

    /// The id `pattern` takes from `text` and the segment before it: `text` starts `http://` or
    /// `https://`, or is a path from the host's root (`/api/v2/type/18/`, as PokéAPI's recorded
    /// responses link), and ends in `/DIGITS` or `/DIGITS/` (a minus sign allowed before the
    /// digits), with a non-empty segment before them.
    static func id(in text: UnsafeBufferPointer<UInt8>) -> (id: UnsafeBufferPointer<UInt8>, collection: UnsafeBufferPointer<UInt8>)? {
        let slash = UInt8(ascii: "/")
        // Where the path starts: after the host of an absolute URL, at 0 for a path.
        let schemeEnd: Int
        if text.starts(with: "https://".utf8) || text.starts(with: "http://".utf8) {
            schemeEnd = text.firstIndex(of: UInt8(ascii: ":"))! + 3
        } else if text.count > 1, text[0] == slash, text[1] != slash {
            schemeEnd = 0
        } else {
            return nil
        }
        var end = text.endIndex
        if end > schemeEnd, text[end - 1] == slash { end -= 1 }
        var start = end
        while start > schemeEnd, text[start - 1] &- UInt8(ascii: "0") < 10 { start -= 1 }
        // A minus sign only before digits.
        if start < end, start - 1 > schemeEnd, text[start - 1] == UInt8(ascii: "-"), text[start - 2] == slash { start -= 1 }
        guard start < end, start > schemeEnd, text[start - 1] == slash else { return nil }
        let collectionEnd = start - 1
        var collectionStart = collectionEnd
        while collectionStart > schemeEnd, text[collectionStart - 1] != slash { collectionStart -= 1 }
        // The host is no collection: `https://host/1/` has none.
        guard collectionStart > schemeEnd, collectionStart < collectionEnd else { return nil }
        return (UnsafeBufferPointer(rebasing: text[start..<end]), UnsafeBufferPointer(rebasing: text[collectionStart..<collectionEnd]))
    }
}
