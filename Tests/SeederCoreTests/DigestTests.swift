import SeederCore
import SeederTestSupport
import Testing

/// SHA-256 and MD5 (CSHA) against the published test vectors, and the SHA extensions' code
/// against the portable code on random inputs fed in random pieces.
@Suite struct DigestTests {
    /// FIPS 180-4's examples (NIST's "SHA256.pdf" and "SHA2_Additional.pdf").
    static let sha256Vectors: [(input: [UInt8], hex: String)] = [
        ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            Array(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (Array(repeating: UInt8(ascii: "a"), count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test(arguments: [false, true])
    func sha256MatchesTheStandardsVectors(portable: Bool) {
        SHA256.usePortable(portable)
        defer { SHA256.usePortable(false) }
        for vector in Self.sha256Vectors {
            #expect(SHA256.hex(vector.input) == vector.hex, "\(vector.input.count) bytes")
            // The same bytes a byte at a time, through the buffer that holds a partial block.
            var hasher = SHA256()
            for byte in vector.input.prefix(1000) { hasher.update(CollectionOfOne(byte)) }
            hasher.update(vector.input.dropFirst(1000))
            #expect(hasher.finalizeHex() == vector.hex, "\(vector.input.count) bytes in pieces")
        }
    }

    @Test func theSHAExtensionsAgreeWithThePortableCode() {
        // Where the machine has no SHA extensions both runs are portable, and agree trivially.
        for index in 0..<300 {
            let seed = SplitMix64.caseSeed(base: 0x5_4A25_6000, index: index)
            var random = SplitMix64(seed: seed)
            let bytes = (0..<random.int(0...3000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var cuts = (0..<random.int(0...6)).map { _ in random.int(0...bytes.count) }.sorted()
            cuts.append(bytes.count)
            var digests: [String] = []
            for portable in [false, true] {
                SHA256.usePortable(portable)
                var hasher = SHA256()
                var start = 0
                for cut in cuts {
                    hasher.update(bytes[start..<cut])
                    start = cut
                }
                digests.append(hasher.finalizeHex())
            }
            SHA256.usePortable(false)
            #expect(digests[0] == digests[1], "case seed \(seed): \(bytes.count) bytes cut at \(cuts)")
        }
    }

    /// RFC 1321's test suite (A.5).
    @Test func md5MatchesRFC1321() {
        let vectors = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (input, hex) in vectors { #expect(md5Hex(input.utf8) == hex, "\(input)") }
    }
}
