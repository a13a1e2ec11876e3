import CZlib

/// gzip (RFC 1952) through the system's zlib: a unit is a member, checked by its CRC and length.
final class GzipDecoder: FrameDecoder {
    static let format = "gzip"
    static let unit = "member"
    /// The two bytes every gzip member starts with.
    static let magicCount = 2
    private static let magic: [UInt8] = [0x1F, 0x8B]

    /// zlib's state points back at its stream: the stream must not move, so it is allocated.
    private let stream: UnsafeMutablePointer<z_stream>
    private let path: String

    init(path: String) throws {
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

    func startsUnit(_ input: CompressedInput) -> Bool {
        input.starts(with: Self.magic)
    }

    func reset() {
        inflateReset(stream)
    }

    func decode(_ input: CompressedInput, into buffer: UnsafeMutableRawBufferPointer) throws -> DecodeStep {
        let offered = input.available
        let room = min(buffer.count, Int(UInt32.max))
        stream.pointee.next_in = input.pointer
        stream.pointee.avail_in = uInt(offered)
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(room)
        let status = inflate(stream, Z_NO_FLUSH)
        input.consume(offered - Int(stream.pointee.avail_in))
        let produced = room - Int(stream.pointee.avail_out)
        switch status {
        case Z_STREAM_END:
            return DecodeStep(produced: produced, unitEnded: true)
        case Z_OK, Z_BUF_ERROR:
            return DecodeStep(produced: produced)
        case Z_MEM_ERROR:
            throw DecompressionError(path: path, message: "gzip data cannot be read: out of memory")
        default:
            // Z_DATA_ERROR with zlib's reason; Z_NEED_DICT (a zlib stream's dictionary, which
            // gzip has no way to ask for) is corrupt data too.
            return DecodeStep(produced: produced, corruption: stream.pointee.msg.map { String(cString: $0) } ?? "invalid data")
        }
    }
}
