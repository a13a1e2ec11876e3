/// A compressed dump that does not decompress: corrupt data, a failed check, a cut stream, or
/// bytes after its last member or frame. An error at the file, as malformed JSON is an error in
/// it (docs/mapping.md, Dump files), not an I/O failure.
public struct DecompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as diagnostics name it.
    public var path: String
    /// `gzip data is corrupt (incorrect data check)`.
    public var message: String

    public var description: String { "\(path): \(message)" }

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// The data does not decode, or fails its check; `reason` is the library's (`incorrect data
    /// check`, `restored data doesn't match checksum`) or ours (`trailing garbage after the last
    /// member`).
    static func corrupt(_ format: String, path: String, reason: String) -> DecompressionError {
        DecompressionError(path: path, message: "\(format) data is corrupt (\(reason))")
    }

    /// The file ends inside a member or frame, or holds none.
    static func truncated(_ format: String, path: String, empty: Bool) -> DecompressionError {
        DecompressionError(path: path, message: "\(format) data is truncated (\(empty ? "the file is empty" : "unexpected end of file"))")
    }
}
