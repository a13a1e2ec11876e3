import CSHA

#if canImport(CommonCrypto)
    import CommonCrypto
#endif

/// SHA-256, which names each dump, the mapping and the seed in a seed's provenance
/// (docs/seed.md) and each fetched page in the manifest (docs/commands.md, fetch). On Apple
/// platforms it is CommonCrypto's; elsewhere the C code in CSHA, on the processor's SHA
/// extensions where it has them.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update(bytes)
/// let hex = hasher.finalizeHex()   // "e3b0c442…"
/// ```
public struct SHA256: Sendable {
    /// The code that computes the digest. Each hasher keeps the one it was made with, so tests
    /// can run every implementation side by side against the same vectors.
    public enum Implementation: Sendable, Hashable, CustomStringConvertible {
        /// The C code in CSHA, on any processor.
        case portable
        /// The C code in CSHA on x86-64's SHA extensions, where the processor has them.
        case shaExtensions
        #if canImport(CommonCrypto)
            /// Apple's CommonCrypto, which uses the processor's SHA instructions.
            case commonCrypto
        #endif

        /// What `SHA256()` uses: the platform's own where there is one, else the fastest C.
        public static var preferred: Implementation {
            #if canImport(CommonCrypto)
                return .commonCrypto
            #else
                return csha256_fastest() == CSHA256_SHA_EXTENSIONS ? .shaExtensions : .portable
            #endif
        }

        /// Every implementation this machine runs.
        public static var available: [Implementation] {
            var all: [Implementation] = [.portable, .shaExtensions]
            #if canImport(CommonCrypto)
                all.append(.commonCrypto)
            #endif
            return all.filter(\.isAvailable)
        }

        public var isAvailable: Bool {
            guard let code = csha else { return true }
            return csha256_available(code) != 0
        }

        public var description: String {
            switch self {
            case .portable: return "portable"
            case .shaExtensions: return "SHA extensions"
            #if canImport(CommonCrypto)
                case .commonCrypto: return "CommonCrypto"
            #endif
            }
        }

        /// The CSHA code this is, or nil for CommonCrypto.
        fileprivate var csha: Int32? {
            switch self {
            case .portable: return CSHA256_PORTABLE
            case .shaExtensions: return CSHA256_SHA_EXTENSIONS
            #if canImport(CommonCrypto)
                case .commonCrypto: return nil
            #endif
            }
        }
    }

    public let implementation: Implementation
    private var context = csha256_context()
    #if canImport(CommonCrypto)
        private var platform = CC_SHA256_CTX()
    #endif

    /// A hasher on `implementation`, which must be one this machine runs (`available`).
    public init(using implementation: Implementation = .preferred) {
        self.implementation = implementation
        if let code = implementation.csha {
            precondition(csha256_init(&context, code) != 0, "this machine cannot hash SHA-256 with \(implementation)")
        } else {
            #if canImport(CommonCrypto)
                CC_SHA256_Init(&platform)
            #endif
        }
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        if implementation.csha != nil {
            csha256_update(&context, base, bytes.count)
            return
        }
        #if canImport(CommonCrypto)
            // CC_LONG is 32 bits: a larger buffer goes in pieces.
            var offset = 0
            while offset < bytes.count {
                let piece = min(bytes.count - offset, 1 << 30)
                CC_SHA256_Update(&platform, base + offset, CC_LONG(piece))
                offset += piece
            }
        #endif
    }

    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil { Array(bytes).withUnsafeBytes { update($0) } }
    }

    /// The digest of everything given, 32 bytes.
    public consuming func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { buffer, count in
            if implementation.csha != nil {
                csha256_final(&context, buffer.baseAddress!)
            } else {
                #if canImport(CommonCrypto)
                    CC_SHA256_Final(buffer.baseAddress!, &platform)
                #endif
            }
            count = 32
        }
    }

    /// The digest as 64 lowercase hex digits.
    public consuming func finalizeHex() -> String {
        Hex.digits(finalize())
    }

    /// The digest of `bytes` as lowercase hex.
    public static func hex(_ bytes: some Sequence<UInt8>, using implementation: Implementation = .preferred) -> String {
        var hasher = SHA256(using: implementation)
        hasher.update(bytes)
        return hasher.finalizeHex()
    }
}
