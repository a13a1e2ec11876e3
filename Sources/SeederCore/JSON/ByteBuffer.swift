/// A sliding window over a `ByteSource`: the reader's only buffer.
///
/// Bytes before `position` that the reader no longer needs are dropped on each refill; a value
/// larger than the window grows it. Memory is the window plus the largest single value.
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

    init(source: ByteSource, capacity: Int = 1 << 20) {
        self.source = source
        self.storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

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
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 16)
            grown.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: count)
            storage.deallocate()
            storage = grown
        }
        let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[count...]))
        if read == 0 { isAtEnd = true }
        count += read
        return keep
    }
}
