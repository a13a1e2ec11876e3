/// A release of SQLite, `3.22.0`: the oldest one a seed must open in (`compatibility: { sqlite: }`,
/// docs/mapping.md, Compatibility).
public struct SQLiteVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// `X.Y.Z` (or `X.Y`, patch 0), digits only; `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let numbers = Optional(parts.compactMap { Int($0) }), numbers.count == parts.count
        else { return nil }
        self.init(numbers[0], numbers[1], numbers.count == 3 ? numbers[2] : 0)
    }

    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (lhs: SQLiteVersion, rhs: SQLiteVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// The default floor: what Android 9 (API 28) ships, and below what iOS 12 ships
    /// (docs/mapping.md, Compatibility).
    public static let defaultFloor = SQLiteVersion(3, 22, 0)
}
