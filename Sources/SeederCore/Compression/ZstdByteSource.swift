import CZstd

/// A Zstandard dump's text, decompressed by the system's libzstd block by block into the
/// reader's own buffer, so memory stays flat whatever the file's size (docs/mapping.md, Dump
/// files).
///
/// Frames after each other (`cat a.zst b.zst`, or skippable frames) are one text, as `zstd -d`
/// reads them. Bad data, a failed checksum, a file that ends inside a frame and bytes after the
/// last frame that are not a frame are `DecompressionError`s naming the file.
final class ZstdByteSource: ByteSource {
    private let input: CompressedInput
    private let path: String
    private let stream: OpaquePointer
    private var place = Place.beforeFrame(first: true)

    private enum Place {
        case beforeFrame(first: Bool)
        case inFrame
        case done
        /// Text decoded before the error was handed out; the error comes with the next read.
        case failed(DecompressionError)
    }

    init(_ source: ByteSource, path: String) throws {
        self.input = CompressedInput(source)
        self.path = path
        guard let stream = ZSTD_createDStream() else {
            throw DecompressionError(path: path, message: "zstd data cannot be read: out of memory")
        }
        self.stream = stream
    }

    deinit { ZSTD_freeDStream(stream) }

    /// The largest block a Zstandard frame holds (RFC 8878: 128 KiB).
    private static let blockSize = 128 << 10

    /// Whether the available input starts a frame: a Zstandard frame's magic number, or a
    /// skippable frame's (0x184D2A50 to 0x184D2A5F), little-endian (RFC 8878).
    private var startsAFrame: Bool {
        if input.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return true }
        return input.pointer[0] & 0xF0 == 0x50 && input.starts(with: [input.pointer[0], 0x2A, 0x4D, 0x18])
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            switch place {
            case .done:
                return 0
            case let .failed(error):
                throw error
            case let .beforeFrame(first):
                let whole = try input.fill(atLeast: 4)
                if input.available == 0 {
                    if first { throw DecompressionError.truncated("zstd", path: path, empty: true) }
                    place = .done
                    return 0
                }
                guard whole, startsAFrame else {
                    throw corrupt(first ? "not in zstd format" : "trailing garbage after the last frame")
                }
                place = .inFrame
            case .inFrame:
                // Read on at the end too: output that did not fit the last buffer is still to come.
                _ = try input.fill()
                var source = ZSTD_inBuffer(src: input.pointer, size: input.available, pos: 0)
                // At most a block's worth at a time: given room for a whole frame, libzstd decodes
                // it in one call and, at a bad block, reports none of the text before it.
                var target = ZSTD_outBuffer(dst: base, size: min(buffer.count, Self.blockSize), pos: 0)
                let hint = ZSTD_decompressStream(stream, &target, &source)
                input.consume(source.pos)
                if ZSTD_isError(hint) != 0 {
                    let error = corrupt(Self.lowercasingFirst(String(cString: ZSTD_getErrorName(hint))))
                    // What decoded before the bad block is text like any other (docs/mapping.md).
                    guard target.pos > 0 else { throw error }
                    place = .failed(error)
                    return target.pos
                }
                // 0: the frame is decoded, its checksum checked, and all of it handed out.
                if hint == 0 { place = .beforeFrame(first: false) }
                if target.pos > 0 { return target.pos }
                if case .inFrame = place, input.available == 0, input.isAtEnd {
                    throw DecompressionError.truncated("zstd", path: path, empty: false)
                }
            }
        }
    }

    private func corrupt(_ reason: String) -> DecompressionError {
        DecompressionError.corrupt("zstd", path: path, reason: reason)
    }

    /// libzstd's names are sentences (`Restored data doesn't match checksum`); in a message they
    /// follow an opening parenthesis.
    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
