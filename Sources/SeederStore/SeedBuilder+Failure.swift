import Foundation
import GRDB
import SeederCore
import SeederFiles

extension SeedBuilder {
    /// Reports an error that stopped the run once its files were claimed, and returns its
    /// outcome: invalid for the data, failed for a file that could not be read or written
    /// (docs/commands.md, Exit status). Working files are named as the user named the output's
    /// directory, as SQLite's own messages name them.
    static func report(_ error: Error, files: BuildFiles?, database: DatabaseQueue?, diagnostics: DiagnosticSink) -> BuildReport.Outcome {
        switch error {
        case let error as JSONSyntaxError:
            diagnostics.error(.syntax, error.message)
            return .invalid
        case let error as DecompressionError:
            diagnostics.error(.compression, error.message, at: SourceLocation(file: error.path))
            return .invalid
        case let error as InputError:
            diagnostics.error(.io, "cannot read this dump file: \(error.reason)", at: SourceLocation(file: error.path))
        case let error as OutputError:
            var message = error.message
            for path in files?.temporaries ?? [] { message = message.replacingOccurrences(of: path, with: files!.shown(path)) }
            diagnostics.error(error.code, message)
        case let error as DatabaseError:
            let named =
                files.map { files in
                    [("main", files.seed), ("work", files.work), ("", files.vacuum)].map {
                        (schema: $0.0, path: $0.1, shown: files.shown($0.1))
                    }
                } ?? []
            let failure = StorageFailure(error, files: named)
            diagnostics.error(failure.code, failure.message(database))
        case let error as SchemaFitError:
            diagnostics.error(.schema, error.message, at: error.location)
            return .invalid
        case let error as AssemblyError:
            diagnostics.error(.internal, error.message)
        default:
            // Nothing above names it: a failure of seeder's own.
            diagnostics.error(.internal, "\(error)")
        }
        return .failed
    }
}
