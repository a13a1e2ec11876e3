import Foundation
import SeederCore
import SeederFiles

/// An object that only wraps a list of records, as APIs embed a to-many: Stripe's
/// `"subscriptions": {"object": "list", "data": [...], "has_more": false, "url": "..."}`. Its records
/// are the to-many, read through it (`from: subscriptions.data`), and of the entity its key names,
/// so a customer's subscriptions merge with `subscriptions.json`'s by identity; the envelope's
/// own values say how the list was paged, and are left out (docs/commands.md, `seeder infer`,
/// Nested records).
enum ListEnvelope {
    /// The keys an envelope holds its records under.
    static let recordKeys: Set<String> = ["data", "items", "results", "records", "entries", "nodes"]

    /// The key of the records' array when `object` is an envelope: one array under one of
    /// `recordKeys`, of objects only (or empty); every other member a scalar or null, none named
    /// like an identity (a record with an `id` and a list is a record).
    static func recordsKey(of object: JSONValue) -> String? {
        // The members' kinds first, read off the parse's tape: most records hold an object or no
        // array, and no value or key text is made for them.
        let nodes = object.document.nodes
        let end = Int(object.node.end)
        var cursor = object.index + 1
        var arrays = 0
        while cursor < end {
            let value = nodes[cursor + 1]
            switch value.kind {
            case .object: return nil
            case .array: arrays += 1
            default: break
            }
            cursor = Int(value.end)
        }
        guard arrays == 1 else { return nil }
        var found: String?
        for member in object.members {
            let key = member.key.string ?? ""
            if member.value.kind == .array {
                guard recordKeys.contains(key), member.value.elements.allSatisfy({ $0.kind == .object }) else { return nil }
                found = key
            } else if KeyStats.isIdentityLike(key) {
                return nil
            }
        }
        return found
    }

    /// The keys of an envelope's values that say how the list was paged, by their length in
    /// bytes; `counts` for those that count its records.
    static let pagingKeys: [[(bytes: [UInt8], counts: Bool)]] = {
        let keys = ["href", "url", "has_more", "hasMore", "next", "previous", "offset", "limit", "object"]
        let counts = ["total", "total_count", "totalCount", "count"]
        var table = [[(bytes: [UInt8], counts: Bool)]](repeating: [], count: 12)
        for key in keys { table[key.utf8.count].append((Array(key.utf8), false)) }
        for key in counts { table[key.utf8.count].append((Array(key.utf8), true)) }
        return table
    }()

    /// Whether `object` only says how long a list is, without it (Spotify's `{"href": ...,
    /// "total": 12}`): paging keys only, scalars only, a count among them. Asked of every object
    /// that is no envelope, so it reads the tape and compares the keys' bytes in place.
    static func isStub(_ object: JSONValue) -> Bool {
        let nodes = object.document.nodes
        let end = Int(object.node.end)
        var cursor = object.index + 1
        var counted = false
        while cursor < end {
            let key = nodes[cursor], value = nodes[cursor + 1]
            let length = Int(key.length)
            guard value.kind != .object, value.kind != .array, key.flags & JSONNode.escaped == 0, length < pagingKeys.count else {
                return false
            }
            let match = JSONValue(document: object.document, index: cursor).withBytes { bytes in
                pagingKeys[length].first { memcmp($0.bytes, bytes.baseAddress!, length) == 0 }
            }
            guard let match else { return false }
            if match.counts, value.kind == .number { counted = true }
            cursor = Int(value.end)
        }
        return counted
    }
}
