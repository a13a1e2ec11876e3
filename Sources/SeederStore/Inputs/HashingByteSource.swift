import Crypto
import SeederCore

/// A byte source that hashes what it reads (SHA-256), so a dump's digest costs no second read.
final class HashingByteSource: ByteSource {
    private let source: ByteSource
    private var hasher = SHA256()
    /// Bytes read so far.
    private(set) var count = 0

    init(_ source: ByteSource) {
        self.source = source
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let read = try source.read(into: buffer)
        if read > 0 {
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<read]))
            count += read
        }
        return read
    }

    /// The digest of everything read, as lowercase hex. Call once, at the end.
    func finish() -> String {
        hasher.finalize().map { hex($0) }.joined()
    }
}

/// Two lowercase hex digits.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}

/// SHA-256 of bytes, as lowercase hex.
func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
    SHA256.hash(data: Array(bytes)).map { hex($0) }.joined()
}
