#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sliding window over a `ByteSource`: the reader's only buffer.
///
/// Bytes before `position` that the reader no longer needs are dropped on each refill; a value
/// larger than the window grows it by half, in place where the system can (`realloc`, which
/// moves the pages of a large block rather than copying them), and `shrink()` gives the
/// growth back once that value is parsed. Memory is the window plus at most one and a half
/// times the largest single value, only while that value is read (bench/README.md, Memory).
final class ByteBuffer {
    // Used by its reader's thread only, and read for every value: no run-time exclusivity checks.
    @exclusivity(unchecked) private(set) var storage: UnsafeMutableRawBufferPointer
    /// Valid bytes in `storage`.
    @exclusivity(unchecked) private(set) var count = 0
    /// The file offset of `storage[0]`.
    @exclusivity(unchecked) private(set) var fileOffset = 0
    /// `true` once the source returned its last byte.
    @exclusivity(unchecked) private(set) var isAtEnd = false
    private let source: ByteSource
    /// The window's size when no value has grown it.
    private let blockSize: Int

    init(source: ByteSource, capacity: Int = 1 << 20) {
        self.source = source
        self.blockSize = capacity
        self.storage = Self.resized(nil, to: capacity)
    }

    deinit { free(storage.baseAddress) }

    var base: UnsafePointer<UInt8> { UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: UInt8.self)) }

    /// Drops the bytes before `keep` and reads more after the rest. Returns the shift applied
    /// to every position (`keep`), or `nil` at the end of the input.
    func refill(keeping keep: Int) throws -> Int? {
        guard !isAtEnd else { return nil }
        let kept = count - keep
        if keep > 0, kept > 0 {
            storage.baseAddress!.copyMemory(from: storage.baseAddress! + keep, byteCount: kept)
        }
        count = kept
        fileOffset += keep
        if count == storage.count {
            storage = Self.resized(storage.baseAddress, to: storage.count + max(storage.count / 2, 1))
        }
        let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[count...]))
        if read == 0 { isAtEnd = true }
        count += read
        return keep
    }

    /// Gives back what a large value grew the window by, keeping the bytes from `keep` on (at
    /// most a block's worth after the value, read with it). Returns the shift applied to every
    /// position, as `refill` does.
    func shrink(keeping keep: Int) -> Int {
        let kept = count - keep
        guard storage.count > blockSize, kept <= blockSize else { return 0 }
        if keep > 0, kept > 0 {
            storage.baseAddress!.copyMemory(from: storage.baseAddress! + keep, byteCount: kept)
        }
        count = kept
        fileOffset += keep
        storage = Self.resized(storage.baseAddress, to: blockSize)
        return keep
    }

    /// `pointer`'s block (or a new one) at `size` bytes, its bytes kept up to the smaller size.
    private static func resized(_ pointer: UnsafeMutableRawPointer?, to size: Int) -> UnsafeMutableRawBufferPointer {
        guard let grown = realloc(pointer, size) else { fatalError("out of memory for a window of \(size) bytes") }
        return UnsafeMutableRawBufferPointer(start: grown, count: size)
    }
}
