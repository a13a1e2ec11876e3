import Foundation
import SeederCore

/// The checks a build or validation makes, before any work, on the files it will write: the
/// seed (`-o`) and the report (`--report`). The user's files are precious (docs/commands.md,
/// Files a command touches):
///
/// - each must be a regular file or nothing: a directory, device, FIFO or socket, or a link to
///   one, is never written through or replaced, nor a link through a process's open file
///   (`/dev/stdout`);
/// - neither may be the mapping, a dump file the build reads, or the other one, compared by
///   device and inode after following links (two names of one file are one file);
/// - an existing output must be a seed (a `seed_metadata` table) unless `force`: another app's
///   database or a text file given by mistake is not replaced;
/// - an existing output whose `-wal` file still holds transactions is not replaced, even with
///   `force`: SQLite would read that file's pages into the new seed when it is next opened;
/// - the report's directory must let the report be made, so that a long build does not end
///   with a report it cannot write.
///
/// A few `stat` calls per run: nothing per dump file (the planner's own `stat` gives their
/// identities) or record.
package struct OutputGuard {
    /// The mapping file.
    package var mapping: String
    /// The dump files the build reads, with their identities.
    package var inputs: [InputFile]
    /// What `inputs` are, as a refusal names them.
    package var inputsDescription = "a dump file this build reads"
    /// The app's schema file the mapping names (`schema:`), read like an input.
    package var appSchema: String? = nil

    package init(mapping: String, inputs: [InputFile], inputsDescription: String? = nil, appSchema: String? = nil) {
        self.mapping = mapping
        self.inputs = inputs
        if let inputsDescription { self.inputsDescription = inputsDescription }
        self.appSchema = appSchema
    }

    /// Checks the report `report`, which the output `output` (if any) may not be either.
    package func checkReport(_ report: String, output: String?) throws(OutputError) {
        let status = PathStatus(report)
        try Self.checkKind(status, "the report")
        try checkNotAnInput(status, "the report")
        if let output, let identity = status.identity, identity == PathStatus(output).identity {
            throw OutputError(.outputRefused, "the report \(report) is the output")
        }
        let directory = PathText.directory(of: report)
        if access(directory.isEmpty ? "." : directory, W_OK | X_OK) != 0 {
            throw OutputError.cannot("create", report, error: errno)
        }
    }

    package static func checkKind(_ status: PathStatus, _ role: String) throws(OutputError) {
        try checkName(status.path, role)
        if let reason = status.notRegularReason ?? status.processFileReason {
            throw OutputError(.outputRefused, "\(role) \(status.path) may not be written: \(reason)")
        }
    }

    /// Refuses a path no file can have: an empty one, or one whose name is longer than a
    /// directory allows (docs/commands.md, Files a command touches). Otherwise the system's
    /// reason would come later and name another file (`cannot replace : Is a directory`).
    package static func checkName(_ path: String, _ role: String) throws(OutputError) {
        if path.isEmpty { throw OutputError(.outputRefused, "\(role) path is empty: name a file") }
        let length = PathText.name(of: path).utf8.count
        if length > PathText.nameLimit {
            throw OutputError(
                .outputRefused,
                "\(role) \(path) may not be written: its name is \(length) bytes long, and a file name may have \(PathText.nameLimit)"
            )
        }
    }

    package func checkNotAnInput(_ status: PathStatus, _ role: String) throws(OutputError) {
        guard let identity = status.identity else { return }
        if identity == PathStatus(mapping).identity { throw OutputError(.outputRefused, "\(role) \(status.path) is the mapping file") }
        if let appSchema, identity == PathStatus(appSchema).identity {
            throw OutputError(.outputRefused, "\(role) \(status.path) is the app's schema that the mapping's 'schema:' names")
        }
        if let input = inputs.first(where: { PathStatus.Identity(device: $0.device, inode: $0.inode) == identity }) {
            throw OutputError(
                .outputRefused,
                input.path == status.path
                    ? "\(role) \(status.path) is \(inputsDescription)"
                    : "\(role) \(status.path) is \(input.path), \(inputsDescription)")
        }
    }
}
