#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Duplicate keys: RFC 8259 leaves them to the implementation; seeder refuses them, since
/// which value a mapping would read is then a guess (docs/mapping.md, Dump files).
extension JSONParser {
    /// Rejects an object whose members repeat a key (after unescaping). Up to 16 keys are
    /// compared pairwise (length first) without allocating; larger objects use a hash table of
    /// node indices.
    static func checkDuplicateKeys(of object: Int, in nodes: [JSONNode], _ p: UnsafePointer<UInt8>, start: Int) throws(Failure) {
        let end = Int(nodes[object].end)
        guard object + 1 < end else { return }
        @inline(__always) func text(_ key: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: p + start + Int(nodes[key].start) + 1, count: Int(nodes[key].length))
        }
        @inline(__always) func decoded(_ key: Int) -> [UInt8] {
            nodes[key].flags & JSONNode.escaped != 0 ? unescape(text(key)) : Array(text(key))
        }
        @inline(__always) func same(_ a: Int, _ b: Int) -> Bool {
            let x = nodes[a]
            let y = nodes[b]
            if (x.flags | y.flags) & JSONNode.escaped == 0 {
                return x.length == y.length && memcmp(p + start + Int(x.start) + 1, p + start + Int(y.start) + 1, Int(x.length)) == 0
            }
            return decoded(a) == decoded(b)
        }
        // A key is compared with the earlier ones only when a 64-bit filter of their lengths and
        // last bytes says one may be equal: distinct keys rarely share both. A key with an
        // escape fills the filter (its text is not what it decodes to), so every later key is
        // compared, as it is itself.
        @inline(__always) func bit(_ key: Int) -> UInt64 {
            let node = nodes[key]
            if node.flags & JSONNode.escaped != 0 { return .max }
            let last = node.length == 0 ? 0 : p[start + Int(node.start) + Int(node.length)]
            return 1 << ((UInt64(node.length) &* 7 &+ UInt64(last)) & 63)
        }
        let found: Int? = withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { keys in
            var count = 0
            var filter: UInt64 = 0
            var key = object + 1
            while key < end {
                guard count < 16 else { return -1 }
                let mark = bit(key)
                if filter & mark != 0 {
                    for earlier in 0..<count where same(keys[earlier], key) { return key }
                }
                filter |= mark
                keys[count] = key
                count += 1
                key = Int(nodes[key + 1].end)
            }
            return nil
        }
        if let found, found >= 0 { throw duplicate(found, nodes, p, start) }
        guard found == -1 else { return }
        // An open-addressing table of the keys' node indices, hashed by their decoded text: four
        // bytes a slot, two slots a key, where a set of the keys' texts took tens of bytes a key
        // (a record's own size again for an object of many short members; bench/README.md, Memory).
        var keys = 0
        var key = object + 1
        while key < end {
            keys += 1
            key = Int(nodes[key + 1].end)
        }
        var slots = 1
        while slots < keys * 2 { slots <<= 1 }
        var table = [UInt32](repeating: .max, count: slots)
        key = object + 1
        while key < end {
            var hasher = Hasher()
            if nodes[key].flags & JSONNode.escaped != 0 {
                decoded(key).withUnsafeBytes { hasher.combine(bytes: $0) }
            } else {
                hasher.combine(bytes: UnsafeRawBufferPointer(text(key)))
            }
            var slot = hasher.finalize() & (slots - 1)
            while table[slot] != .max {
                if same(Int(table[slot]), key) { throw duplicate(key, nodes, p, start) }
                slot = (slot + 1) & (slots - 1)
            }
            table[slot] = UInt32(truncatingIfNeeded: key)
            key = Int(nodes[key + 1].end)
        }
    }

    private static func duplicate(_ key: Int, _ nodes: [JSONNode], _ p: UnsafePointer<UInt8>, _ start: Int) -> Failure {
        let offset = start + Int(nodes[key].start)
        let bytes = UnsafeBufferPointer(start: p + offset + 1, count: Int(nodes[key].length))
        let name = String(decoding: nodes[key].flags & JSONNode.escaped != 0 ? unescape(bytes) : Array(bytes), as: UTF8.self)
        return .syntax(JSONSyntaxError(offset: offset, message: "duplicate key \"\(name)\" in object"))
    }
}
