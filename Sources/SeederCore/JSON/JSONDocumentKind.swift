/// The JSON documents the commands print (docs/json.md). Each begins with the same members:
/// `seeder`, the tool's version; `format`, the version of the document's own layout; `command`.
public enum JSONDocumentKind: String, Sendable, CaseIterable {
    /// `build` and `validate`: their findings and summary (and the `--report` file).
    case build, validate
    /// `infer`: the draft, what it was drafted from, the findings.
    case infer
    /// `diff`: what changed between two seeds.
    case diff
    /// `inspect`: what a seed holds.
    case inspect
    /// `fetch`: what was fetched, per source.
    case fetch

    /// The document's format. Within a format members are only ever added, never renamed or
    /// removed, nor their meaning changed; anything else takes the next number (docs/json.md).
    public var format: Int {
        switch self {
        case .build, .validate: return 1
        case .infer: return 1
        case .diff: return 1
        case .inspect: return 1
        case .fetch: return 1
        }
    }

    /// Writes the members every document begins with.
    public func writeHeader(to json: inout JSONStreamWriter) {
        json.member("seeder", SeederVersion.current)
        json.member("format", format)
        json.member("command", rawValue)
    }
}
