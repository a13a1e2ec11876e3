/// Bytes as lowercase hex, as digests and blobs are printed.
public enum Hex {
    /// Two digits a byte, written byte by byte: pages has a digest per hundred records
    /// (bench/README.md).
    public static func digits(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
