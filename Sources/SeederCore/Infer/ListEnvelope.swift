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

    /// The keys of an envelope's values that say how the list was paged.
    static let pagingKeys: Set<String> = [
        "href", "url", "total", "total_count", "totalCount", "count", "has_more", "hasMore", "next", "previous", "offset", "limit",
        "object",
    ]

    /// Whether `object` only says how long a list is, without it (Spotify's `{"href": ...,
    /// "total": 12}`): paging keys only, scalars only, a count among them.
    static func isStub(_ object: JSONValue) -> Bool {
        var counted = false
        for member in object.members {
            guard member.value.kind != .object, member.value.kind != .array, let key = member.key.string, pagingKeys.contains(key)
            else { return false }
            if member.value.kind == .number, ["total", "total_count", "totalCount", "count"].contains(key) { counted = true }
        }
        return counted
    }
}
