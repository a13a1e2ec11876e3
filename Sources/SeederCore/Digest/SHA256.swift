import CSHA

/// SHA-256, which names each dump, the mapping and the seed in a seed's provenance
/// (docs/seed.md) and each fetched page in the manifest (docs/commands.md, fetch). The
/// C code in CSHA uses the processor's SHA extensions where it has them.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(bytes)
/// let hex = hasher.finalizeHex()   // "e3b0c442…"
/// ```
public struct SHA256: Sendable {
    private var context = csha256_context()

    public init() {
        csha256_init(&context)
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        csha256_update(&context, base, bytes.count)
    }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// The digest of everything given, 32 bytes.
    public consuming func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { buffer, count in
            csha256_final(&context, buffer.baseAddress!)
            count = 32
        }
    }

    /// The digest as 64 lowercase hex digits.
    public consuming func finalizeHex() -> String {
        hexDigits(finalize())
    }

    /// The digest of `bytes` as lowercase hex.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    /// Whether this machine hashes on its SHA extensions.
    public static var isAccelerated: Bool { csha256_accelerated() != 0 }

    /// Hashes in portable C from now on (`true`), or as the machine allows (`false`): for tests
    /// that compare the two.
    public static func usePortable(_ portable: Bool) {
        csha256_use_portable(portable ? 1 : 0)
    }
}

/// MD5 of `bytes` as lowercase hex: `${md5:...}` in fetch templates (docs/mapping.md), which
/// some APIs ask for in a signature. Not for anything that must resist collisions.
public func md5Hex(_ bytes: some Sequence<UInt8>) -> String {
    let input = Array(bytes)
    var digest = [UInt8](repeating: 0, count: 16)
    cmd5(input, input.count, &digest)
    return hexDigits(digest)
}

/// Bytes as lowercase hex, two digits each, written byte by byte: pages has a digest per hundred
/// records (bench/README.md).
public func hexDigits(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
}
