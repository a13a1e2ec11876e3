import CZlib
import CZstd
import SeederCore

/// A fetched body as its file stores it: as is, or compressed when the source's path ends in
/// `.gz` or `.zst`, reproducibly (no time or name in a gzip header), so that the same body is
/// the same file byte for byte.
enum DumpEncoder {
    static func encode(_ body: [UInt8], as compression: DumpCompression) -> [UInt8] {
        switch compression {
        case .gzip: return gzip(body)
        case .zstd: return zstd(body)
        default: return body
        }
    }

    /// zlib's gzip wrapper (window bits 15 + 16) writes a header with time 0 and no name.
    private static func gzip(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { fatalError("zlib could not start deflate") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        var input = input
        let written = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate with a bound-sized output did not finish")
                return Int(stream.total_out)
            }
        }
        return Array(output[..<written])
    }

    private static func zstd(_ input: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
        let written = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, 3)
            }
        }
        precondition(ZSTD_isError(written) == 0, "zstd with a bound-sized output failed")
        return Array(output[..<written])
    }

    /// The body a stored file holds (decompressed), or `nil` when it cannot be read.
    static func decode(file path: String, as compression: DumpCompression) -> [UInt8]? {
        guard let file = try? FileByteSource(path: path) else { return nil }
        guard compression != .none else { return try? file.readAll() }
        guard let source = try? compression.decompressing(file, path: path) else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = (try? buffer.withUnsafeMutableBytes { try source.read(into: $0) }) ?? -1
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }
}
