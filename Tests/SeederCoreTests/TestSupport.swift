import Testing

@testable import SeederCore

#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Darwin)
    @_exported import Darwin
#endif

extension Array where Element == UInt8 {
    /// Writes the bytes to `path`, replacing the file.
    func write(to path: String) throws {
        guard let file = fopen(path, "wb") else { throw InputError(path: path, reason: "cannot write") }
        defer { fclose(file) }
        _ = withUnsafeBufferPointer { fwrite($0.baseAddress, 1, count, file) }
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// The UTF-8 offset of the first occurrence of `needle` in `text`.
func offset(of needle: String, in text: String) -> Int {
    let bytes = Array(text.utf8)
    let target = Array(needle.utf8)
    for start in 0...(bytes.count - target.count) where Array(bytes[start..<(start + target.count)]) == target {
        return start
    }
    return -1
}
