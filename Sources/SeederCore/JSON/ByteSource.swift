#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where dump bytes come from: a file read in large blocks, bytes in memory, or a compressed
/// dump's text (`FramedByteSource` over `GzipDecoder` or `ZstdDecoder`; docs/mapping.md, Compressed dumps).
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

    /// Opens `path` for reading; it must be a regular file.
    ///
    /// Opened without blocking, then checked with `fstat`: opening a FIFO for reading waits for a
    /// writer that may never come, and checking before opening would leave a moment to swap one in.
    public init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError(path: path, reason: FileKind.reason(errno)) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, FileKind.isRegular(info.st_mode) else {
            let reason = FileKind.notRegularReason(info.st_mode)
            close(descriptor)
            throw InputError(path: path, reason: reason)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The file's size in bytes, from `fstat`.
    public var size: Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Every byte left in the file, if it is no larger than `limit` bytes: a larger one is an
    /// `InputError` before a byte is read ("it is 3221225472 bytes, more than the 64 MiB
    /// seeder reads of such a file"), so that a file read whole cannot take the memory. The read
    /// itself stops past `limit` bytes too: a file whose size says less than it holds (`/proc`'s
    /// say 0) is refused once it has given more than `limit` bytes, a block past them at most
    /// ("it is more than 67108864 bytes, more than the 64 MiB ...").
    public func readAll(atMost limit: Int) throws -> [UInt8] {
        let size = size
        guard size <= limit else {
            throw InputError(path: path, reason: "it is \(size) bytes, more than the \(limit >> 20) MiB seeder reads of such a file")
        }
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Whole blocks: some files read only in multiples of a size (`/proc/self/pagemap`, 8).
            let count = try block.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else {
                throw InputError(
                    path: path, reason: "it is more than \(limit) bytes, more than the \(limit >> 20) MiB seeder reads of such a file")
            }
            bytes += block[0..<count]
        }
    }

    /// The most a mapping file, or another file read whole, may hold: 64 MiB (`readAll(atMost:)`).
    public static let wholeFileLimit = 64 << 20

    /// Every byte left in the file: for small files (a mapping).
    public func readAll() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try block.withUnsafeMutableBytes { try read(into: $0) }
            if count == 0 { return bytes }
            bytes += block[0..<count]
        }
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
