/// How far a compressed dump's text may grow (docs/mapping.md, Compressed dumps): a few hundred
/// bytes of gzip can stand for gigabytes of text, which would keep a build busy for minutes
/// (a decompression bomb). Past its first `allowance` bytes, a file's text may be at most
/// `ratio` times the compressed bytes read so far, and `size` bytes in all; beyond that the
/// file is not read further, an `InputError` at it (exit 2).
public struct DecompressionLimits: Sendable, Hashable {
    /// The text any compressed dump may have whatever its ratio: 16 MiB.
    public var allowance: Int
    /// Bytes of text per byte of the compressed file, past `allowance`: 100.
    public var ratio: Int
    /// The most text one compressed dump may have: 16 GiB.
    public var size: Int

    /// The limits of docs/mapping.md.
    public static let standard = DecompressionLimits(allowance: 16 << 20, ratio: 100, size: 16 << 30)

    public init(allowance: Int, ratio: Int, size: Int) {
        self.allowance = allowance
        self.ratio = ratio
        self.size = size
    }

    /// Why `text` bytes decoded from `compressed` stored bytes are past the limits, else `nil`.
    func excess(text: Int, compressed: Int, format: String) -> String? {
        if text > size {
            return "its \(format) text passes \(Self.shown(size)), the most a compressed dump may hold"
        }
        if text > allowance, text / ratio > compressed {
            return "its \(format) text passes \(Self.shown(allowance)) and \(ratio) times the compressed bytes that hold it,"
                + " the most a compressed dump may expand"
        }
        return nil
    }

    /// `16 MiB`, `16 GiB`, or a count of bytes.
    private static func shown(_ bytes: Int) -> String {
        if bytes >= 1 << 30, bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        return "\(bytes) bytes"
    }
}
