import Foundation
import SeederCore

/// The values of the `${NAME}`s a fetch reads, and what must never be shown: every value, and
/// every `${md5:...}` made from one (docs/mapping.md, Variables and secrets).
public final class FetchVariables: @unchecked Sendable {
    private let values: [String: String]
    /// (text to hide, what is shown instead), longest first so a value inside another is
    /// replaced after it. Grows as `${md5:...}`s are made, from any task: behind `lock`.
    private var hidden: [(value: String, shown: String)] = []
    /// Every form of each hidden value (`SecretForms`), longest first, behind `lock` too.
    private var hiddenForms: [(value: String, shown: String)] = []
    private let lock = NSLock()

    /// Reads each variable the templates use from `environment`; an unset one is an error at
    /// the template that uses it.
    /// `notSecret` are the names read only in `base` (a host, say): shown, and not searched for.
    public init(
        reading templates: [FetchTemplate], from environment: [String: String], diagnostics: DiagnosticSink, notSecret: Set<String> = []
    ) {
        var values: [String: String] = [:]
        var reported: Set<String> = []
        for template in templates {
            for name in template.variables {
                if let value = environment[name], !value.isEmpty {
                    values[name] = value
                } else if reported.insert("\(name)@\(template.location)").inserted {
                    // An empty value is what CI gives for a secret it does not have.
                    let what = environment[name] == nil ? "is not set" : "is empty"
                    diagnostics.error(
                        .unsetVariable, "environment variable '\(name)' \(what) (read by '${\(name)}')", at: template.location)
                }
            }
        }
        self.values = values
        for (name, value) in values where value.utf8.count >= Self.shortestHidden && !notSecret.contains(name) {
            hide(value, as: "${\(name)}")
        }
    }

    /// Adds `value` and its forms to what is hidden; the caller holds `lock` or is the initializer.
    private func hide(_ value: String, as shown: String) {
        guard !hidden.contains(where: { $0.value == value }) else { return }
        hidden.append((value, shown))
        hidden.sort(by: Self.longestFirst)
        hiddenForms += SecretForms.of(value).map { ($0, shown) }
        hiddenForms.sort(by: Self.longestFirst)
    }

    /// Values shorter than this are not searched for in text the server sent: a two-letter
    /// locale would otherwise be "hidden" inside every word. Secrets are longer.
    public static let shortestHidden = 4

    private static func longestFirst(_ a: (value: String, shown: String), _ b: (value: String, shown: String)) -> Bool {
        a.value.utf8.count != b.value.utf8.count ? a.value.utf8.count > b.value.utf8.count : a.shown < b.shown
    }

    private var hiddenNow: [(value: String, shown: String)] {
        lock.lock()
        defer { lock.unlock() }
        return hidden
    }

    private var formsNow: [(value: String, shown: String)] {
        lock.lock()
        defer { lock.unlock() }
        return hiddenForms
    }

    /// The text with every variable's value, `${md5:...}` expanded, and `{K}` read from `parent`.
    /// Records each `${md5:...}` made from a variable so it is hidden too.
    public func expand(_ template: FetchTemplate, parent: ParentRecord? = nil) -> String {
        expand(template.parts, parent: parent)
    }

    private func expand(_ parts: [FetchTemplate.Part], parent: ParentRecord?) -> String {
        var text = ""
        for part in parts {
            switch part {
            case let .text(literal): text += literal
            case let .variable(name): text += values[name] ?? ""
            case let .parentField(path): text += parent?.fields[path.description] ?? ""
            case let .md5(inner):
                let input = expand(inner, parent: parent)
                let digest = MD5.hex(input.utf8)
                text += digest
                if containsVariable(inner) {
                    let shown = "${md5:\(FetchTemplate(parts: inner, location: SourceLocation(file: "")).description)}"
                    lock.lock()
                    hide(digest, as: shown)
                    lock.unlock()
                }
            }
        }
        return text
    }

    private func containsVariable(_ parts: [FetchTemplate.Part]) -> Bool {
        parts.contains { part in
            switch part {
            case .variable: return true
            case let .md5(inner): return containsVariable(inner)
            default: return false
            }
        }
    }

    /// The text as shown: `${NAME}`s as written, `{K}` read from `parent` (not secret).
    /// `encode` is applied to the literal text and the parent's values only, so that a URL
    /// shows `${NAME}` as written rather than percent-encoded.
    public func render(_ template: FetchTemplate, parent: ParentRecord? = nil, encode: (String) -> String = { $0 }) -> String {
        template.parts.map { part -> String in
            switch part {
            case let .text(literal): return encode(literal)
            case let .variable(name): return "${\(name)}"
            case let .parentField(path): return encode(parent?.fields[path.description] ?? "")
            case let .md5(inner): return "${md5:\(FetchTemplate(parts: inner, location: SourceLocation(file: "")).description)}"
            }
        }.joined()
    }

    /// `text` (from the server, or made from values) with every secret, in any of its forms,
    /// replaced by its name. A mix of forms no list holds is found by decoding: the words that
    /// hold one are not shown, nor, failing that, the text.
    public func redact(_ text: String) -> String {
        let forms = formsNow
        guard !forms.isEmpty else { return text }
        var result = text
        for (value, shown) in forms where result.contains(value) {
            result = result.replacingOccurrences(of: value, with: shown)
        }
        guard holdsSecret(result) else { return result }
        result = result.split(separator: " ", omittingEmptySubsequences: false).map { word in
            holdsSecret(String(word)) ? Self.hiddenWord : String(word)
        }.joined(separator: " ")
        return holdsSecret(result) ? Self.hiddenText : result
    }

    static let hiddenWord = "(not shown: a secret)"
    static let hiddenText = "(not shown: the text holds a secret)"

    /// Whether `text` holds a secret of 4 characters or more, in any form.
    @Sendable func holdsSecret(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { secret(in: UnsafeBufferPointer($0), shortest: Self.shortestHidden) } != nil
    }

    /// The name of the first secret `bytes` hold in any form (`SecretForms`), and where: a
    /// response is never written to a dump with a secret in it.
    public func secret(in bytes: [UInt8]) -> (name: String, offset: Int)? {
        bytes.withUnsafeBufferPointer { secret(in: $0, shortest: Self.shortestSecretInBody) }
    }

    private func secret(in bytes: UnsafeBufferPointer<UInt8>, shortest: Int) -> (name: String, offset: Int)? {
        let secrets = hiddenNow.filter { $0.value.utf8.count >= shortest }
        guard !secrets.isEmpty else { return nil }
        // Decoding copies the bytes: only when they hold an escape or a percent sign at all.
        let escaped = bytes.contains(UInt8(ascii: "\\")) || bytes.contains(UInt8(ascii: "%"))
        let needles = secrets.map { (Array($0.value.utf8), $0.shown) }
        func search(_ haystack: UnsafeBufferPointer<UInt8>) -> (name: String, at: Int)? {
            for (needle, shown) in needles {
                if let found = SecretForms.firstIndex(of: needle, in: haystack) { return (shown, found) }
            }
            return nil
        }
        if let found = search(bytes) { return (found.name, found.at) }
        guard escaped else { return nil }
        for passes in SecretForms.percentPasses {
            var none: [Int]? = nil
            let decoded = SecretForms.decoded(bytes, percentPasses: passes, origins: &none)
            guard let found = decoded.withUnsafeBufferPointer(search) else { continue }
            var origins: [Int]? = []
            _ = SecretForms.decoded(bytes, percentPasses: passes, origins: &origins)
            return (found.name, origins![found.at])
        }
        return nil
    }

    /// `secret(in:)` over a body too large to hold, read in blocks that overlap by more than
    /// any form of a secret is long.
    public func secret(inFile path: String) throws -> (name: String, offset: Int)? {
        guard let longest = hiddenNow.map(\.value.utf8.count).max(), longest >= Self.shortestSecretInBody else { return nil }
        let overlap = longest * 12 + 16
        let source = try FileByteSource(path: path)
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var window: [UInt8] = []
        var windowStart = 0
        while true {
            let count = try block.withUnsafeMutableBytes { try source.read(into: $0) }
            window += block[..<count]
            if let found = window.withUnsafeBufferPointer({ secret(in: $0, shortest: Self.shortestSecretInBody) }) {
                return (found.name, windowStart + found.offset)
            }
            if count == 0 { return nil }
            let keep = min(overlap, window.count)
            windowStart += window.count - keep
            window.removeFirst(window.count - keep)
        }
    }

    /// Values this long are searched for in the bodies the server sends.
    public static let shortestSecretInBody = 8
}

/// A parent record of an `each` fetch: the values its `{K}`s read, by key path.
public struct ParentRecord: Sendable {
    /// `{K}` -> the value's text.
    public var fields: [String: String]
    /// The value of the first `{K}` of the URL, which names the parent's folder.
    public var folderName: String
    /// Where the record is: the parent's file and the record's JSON pointer.
    public var file: String
    public var pointer: String
    /// With `url: "{K}"`: the URL K's value leads to, which is fetched as it is.
    var detail: DetailURL? = nil
    /// The record's line and column in DUMPS' file, for messages about its child.
    var place: SourceLocation? = nil
}
