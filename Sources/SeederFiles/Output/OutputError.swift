import Foundation
import SeederCore

/// A file a command writes may not or could not be written: the message names the path and,
/// for an I/O failure, the system's reason (`cannot create out/seed.sqlite: Permission denied`).
/// Always exit status 2 (docs/commands.md, Exit status).
public struct OutputError: Error, Sendable, CustomStringConvertible {
    /// The whole message.
    public var message: String
    /// `io` for a failure of the system, `output-refused` for a file seeder will not write.
    public var code: DiagnosticCode

    public var description: String { message }

    public init(_ code: DiagnosticCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `cannot <verb> <path>: <the system's reason for error>`.
    public static func cannot(_ verb: String, _ path: String, error: Int32) -> OutputError {
        OutputError(.io, "cannot \(verb) \(path): \(FileKind.reason(error))")
    }
}
