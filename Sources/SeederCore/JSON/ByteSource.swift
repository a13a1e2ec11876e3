#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where dump bytes come from: a file read in large blocks, or bytes in memory.
///
/// A gunzipping source (MAPPING.md: `.gz` after `.json` or `.jsonl`) is one more conformance.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`; returns how many, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// An I/O failure while reading an input: the file named, the system's reason.
public struct InputError: Error, Sendable, CustomStringConvertible {
    /// The path as given.
    public var path: String
    /// The system's reason (`strerror`).
    public var reason: String

    public var description: String { "\(path): \(reason)" }

    /// An error for `path` with the system's reason.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Reads a file with `read(2)`, so memory stays flat whatever the file's size.
public final class FileByteSource: ByteSource {
    private let descriptor: Int32
    /// The path as given.
    public let path: String

    /// Opens `path` for reading.
    public init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputError(path: path, reason: String(cString: strerror(errno))) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The file's size in bytes, from `fstat`.
    public var size: Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw InputError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}

/// Bytes already in memory: tests, and small inputs.
public final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    /// A source over `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A source over the UTF-8 of `text`.
    public convenience init(_ text: String) {
        self.init(Array(text.utf8))
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - position)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: count)
        }
        position += count
        return count
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif
