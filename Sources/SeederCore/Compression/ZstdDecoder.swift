import CZstd

/// Zstandard (RFC 8878) through the system's libzstd: a unit is a frame, or a skippable frame,
/// checked by its checksum when it has one.
final class ZstdDecoder: FrameDecoder {
    static let format = "zstd"
    static let unit = "frame"
    static let magicCount = 4

    /// The largest block a Zstandard frame holds: 128 KiB.
    private static let blockSize = 128 << 10

    private let stream: OpaquePointer

    init(path: String) throws {
        guard let stream = ZSTD_createDStream() else {
            throw DecompressionError(path: path, message: "zstd data cannot be read: out of memory")
        }
        self.stream = stream
    }

    deinit { ZSTD_freeDStream(stream) }

    /// A Zstandard frame's magic number, or a skippable frame's (0x184D2A50 to 0x184D2A5F),
    /// little-endian.
    func startsUnit(_ input: CompressedInput) -> Bool {
        if input.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return true }
        return input.pointer[0] & 0xF0 == 0x50 && input.starts(with: [input.pointer[0], 0x2A, 0x4D, 0x18])
    }

    /// libzstd goes on from one frame to the next by itself.
    func reset() {}

    func decode(_ input: CompressedInput, into buffer: UnsafeMutableRawBufferPointer) throws -> DecodeStep {
        var source = ZSTD_inBuffer(src: input.pointer, size: input.available, pos: 0)
        // At most a block's worth at a time: given room for a whole frame, libzstd decodes it in
        // one call and, at a bad block, reports none of the text before it.
        var target = ZSTD_outBuffer(dst: buffer.baseAddress, size: min(buffer.count, Self.blockSize), pos: 0)
        let hint = ZSTD_decompressStream(stream, &target, &source)
        input.consume(source.pos)
        if ZSTD_isError(hint) != 0 {
            return DecodeStep(produced: target.pos, corruption: Self.lowercasingFirst(String(cString: ZSTD_getErrorName(hint))))
        }
        // 0: the frame is decoded, its checksum checked, and all of it handed out.
        return DecodeStep(produced: target.pos, unitEnded: hint == 0)
    }

    /// libzstd's names are sentences (`Restored data doesn't match checksum`); in a message they
    /// follow an opening parenthesis.
    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
