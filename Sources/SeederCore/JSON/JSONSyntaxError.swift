/// Input that is not RFC 8259 JSON: where (a byte offset) and what.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte offset of the problem from the start of the input.
    public var offset: Int
    /// What is wrong.
    public var message: String

    public var description: String { "\(message) at byte \(offset)" }
}
