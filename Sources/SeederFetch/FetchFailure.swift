import SeederCore

/// Why a source (or one parent's pages) could not be fetched: a diagnostic, and the exit status
/// it calls for (2 for a service that could not be reached or refused, 1 for a body that is not
/// what the mapping reads; docs/commands.md, fetch).
public struct FetchFailure: Error, Sendable {
    public var diagnostic: Diagnostic
    public var exitStatus: Int32
    /// The HTTP status the service answered, when the failure is its answer (a 404), for
    /// `missing: skip` to tell a child that is gone.
    var status: Int? = nil

    init(_ code: DiagnosticCode, _ message: String, at location: SourceLocation?, exitStatus: Int32, jsonPath: String? = nil) {
        diagnostic = .error(code, message, at: location, jsonPath: jsonPath)
        self.exitStatus = exitStatus
    }

    /// The service's fault, or the network's: exit 2.
    static func service(_ message: String, at location: SourceLocation?) -> FetchFailure {
        FetchFailure(.http, message, at: location, exitStatus: 2)
    }

    /// A body that is not what the mapping reads: exit 1.
    static func data(_ code: DiagnosticCode, _ message: String, at location: SourceLocation?, jsonPath: String? = nil) -> FetchFailure {
        FetchFailure(code, message, at: location, exitStatus: 1, jsonPath: jsonPath)
    }
}
