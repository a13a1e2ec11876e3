import CZlib
import CZstd
import Foundation
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

    /// `input` (a body too large to hold) as its file stores it, written to `output` block by
    /// block; its SHA-256 (hex) and size. Uncompressed, `output` is `input` itself.
    static func encode(file input: String, as compression: DumpCompression, to output: String) throws(InputError) -> (
        sha256: String, size: Int
    ) {
        let source: FileByteSource
        do { source = try FileByteSource(path: input) } catch { throw InputError(path: input, reason: "\(error)") }
        guard compression == .gzip || compression == .zstd else {
            let found: (sha256: String, size: Int)
            do { found = try Self.digest(of: source) } catch { throw InputError(path: input, reason: "\(error)") }
            if input != output, rename(input, output) != 0 { throw InputError(path: output, reason: FileKind.reason(errno)) }
            return found
        }
        var digest = SHA256()
        var size = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        func read() throws(InputError) -> Int {
            do { return try buffer.withUnsafeMutableBytes { try source.read(into: $0) } } catch {
                throw InputError(path: input, reason: "\(error)")
            }
        }
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw InputError(path: output, reason: FileKind.reason(errno)) }
        defer { close(descriptor) }
        func emit(_ bytes: ArraySlice<UInt8>) throws(InputError) {
            digest.update(bytes)
            size += bytes.count
            var offset = bytes.startIndex
            while offset < bytes.endIndex {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw InputError(path: output, reason: FileKind.reason(errno))
                }
                offset += written
            }
        }
        var out = [UInt8](repeating: 0, count: 1 << 20)
        if compression == .gzip {
            var stream = z_stream()
            guard
                deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                    == Z_OK
            else { throw InputError(path: output, reason: "zlib could not start deflate") }
            defer { deflateEnd(&stream) }
            var finished = false
            while !finished {
                let count = try read()
                let flush = count == 0 ? Z_FINISH : Z_NO_FLUSH
                var status = Z_OK
                repeat {
                    let produced = buffer.withUnsafeMutableBufferPointer { source in
                        out.withUnsafeMutableBufferPointer { target in
                            stream.next_in = source.baseAddress
                            stream.avail_in = UInt32(count)
                            stream.next_out = target.baseAddress
                            stream.avail_out = UInt32(target.count)
                            status = deflate(&stream, flush)
                            return target.count - Int(stream.avail_out)
                        }
                    }
                    try emit(out[..<produced])
                } while stream.avail_out == 0 && status == Z_OK
                finished = count == 0
            }
        } else {
            guard let context = ZSTD_createCCtx() else { throw InputError(path: output, reason: "zstd could not start") }
            defer { ZSTD_freeCCtx(context) }
            ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, 3)
            var finished = false
            while !finished {
                let count = try read()
                let mode = count == 0 ? ZSTD_e_end : ZSTD_e_continue
                var input = ZSTD_inBuffer(src: nil, size: count, pos: 0)
                var left = 0
                repeat {
                    var produced = 0
                    left = buffer.withUnsafeBytes { source in
                        out.withUnsafeMutableBytes { target in
                            input.src = source.baseAddress
                            var output = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
                            let result = ZSTD_compressStream2(context, &output, &input, mode)
                            produced = output.pos
                            return ZSTD_isError(result) != 0 ? -1 : result
                        }
                    }
                    guard left >= 0 else { throw InputError(path: output, reason: "zstd could not compress the body") }
                    try emit(out[..<produced])
                } while (mode == ZSTD_e_end && left > 0) || input.pos < input.size
                finished = count == 0
            }
        }
        try? FileManager.default.removeItem(atPath: input)
        return (digest.finalizeHex(), size)
    }

    /// The SHA-256 (hex) and size of the file at `path`, read block by block; `nil` when there
    /// is no regular file there to read.
    static func digest(file path: String) -> (sha256: String, size: Int)? {
        guard let source = try? FileByteSource(path: path) else { return nil }
        return try? digest(of: source)
    }

    /// The SHA-256 (hex) and size of what `source` holds, read block by block.
    private static func digest(of source: ByteSource) throws -> (sha256: String, size: Int) {
        var digest = SHA256()
        var size = 0
        // Most pages are a few kB: a block that size, not a large one made and zeroed each time.
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return (digest.finalizeHex(), size) }
            digest.update(buffer[..<count])
            size += count
        }
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
