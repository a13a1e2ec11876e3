/// One user-facing problem: an error or a warning, with where it was found.
///
/// Every stage reports through this one type; the command decides how to print it and which
/// exit status follows. `description` is the compiler-style line of docs/commands.md:
///
///     dumps/task_list.json:7:113: error: Task 6: 'completed' is "maybe", expected boolean (true, false, yes, no, t, f, y, n, 1 or 0)  [/0/project/tasks/2/completed]
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        case error
        case warning
        /// Neither a problem nor a doubt: what a run did that the user should know of (a child
        /// `fetch` skipped, docs/commands.md).
        case note

        private var rank: Int {
            switch self {
            case .note: return 0
            case .warning: return 1
            case .error: return 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }
    }

    /// Error or warning.
    public var severity: Severity
    /// What kind of problem it is, for tools (docs/json.md); the printed line leaves it out.
    public var code: DiagnosticCode
    /// Where the problem is; `nil` for a problem of the whole run.
    public var location: SourceLocation?
    /// What is wrong, in one sentence with no trailing period.
    public var message: String
    /// The JSON Pointer (RFC 6901) of the offending value in a dump file, when there is one.
    public var jsonPath: String?
    /// A second place the message speaks of (the other side of a conflict), printed after it.
    public var relatedLocation: SourceLocation?

    /// Creates a diagnostic. The code has no default: every place that reports a problem says
    /// which kind it is.
    public init(
        _ severity: Severity, _ code: DiagnosticCode, _ message: String, at location: SourceLocation? = nil, jsonPath: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.location = location
        self.message = message
        self.jsonPath = jsonPath
    }

    /// Creates an error.
    public static func error(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation? = nil, jsonPath: String? = nil
    ) -> Diagnostic {
        Diagnostic(.error, code, message, at: location, jsonPath: jsonPath)
    }

    /// Creates a note.
    public static func note(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation? = nil, jsonPath: String? = nil
    ) -> Diagnostic {
        Diagnostic(.note, code, message, at: location, jsonPath: jsonPath)
    }

    /// Creates a warning.
    public static func warning(
        _ code: DiagnosticCode, _ message: String, at location: SourceLocation? = nil, jsonPath: String? = nil
    ) -> Diagnostic {
        Diagnostic(.warning, code, message, at: location, jsonPath: jsonPath)
    }

    /// `file:line:col: error: message  [/json/path]`, on one line: what comes from data (a value,
    /// a key, a file name) escaped by `PrintedText.escaped`.
    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += "\(severity.rawValue): \(message)"
        if let relatedLocation { text += " at \(relatedLocation)" }
        if let jsonPath { text += "  [\(jsonPath.isEmpty ? "/" : jsonPath)]" }
        return PrintedText.escaped(text)
    }
}
