/// A JSON Pointer (RFC 6901): where a value stands in its file, as `/2/project/tasks/0/id`.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// One step: an array index or an object key.
    public enum Component: Sendable, Hashable {
        case index(Int)
        case key(String)
    }

    /// The steps from the file's root.
    public var components: [Component] = []

    /// The root.
    public init() {}

    /// A pointer with these steps.
    public init(_ components: [Component]) {
        self.components = components
    }

    /// Adds a step.
    public mutating func append(_ component: Component) {
        components.append(component)
    }

    /// The pointer with one more step.
    public func appending(_ component: Component) -> JSONPointer {
        var copy = self
        copy.append(component)
        return copy
    }

    /// RFC 6901 text: `""` for the root, `~0` and `~1` for `~` and `/` in keys.
    public var description: String {
        // Measured, then written in place: this runs once per record, and growing a byte array
        // and copying it into a string cost three allocations where one (or none, for a short
        // pointer) will do.
        var length = 0
        for component in components {
            switch component {
            case let .index(index): length += 1 + Self.digitCount(index)
            case let .key(key):
                length += 1 + key.utf8.count
                for byte in key.utf8 where byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") { length += 1 }
            }
        }
        return String(unsafeUninitializedCapacity: length) { bytes in
            var at = 0
            for component in components {
                bytes[at] = UInt8(ascii: "/")
                at += 1
                switch component {
                case var .index(index):
                    let digits = Self.digitCount(index)
                    for position in stride(from: at + digits - 1, through: at, by: -1) {
                        bytes[position] = UInt8(ascii: "0") + UInt8(index % 10)
                        index /= 10
                    }
                    at += digits
                case let .key(key):
                    for byte in key.utf8 {
                        switch byte {
                        case UInt8(ascii: "~"): bytes[at] = UInt8(ascii: "~"); bytes[at + 1] = UInt8(ascii: "0"); at += 2
                        case UInt8(ascii: "/"): bytes[at] = UInt8(ascii: "~"); bytes[at + 1] = UInt8(ascii: "1"); at += 2
                        default: bytes[at] = byte; at += 1
                        }
                    }
                }
            }
            return at
        }
    }

    private static func digitCount(_ index: Int) -> Int {
        var count = 1
        var rest = index / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}
