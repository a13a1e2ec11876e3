import Foundation
import SeederCore

/// The values of the `${NAME}`s a fetch reads, and what must never be shown: every value, and
/// every `${md5:...}` made from one (docs/mapping.md, Variables and secrets).
public final class FetchVariables: @unchecked Sendable {
    private let values: [String: String]
    /// (text to hide, what is shown instead), longest first so a value inside another is
    /// replaced after it. Grows as `${md5:...}`s are made, from any task: behind `lock`.
    private var hidden: [(value: String, shown: String)] = []
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
            hidden.append((value, "${\(name)}"))
        }
        hidden.sort(by: Self.longestFirst)
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
                let digest = md5Hex(input.utf8)
                text += digest
                if containsVariable(inner) {
                    let shown = "${md5:\(FetchTemplate(parts: inner, location: SourceLocation(file: "")).description)}"
                    lock.lock()
                    if !hidden.contains(where: { $0.value == digest }) {
                        hidden.append((digest, shown))
                        hidden.sort(by: Self.longestFirst)
                    }
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

    /// `text` (from the server, or made from values) with every secret replaced by its name.
    public func redact(_ text: String) -> String {
        let hidden = hiddenNow
        guard !hidden.isEmpty else { return text }
        var result = text
        for (value, shown) in hidden where result.contains(value) {
            result = result.replacingOccurrences(of: value, with: shown)
        }
        return result
    }

    /// The inverse of `redact`: a URL the manifest recorded, with the values back in it.
    public func unredact(_ text: String) -> String {
        guard text.contains("${") else { return text }
        var result = text
        // The digests first: their shown form holds the variables' names.
        for (value, shown) in hiddenNow where shown.hasPrefix("${md5:") {
            result = result.replacingOccurrences(of: shown, with: value)
        }
        for (name, value) in values { result = result.replacingOccurrences(of: "${\(name)}", with: value) }
        return result
    }

    /// The name of the first secret `bytes` hold, if any: a response is never written to a dump
    /// with a secret in it.
    public func secret(in bytes: [UInt8]) -> (name: String, offset: Int)? {
        for (value, shown) in hiddenNow where value.utf8.count >= Self.shortestSecretInBody {
            if let offset = bytes.firstRange(of: Array(value.utf8))?.lowerBound { return (shown, offset) }
        }
        return nil
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
}
