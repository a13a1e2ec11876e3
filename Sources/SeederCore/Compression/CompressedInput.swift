/// The stored bytes of a compressed dump, read in blocks for a decompressor: the bytes it has not
/// consumed yet are `available` at `pointer`. Memory is one block, whatever the file's size.
final class CompressedInput {
    private let source: ByteSource
    private let storage: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    /// `true` once the source returned its last byte.
    private(set) var isAtEnd = false
    /// Bytes consumed since the first: how much of the file the text so far came from.
    private(set) var consumed = 0

    /// A quarter of a megabyte: libzstd asks for 128 KiB (`ZSTD_DStreamInSize`); more makes no
    /// difference to either library.
    init(_ source: ByteSource, blockSize: Int = 1 << 18) {
        self.source = source
        self.storage = .allocate(byteCount: blockSize, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// The bytes not consumed yet.
    var available: Int { end - start }
    var pointer: UnsafeMutablePointer<UInt8> { (storage.baseAddress! + start).assumingMemoryBound(to: UInt8.self) }

    /// Reads until `count` bytes are available or the source ends; returns whether they are.
    func fill(atLeast count: Int = 1) throws -> Bool {
        while available < count, !isAtEnd {
            if start > 0 {
                if available > 0 { storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: available) }
                end = available
                start = 0
            }
            let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]))
            if read == 0 { isAtEnd = true }
            end += read
        }
        return available >= count
    }

    /// Marks `count` bytes as consumed.
    func consume(_ count: Int) {
        start += count
        consumed += count
    }

    /// Whether the available bytes start with `prefix` (call `fill(atLeast:)` first).
    func starts(with prefix: [UInt8]) -> Bool {
        guard available >= prefix.count else { return false }
        return prefix.indices.allSatisfy { pointer[$0] == prefix[$0] }
    }
}
