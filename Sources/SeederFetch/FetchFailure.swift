import SeederCore

/// Why a source (or one parent's pages) could not be fetched: a diagnostic, and the outcome it
/// calls for (`failed` for a service that could not be reached or refused, `invalid` for a body
/// that is not what the mapping reads; docs/commands.md, fetch).
public struct FetchFailure: Error, Sendable {
    public var diagnostic: Diagnostic
    public var outcome: RunOutcome
    /// The HTTP status the service answered, when the failure is its answer (a 404), for
    /// `missing: skip` to tell a child that is gone.
    var status: Int? = nil

    init(_ code: DiagnosticCode, _ message: String, at location: SourceLocation?, outcome: RunOutcome, jsonPath: String? = nil) {
        diagnostic = .error(code, message, at: location, jsonPath: jsonPath)
        self.outcome = outcome
    }

    /// The service's fault, or the network's: `failed`.
    static func service(_ message: String, at location: SourceLocation?) -> FetchFailure {
        FetchFailure(.http, message, at: location, outcome: .failed)
    }

    /// A body that is not what the mapping reads: `invalid`.
    static func data(_ code: DiagnosticCode, _ message: String, at location: SourceLocation?, jsonPath: String? = nil) -> FetchFailure {
        FetchFailure(code, message, at: location, outcome: .invalid, jsonPath: jsonPath)
    }
}
