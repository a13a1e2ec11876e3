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
        // Built as bytes: this runs once per record, and appending to a `String` piece by piece
        // was a twentieth of the reading thread.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for component in components {
            bytes.append(UInt8(ascii: "/"))
            switch component {
            case var .index(index):
                let start = bytes.count
                repeat {
                    bytes.append(UInt8(ascii: "0") + UInt8(index % 10))
                    index /= 10
                } while index > 0
                bytes[start...].reverse()
            case let .key(key):
                for byte in key.utf8 {
                    switch byte {
                    case UInt8(ascii: "~"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "0")]
                    case UInt8(ascii: "/"): bytes += [UInt8(ascii: "~"), UInt8(ascii: "1")]
                    default: bytes.append(byte)
                    }
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
