import CSHA

#if canImport(CommonCrypto)
    import CommonCrypto
#endif

/// MD5, for `${md5:...}` in fetch templates (docs/mapping.md), which some APIs ask for in a
/// signature. Not for anything that must resist collisions. CommonCrypto's on Apple platforms,
/// the C code in CSHA elsewhere.
public enum MD5 {
    /// The digest of `bytes` as lowercase hex.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: 16)
        #if canImport(CommonCrypto)
            // Deprecated as cryptography, which this is not: a signature format an API chose.
            _ = CC_MD5(input, CC_LONG(input.count), &digest)
        #else
            cmd5(input, input.count, &digest)
        #endif
        return Hex.digits(digest)
    }
}
