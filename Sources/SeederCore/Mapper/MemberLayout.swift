#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A record's members (as node indexes of their keys) and, per slot, the member it feeds.
struct MemberLayout {
    let value: JSONValue
    /// Tape index of each member's key; the value follows it.
    var keys: [Int] = []
    /// Per slot of the entity's plan: the ordinal of the member it reads, or -1.
    var slotMembers: [Int] = []
    /// The ordinals of the members `@rest` gathers, for an entity that reads it.
    var restMembers: [Int] = []

    /// The layout of `value`, its keys listed in `keys` (emptied first; an array lent by the
    /// mapper, so that its storage serves record after record).
    init(value: JSONValue, keys: consuming [Int]) {
        self.value = value
        keys.removeAll(keepingCapacity: true)
        keys.reserveCapacity(16)
        let nodes = value.document.nodes
        var key = value.index + 1
        let end = Int(nodes[value.index].end)
        while key < end {
            keys.append(key)
            key = Int(nodes[key + 1].end)
        }
        self.keys = keys
    }

    /// The value of the member a slot reads, if any.
    func member(_ slot: Int) -> JSONValue? {
        memberIndex(slot).map { JSONValue(document: value.document, index: $0) }
    }

    /// The tape index of the value of the member a slot reads, if any.
    func memberIndex(_ slot: Int) -> Int? {
        let ordinal = slotMembers[slot]
        guard ordinal >= 0 else { return nil }
        return keys[ordinal] + 1
    }

    /// A member key's raw text (escapes as written).
    func withKeyBytes<R>(_ ordinal: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        JSONValue(document: value.document, index: keys[ordinal]).withBytes(body)
    }

    /// `@rest`: the members in `restMembers` as one object, each as written (key, escapes and
    /// number text alike), in the record's order; `nil` when there are none.
    func restObject() -> JSONValue? {
        guard !restMembers.isEmpty else { return nil }
        let document = value.document
        var text: [UInt8] = [UInt8(ascii: "{")]
        for ordinal in restMembers {
            let key = JSONValue(document: document, index: keys[ordinal])
            let member = JSONValue(document: document, index: keys[ordinal] + 1)
            if text.count > 1 { text.append(UInt8(ascii: ",")) }
            text += document.bytes[Int(key.node.start)..<key.textEnd]
            text.append(UInt8(ascii: ":"))
            text += document.bytes[Int(member.node.start)..<member.textEnd]
        }
        text.append(UInt8(ascii: "}"))
        // Pieces of a document already parsed: they parse again.
        guard let gathered = try? JSONDocument(parsing: text) else { return nil }
        gathered.fileOffset = value.fileOffset
        return gathered.root
    }
}
