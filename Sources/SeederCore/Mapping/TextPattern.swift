import CPCRE2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `match:` pattern, compiled once when the mapping loads (docs/mapping.md, Values inside text):
/// a PCRE2 regular expression searched in a value's UTF-8 text, whose first capture group (or
/// whole match, without one) is the value.
///
///     let pattern = try TextPattern(#"/(\d+)/?$"#)
///     pattern.search("https://swapi.dev/api/planets/1/")   // .found("1")
///
/// PCRE2 rather than Swift's `Regex` or `NSRegularExpression`: about 40 times faster on URLs
/// (bench/README.md, `match`: the regex engine). Safe to search from several threads at once: the
/// compiled code is only read, and each thread has its own match data (`MatchData`).
public struct TextPattern: Sendable, CustomStringConvertible {
    /// The pattern as the mapping writes it.
    public let source: String
    private let code: CompiledCode

    /// What a search found.
    public enum Outcome: Equatable, Sendable {
        /// The byte range of the value: the first group's, or the whole match's.
        case found(Range<Int>)
        /// The pattern does not match the text.
        case notFound
        /// PCRE2 gave up (its match limit, a text that is not UTF-8): its reason.
        case failed(String)
    }

    /// Compiles `source`; the engine's reason, with the offset in the pattern, when it is not a
    /// pattern, and a reason of ours when it has more than one capture group.
    public init(_ source: String) throws(TextPatternError) {
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled = source.utf8CString.withUnsafeBufferPointer { pattern in
            pattern.withMemoryRebound(to: UInt8.self) { pattern in
                pcre2_compile_8(pattern.baseAddress, pattern.count - 1, PCRE2_UTF, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            throw TextPatternError(message: "\(Self.message(of: errorCode)) at offset \(errorOffset)")
        }
        code = CompiledCode(compiled)
        self.source = source
        var groups: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &groups)
        guard groups <= 1 else {
            throw TextPatternError(
                message: "it has \(groups) capture groups; the value is the first group's text, so it may have one "
                    + "(write the others '(?:...)')")
        }
        // Without JIT (a platform PCRE2 has none for) the interpreter matches the same.
        pcre2_jit_compile_8(compiled, PCRE2_JIT_COMPLETE)
        hasGroup = groups == 1
    }

    private let hasGroup: Bool

    public var description: String { source }

    /// Searches `text` for the pattern, unanchored; text that is not UTF-8 fails.
    public func search(_ text: UnsafeBufferPointer<UInt8>) -> Outcome {
        search(text, options: 0)
    }

    /// `search` on text known to be UTF-8, which PCRE2 then does not check again: what the JSON
    /// reader hands out (it validates every string) and Swift strings.
    func search(validUTF8 text: UnsafeBufferPointer<UInt8>) -> Outcome {
        search(text, options: PCRE2_NO_UTF_CHECK)
    }

    private func search(_ text: UnsafeBufferPointer<UInt8>, options: UInt32) -> Outcome {
        guard let data = MatchData.ofThisThread else { return .failed("out of memory") }
        // An empty buffer may have no address; PCRE2 wants one.
        let result = withExtendedLifetime(code) {
            text.baseAddress.map { pcre2_match_8(code.pointer, $0, text.count, 0, options, data, nil) }
                ?? [UInt8(0)].withUnsafeBufferPointer { pcre2_match_8(code.pointer, $0.baseAddress, 0, 0, options, data, nil) }
        }
        if result == PCRE2_ERROR_NOMATCH { return .notFound }
        guard result > 0, let vector = pcre2_get_ovector_pointer_8(data) else { return .failed(Self.message(of: result)) }
        let pair = hasGroup ? 1 : 0
        // An optional group that took no part (`(\d+)?`): unset, PCRE2_UNSET in both ends.
        guard Int(result) > pair, vector[2 * pair] <= vector[2 * pair + 1], vector[2 * pair + 1] <= text.count else {
            return .found(0..<0)
        }
        return .found(Int(vector[2 * pair])..<Int(vector[2 * pair + 1]))
    }

    /// `search` on a string's UTF-8.
    public func search(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes in
            guard case let .found(range) = search(validUTF8: bytes) else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }

    private static func message(of code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = pcre2_get_error_message_8(code, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<Int(count)], as: UTF8.self) : "PCRE2 error \(code)"
    }
}

/// Why a `match:` pattern is refused: PCRE2's reason, or too many groups.
public struct TextPatternError: Error, Equatable {
    public var message: String
}

/// The owner of PCRE2's compiled code, freed with it.
private final class CompiledCode: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { pcre2_code_free_8(pointer) }
}

/// PCRE2's match data of the calling thread, made on its first search and freed when it ends:
/// a search allocated and freed its own, which cost as much as matching an id in a URL. Two
/// pairs (the whole match, the group) serve every pattern, which has at most one group.
private enum MatchData {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { data in
            // (On Linux the argument is optional, on Darwin not.)
            let data: UnsafeMutableRawPointer? = data
            if let data { pcre2_match_data_free_8(OpaquePointer(data)) }
        }
        return key
    }()

    static var ofThisThread: OpaquePointer? {
        if let data = pthread_getspecific(key) { return OpaquePointer(data) }
        guard let data = pcre2_match_data_create_8(2, nil) else { return nil }
        pthread_setspecific(key, UnsafeRawPointer(data))
        return data
    }
}
