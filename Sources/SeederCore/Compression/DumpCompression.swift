/// How a dump file is stored: as its text, or compressed (docs/mapping.md, Dump files).
///
/// The compression is the file name's last suffix (`users.json.gz`, `events.ndjson.zst`); what
/// comes before it names the format, as it does for a file that is not compressed.
public enum DumpCompression: String, Sendable, Hashable, CaseIterable {
    /// The text itself.
    case none
    /// gzip (`.gz`), one member or several after each other, as `cat a.gz b.gz` makes.
    case gzip
    /// Zstandard (`.zst`), one frame or several.
    case zstd

    /// The file-name suffix, `nil` for `none`.
    public var suffix: String? {
        switch self {
        case .none: return nil
        case .gzip: return ".gz"
        case .zstd: return ".zst"
        }
    }

    /// The compression a file's name says (its suffix, ignoring case), and the name without
    /// that suffix.
    public static func of(file path: String) -> (compression: DumpCompression, stripped: Substring) {
        for compression in [DumpCompression.gzip, .zstd] {
            let suffix = compression.suffix!
            if path.utf8.count > suffix.utf8.count, path.lowercased().hasSuffix(suffix) {
                return (compression, path.dropLast(suffix.count))
            }
        }
        return (.none, path[...])
    }

    /// `source`'s bytes, decompressed as they are read; `source` itself when not compressed.
    /// `path` names the file in errors (`DecompressionError`, and `InputError` for text past
    /// `limits`).
    public func decompressing(_ source: ByteSource, path: String, limits: DecompressionLimits = .standard) throws -> ByteSource {
        switch self {
        case .none: return source
        case .gzip: return try FramedByteSource<GzipDecoder>(source, path: path, limits: limits)
        case .zstd: return try FramedByteSource<ZstdDecoder>(source, path: path, limits: limits)
        }
    }
}
