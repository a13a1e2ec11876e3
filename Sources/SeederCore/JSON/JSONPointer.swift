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
        var text = ""
        for component in components {
            text += "/"
            switch component {
            case let .index(index): text += String(index)
            case let .key(key):
                // Our replacement, not Foundation's: this runs once per record.
                text += key.replacingOccurrences(of: Character("~"), with: "~0").replacingOccurrences(of: Character("/"), with: "~1")
            }
        }
        return text
    }
}

extension String {
    /// `self` with every `target` replaced (no Foundation needed).
    func replacingOccurrences(of target: Character, with replacement: String) -> String {
        // Most strings hold no target: an ASCII one is looked for byte by byte.
        guard target.asciiValue.map({ utf8.contains($0) }) ?? contains(target) else { return self }
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
