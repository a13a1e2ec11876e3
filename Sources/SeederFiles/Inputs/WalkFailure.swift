import SeederCore

/// A place under the dumps directory that the walk for dump files could not read
/// (docs/mapping.md, Sources): a dump there would otherwise be left out without a word, and a
/// glob that misses it would look like one that matches nothing. Always an I/O error, exit 2.
package struct WalkFailure: Sendable {
    /// What could not be read.
    package enum Place: Sendable {
        case dumpsDirectory, directory, entry
    }

    /// The path relative to the dumps directory, as its bytes are shown (`caf\xE9.json`);
    /// empty for the dumps directory itself.
    package var path: String
    package var place: Place
    /// Why: the system's reason, or that the name is not UTF-8.
    package var reason: String

    /// `cannot read this directory: Permission denied`.
    package var message: String {
        switch place {
        case .dumpsDirectory: return "cannot read the dumps directory: \(reason)"
        case .directory: return "cannot read this directory: \(reason)"
        case .entry: return "cannot read this file: \(reason)"
        }
    }

    /// Reports the failure as `planner` names files (`dumps/a/b.json`).
    package func report(to diagnostics: DiagnosticSink, planner: InputPlanner) {
        diagnostics.error(.io, message, at: SourceLocation(file: path.isEmpty ? planner.dumps : planner.display(path)))
    }
}
