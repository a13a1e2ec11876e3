import Foundation
import SeederCore
import SeederTestSupport
import Testing

/// Compressed dumps (docs/mapping.md, Dump files): the text `gzip` and `zstd` made, read back
/// whole through any buffer size, members and frames after each other, and each way the stored
/// bytes can be wrong as an error naming the file.
struct DecompressionTests {
    /// Hands out at most `step` bytes a read, so the decompressor's input ends anywhere: inside a
    /// header, between the two bytes of gzip's magic, inside a checksum.
    final class TricklingSource: ByteSource {
        private let bytes: [UInt8]
        private let step: Int
        private var position = 0

        init(_ bytes: Data, step: Int) {
            self.bytes = Array(bytes)
            self.step = step
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = min(buffer.count, step, bytes.count - position)
            for index in 0..<count { buffer[index] = bytes[position + index] }
            position += count
            return count
        }
    }

    /// Everything `source` hands out, read `bufferSize` bytes at a time.
    static func readAll(_ source: ByteSource, bufferSize: Int) throws -> Data {
        var text = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = try source.read(into: buffer)
            if count == 0 { return text }
            text.append(contentsOf: buffer[..<count])
        }
    }

    static func decompress(_ stored: Data, _ compressor: Compressor, step: Int = 1 << 30, bufferSize: Int = 1 << 20) throws -> Data {
        let compression: DumpCompression = compressor == .gzip ? .gzip : .zstd
        let source = try compression.decompressing(TricklingSource(stored, step: step), path: "dumps/users.json" + compressor.suffix)
        return try readAll(source, bufferSize: bufferSize)
    }

    /// 3 MB of JSON Lines: more than one block of input and of output.
    static let text = Data(
        (0..<40_000).map { #"{"id": \#($0), "name": "user \#($0)", "bio": "\#(String(repeating: "x", count: $0 % 97))"}"# + "\n" }.joined()
            .utf8)

    @Test(arguments: Compressor.allCases)
    func readsTheTextBackThroughAnyBufferAndInput(_ compressor: Compressor) async throws {
        let stored = try await compressor.compress(Self.text)
        #expect(stored.count < Self.text.count / 4)
        #expect(try Self.decompress(stored, compressor) == Self.text)
        #expect(try Self.decompress(stored, compressor, bufferSize: 7) == Self.text)
        #expect(try Self.decompress(stored, compressor, step: 1, bufferSize: 4096) == Self.text)
        // A byte at a time through 3 MB takes seconds: off the pool the other tests share.
        let byteByByte = try await offThePool { try Self.decompress(stored, compressor, step: 3, bufferSize: 1) }
        #expect(byteByByte == Self.text)
    }

    @Test(arguments: Compressor.allCases)
    func readsMembersAndFramesAfterEachOtherAsOneText(_ compressor: Compressor) async throws {
        let parts = [Data("[{\"id\": 1},\n".utf8), Data(), Self.text.prefix(500_000), Data("{\"id\": 2}]\n".utf8)]
        var stored = Data()
        for part in parts { stored += try await compressor.compress(part) }
        let whole = parts.reduce(Data(), +)
        #expect(try Self.decompress(stored, compressor) == whole)
        #expect(try Self.decompress(stored, compressor, step: 1, bufferSize: 5) == whole)
    }

    /// Each way the stored bytes can be wrong, and its message.
    static let corruptions: [(Compressor, String, @Sendable (Data) -> Data, String)] = [
        (.gzip, "a flipped CRC byte", { flip($0, at: $0.count - 8) }, "gzip data is corrupt (incorrect data check)"),
        (.gzip, "a flipped length byte", { flip($0, at: $0.count - 1) }, "gzip data is corrupt (incorrect length check)"),
        (.gzip, "a block of the reserved type", { reservedBlockType($0) }, "gzip data is corrupt (invalid block type)"),
        (.gzip, "a cut member", { $0.dropLast(5) }, "gzip data is truncated (unexpected end of file)"),
        (.gzip, "a header alone", { $0.prefix(10) }, "gzip data is truncated (unexpected end of file)"),
        (.gzip, "trailing garbage", { $0 + Data("garbage\n".utf8) }, "gzip data is corrupt (trailing garbage after the last member)"),
        (.gzip, "one byte after the member", { $0 + Data([0x1F]) }, "gzip data is corrupt (trailing garbage after the last member)"),
        (.gzip, "an empty file", { _ in Data() }, "gzip data is truncated (the file is empty)"),
        (.gzip, "text that is not gzip", { _ in Data("[]".utf8) }, "gzip data is corrupt (not in gzip format)"),
        (.zstd, "a flipped checksum byte", { flip($0, at: $0.count - 1) }, "zstd data is corrupt (restored data doesn't match checksum)"),
        (.zstd, "a cut frame", { $0.dropLast(5) }, "zstd data is truncated (unexpected end of file)"),
        (.zstd, "trailing garbage", { $0 + Data("garbage\n".utf8) }, "zstd data is corrupt (trailing garbage after the last frame)"),
        (.zstd, "two bytes after the frame", { $0 + Data([0x28, 0xB5]) }, "zstd data is corrupt (trailing garbage after the last frame)"),
        (.zstd, "an empty file", { _ in Data() }, "zstd data is truncated (the file is empty)"),
        (.zstd, "text that is not zstd", { _ in Data("[]".utf8) }, "zstd data is corrupt (not in zstd format)"),
    ]

    static func flip(_ data: Data, at index: Int, with mask: UInt8 = 0x01) -> Data {
        var bytes = data
        bytes[bytes.startIndex + index] ^= mask
        return bytes
    }

    /// The first deflate block (after gzip's 10-byte header) with type 11, which RFC 1951 reserves.
    static func reservedBlockType(_ data: Data) -> Data {
        var bytes = data
        bytes[bytes.startIndex + 10] |= 0x06
        return bytes
    }

    @Test(arguments: corruptions.indices)
    func refusesStoredBytesThatAreWrong(_ index: Int) async throws {
        let (compressor, name, corrupt, message) = Self.corruptions[index]
        let stored = corrupt(try await compressor.compress(Data(#"[{"id": 1}, {"id": 2}]"#.utf8)))
        for step in [1 << 30, 1] {
            #expect(
                throws: DecompressionError(path: "dumps/users.json" + compressor.suffix, message: message), "\(compressor): \(name)"
            ) {
                try Self.decompress(stored, compressor, step: step)
            }
        }
    }

    @Test func namesTheCompressionByTheLastSuffix() {
        #expect(DumpCompression.of(file: "users.json.gz") == (.gzip, "users.json"))
        #expect(DumpCompression.of(file: "a/Events.NDJSON.ZST") == (.zstd, "a/Events.NDJSON"))
        #expect(DumpCompression.of(file: "users.json") == (.none, "users.json"))
        #expect(DumpCompression.of(file: ".gz") == (.none, ".gz"))
        #expect(Source.format(ofFile: "users.json.gz") == .json)
        #expect(Source.format(ofFile: "page-*.jsonl.zst") == .jsonLines)
        #expect(Source.format(ofFile: "users.csv.gz") == nil)
        #expect(Source.format(ofFile: "users.json.gz.gz") == nil)
        #expect(Source.compression(ofFile: "users.ndjson.gz") == .gzip)
        #expect(Source.compression(ofFile: "users.json") == DumpCompression.none)
    }

    @Test func acceptsSourcePathsThatNameACompression() throws {
        let paths = ["users.json.gz", "pages/page-*.json.zst", "events.NDJSON.GZ", "*.gz", "lines/*.jsonl.zst"]
        let mapping = try validMapping(
            "seeder: 1\nentities:\n  User:\n    attributes: { id: integer }\nsources:\n"
                + paths.map { "  - { path: \"\($0)\", entity: User }\n" }.joined())
        #expect(mapping.sources?.map(\.path) == paths)
    }
}
