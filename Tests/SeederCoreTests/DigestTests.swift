import Foundation
import SeederCore
import SeederTestSupport
import Testing

/// SHA-256 and MD5 against the published test vectors: each SHA-256 implementation this machine
/// runs (the portable C, the SHA extensions, CommonCrypto), named explicitly, against the same
/// vectors, whole and fed in odd pieces, and against the portable code on random inputs.
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

    /// SHA2_Additional's long messages of one repeated byte: sizes on either side of a block.
    static let longVectors: [(byte: UInt8, count: Int, hex: String)] = [
        (0x41, 1000, "c2e686823489ced2017f6059b8b239318b6364f6dcd835d0a519105a1eadd6e4"),
        (0x55, 1005, "f4d62ddec0f3dd90ea1380fa16a5ff8dc4c54b21740650f24afc4120903552b0"),
        (0x00, 1000, "541b3e9daa09b20bf85fa273e5cbd3e80185aa4ec298e765db87742b70138a53"),
        (0x00, 1_000_000, "d29751f2649b32ff572b5e0a9f541ea660a50f94ff0beedfb0b692b924cc8025"),
    ]

    /// Each implementation the machine runs is named and tested: none is chosen for the whole
    /// process, so tests running at once cannot change what another one hashes with.
    static let implementations = SHA256.Implementation.available

    /// `bytes` fed in pieces of the sizes in `pieces`, taken in turn: a piece crosses the
    /// 64-byte block at every offset, which the buffered part of a block has to survive.
    static func hex(_ bytes: [UInt8], inPiecesOf pieces: [Int], using implementation: SHA256.Implementation) -> String {
        var hasher = SHA256(using: implementation)
        var start = 0
        var turn = 0
        while start < bytes.count {
            let end = min(bytes.count, start + pieces[turn % pieces.count])
            hasher.update(bytes[start..<end])
            start = end
            turn += 1
        }
        return hasher.finalizeHex()
    }

    @Test(arguments: implementations)
    func sha256MatchesTheStandardsVectors(_ implementation: SHA256.Implementation) {
        let vectors = Self.sha256Vectors + Self.longVectors.map { (Array(repeating: $0.byte, count: $0.count), $0.hex) }
        for vector in vectors {
            #expect(SHA256.hex(vector.input, using: implementation) == vector.hex, "\(vector.input.count) bytes")
            // Byte by byte only where that is quick: the tests share the pool with the server.
            for pieces in (vector.input.count <= 4096 ? [[1], [3, 61, 7]] : []) + [[63, 65, 1], [64], [127, 5, 200]] {
                #expect(
                    Self.hex(vector.input, inPiecesOf: pieces, using: implementation) == vector.hex,
                    "\(vector.input.count) bytes in pieces of \(pieces)")
            }
        }
    }

    /// Every length from 0 to 299, where the padding falls in every place of a block, and a few
    /// long odd ones: the digests of all of them, hashed in turn, against the answer of another
    /// implementation (Python's hashlib, which is OpenSSL's:
    /// `sha256(b"".join(sha256(bytes((i * 7 + n) & 255 for i in range(n))).digest() for n in lengths))`).
    @Test(arguments: implementations)
    func sha256MatchesAnotherImplementationAtEveryLength(_ implementation: SHA256.Implementation) {
        var chain = SHA256(using: implementation)
        for length in Array(0..<300) + [511, 1023, 4097, 65_537, 100_003] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ length) }
            chain.update(Self.digest(bytes, using: implementation, length: length))
        }
        #expect(chain.finalizeHex() == "2c6a0d126d1ff35a7999892c704f09cf3d4a77a4d7e01b77c4a34ea1282c93bf")
    }

    /// The digest of `bytes`, whole for even lengths and in odd pieces for odd ones.
    static func digest(_ bytes: [UInt8], using implementation: SHA256.Implementation, length: Int) -> [UInt8] {
        var hasher = SHA256(using: implementation)
        if length % 2 == 0 {
            hasher.update(bytes)
        } else {
            for start in stride(from: 0, to: bytes.count, by: 13) { hasher.update(bytes[start..<min(bytes.count, start + 13)]) }
        }
        return hasher.finalize()
    }

    @Test(arguments: implementations)
    func agreesWithThePortableCodeOnRandomInputsInRandomPieces(_ implementation: SHA256.Implementation) {
        for index in 0..<300 {
            let seed = SplitMix64.caseSeed(base: 0x5_4A25_6000, index: index)
            var random = SplitMix64(seed: seed)
            let bytes = (0..<random.int(0...3000)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var cuts = (0..<random.int(0...6)).map { _ in random.int(0...bytes.count) }.sorted()
            cuts.append(bytes.count)
            var hasher = SHA256(using: implementation)
            var start = 0
            for cut in cuts {
                hasher.update(bytes[start..<cut])
                start = cut
            }
            #expect(
                hasher.finalizeHex() == SHA256.hex(bytes, using: .portable),
                "case seed \(seed): \(bytes.count) bytes cut at \(cuts)")
        }
    }

    /// A plain `SHA256()` hashes with the platform's implementation: CommonCrypto on Apple
    /// platforms, else the SHA extensions wherever the processor has them, so the fast path is
    /// the one the tests above ran.
    @Test func theDefaultIsThePlatformsFastest() {
        #expect(SHA256().implementation == SHA256.Implementation.preferred)
        #expect(SHA256.Implementation.available.contains(.portable))
        #expect(SHA256.Implementation.available.contains(.preferred))
        #if canImport(CommonCrypto)
            #expect(SHA256.Implementation.preferred == .commonCrypto)
        #else
            let extensions = SHA256.Implementation.shaExtensions.isAvailable
            #expect(SHA256.Implementation.preferred == (extensions ? .shaExtensions : .portable))
            #if arch(x86_64) && os(Linux)
                // Where /proc/cpuinfo lists sha_ni, the extensions must be found and used.
                let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
                #expect(extensions == flags.split(whereSeparator: \.isWhitespace).contains("sha_ni"))
            #endif
        #endif
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
        for (input, hex) in vectors { #expect(MD5.hex(input.utf8) == hex, "\(input)") }
    }
}
