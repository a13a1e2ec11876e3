import CZlib

/// A gzipped dump's text, inflated by the system's zlib block by block into the reader's own
/// buffer, so memory stays flat whatever the file's size (docs/mapping.md, Dump files).
///
/// Members after each other (`cat a.gz b.gz`) are one text, as `gunzip` reads them. Bad data, a
/// failed CRC or length check, a file that ends inside a member and bytes after the last member
/// that are not a member are `DecompressionError`s naming the file.
final class GzipByteSource: ByteSource {
    private let input: CompressedInput
    private let path: String
    /// zlib's state points back at its stream: the stream must not move, so it is allocated.
    private let stream: UnsafeMutablePointer<z_stream>
    private var place = Place.beforeMember(first: true)

    private enum Place {
        case beforeMember(first: Bool)
        case inMember
        case done
        /// Text decoded before the error was handed out; the error comes with the next read.
        case failed(DecompressionError)
    }

    /// The two bytes every gzip member starts with (RFC 1952).
    private static let magic: [UInt8] = [0x1F, 0x8B]

    init(_ source: ByteSource, path: String) throws {
        self.input = CompressedInput(source)
        self.path = path
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: the largest window, and a gzip header and trailer rather than zlib's.
        guard inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw DecompressionError(path: path, message: "gzip data cannot be read: zlib could not start")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            switch place {
            case .done:
                return 0
            case let .failed(error):
                throw error
            case let .beforeMember(first):
                let whole = try input.fill(atLeast: Self.magic.count)
                if input.available == 0 {
                    if first { throw DecompressionError.truncated("gzip", path: path, empty: true) }
                    place = .done
                    return 0
                }
                guard whole, input.starts(with: Self.magic) else {
                    throw corrupt(first ? "not in gzip format" : "trailing garbage after the last member")
                }
                if !first { inflateReset(stream) }
                place = .inMember
            case .inMember:
                // Read on at the end too: output that did not fit the last buffer is still to come.
                _ = try input.fill()
                let offered = input.available
                stream.pointee.next_in = input.pointer
                stream.pointee.avail_in = uInt(offered)
                stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(min(buffer.count, Int(UInt32.max)))
                let status = inflate(stream, Z_NO_FLUSH)
                input.consume(offered - Int(stream.pointee.avail_in))
                let produced = min(buffer.count, Int(UInt32.max)) - Int(stream.pointee.avail_out)
                switch status {
                case Z_STREAM_END:
                    place = .beforeMember(first: false)
                case Z_OK, Z_BUF_ERROR:
                    break
                case Z_MEM_ERROR:
                    throw DecompressionError(path: path, message: "gzip data cannot be read: out of memory")
                default:
                    // Z_DATA_ERROR with zlib's reason; Z_NEED_DICT (a zlib stream's dictionary,
                    // which gzip has no way to ask for) is corrupt data too.
                    let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                    // What decoded before the bad block is text like any other (docs/mapping.md).
                    guard produced > 0 else { throw corrupt(reason) }
                    place = .failed(corrupt(reason))
                    return produced
                }
                if produced > 0 { return produced }
                if case .inMember = place, input.available == 0, input.isAtEnd {
                    throw DecompressionError.truncated("gzip", path: path, empty: false)
                }
            }
        }
    }

    private func corrupt(_ reason: String) -> DecompressionError {
        DecompressionError.corrupt("gzip", path: path, reason: reason)
    }
}
