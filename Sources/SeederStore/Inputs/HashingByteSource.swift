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
        hexDigits(hasher.finalize())
    }
}

/// Bytes as lowercase hex, two digits each. (Written byte by byte: a `String` per byte, from
/// an array of `Character`s, made a digest cost 170,000 instructions, and pages has a file per
/// hundred records.)
func hexDigits(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
}

/// SHA-256 of bytes, as lowercase hex.
func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
    hexDigits(SHA256.hash(data: Array(bytes)))
}
