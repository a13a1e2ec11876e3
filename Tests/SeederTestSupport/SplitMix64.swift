/// The tests' random numbers: SplitMix64 (Steele, Lea and Flood, 2014), so a case seed gives the
/// same data on every platform and Swift version, which the standard library's generators do not
/// promise, and a failing case can be replayed from its seed.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed of case `index` of a run from `base`: one SplitMix64 step each, so any case can
    /// be replayed alone from its own seed.
    public static func caseSeed(base: UInt64, index: Int) -> UInt64 {
        var generator = SplitMix64(seed: base &+ UInt64(index) &* 0x2545_F491_4F6C_DD1D)
        return generator.next()
    }

    /// A number in `range`, without the modulo bias mattering for test data.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }

    /// One element of a non-empty collection.
    public mutating func pick<C: RandomAccessCollection>(_ items: C) -> C.Element where C.Index == Int {
        items[items.startIndex + int(0...(items.count - 1))]
    }

    /// The elements in a random order (Fisher-Yates).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        guard items.count > 1 else { return items }
        for index in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(index, int(0...index))
        }
        return items
    }
}
