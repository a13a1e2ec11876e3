/// An entity plan's slots by the key that feeds them (`EntityPlan`), most keys one slot and a few
/// several: the first in a dictionary, each one's next in a list by slot. An array per key was
/// an allocation each, a hundred an entity, a hundred thousand in a big mapping
/// (bench/README.md, Big mappings).
struct SlotsByKey {
    private var latest: [String: Int] = [:]
    /// Per slot: the slot added before it under the same key, or -1.
    private var earlier: [Int] = []

    mutating func add(_ slot: Int, for key: String) {
        if earlier.count <= slot { earlier.append(contentsOf: repeatElement(-1, count: slot + 1 - earlier.count)) }
        earlier[slot] = latest[key] ?? -1
        latest[key] = slot
    }

    /// Calls `body` with each slot of `key`, the latest added first.
    func forEach(_ key: String, _ body: (Int) -> Void) {
        var slot = latest[key] ?? -1
        while slot >= 0 {
            body(slot)
            slot = earlier[slot]
        }
    }
}
