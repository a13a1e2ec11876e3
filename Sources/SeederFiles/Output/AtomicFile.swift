import Foundation

/// Writes a whole file so that it is either the old file or the new one, never a part: to a
/// temporary file beside it (`.<name>.seeder-<pid>`), synced, then renamed over it. For the
/// `--report` document, as the seed itself is written (docs/commands.md, Files a command touches).
public enum AtomicFile {
    /// The temporary file beside `path` that this process writes it through: named by the
    /// process, so one there is a dead process's leftover.
    package static func temporaryPath(for path: String) -> String {
        let directory = PathText.directory(of: path)
        return (directory.isEmpty ? "" : directory + "/")
            + PathText.hiddenName(beside: PathText.name(of: path), suffix: ".seeder-\(getpid())")
    }

    /// Writes `bytes` to `path`. `willCreate` is called with the temporary file's path before it
    /// is made, so that a command can remove it if it is interrupted. On failure the temporary
    /// file is removed and `path` is as it was.
    public static func write(_ bytes: [UInt8], to path: String, willCreate: ([String]) -> Void = { _ in }) throws(OutputError) {
        let temporary = temporaryPath(for: path)
        willCreate([temporary])
        // Named by the process: one there is a dead process's leftover.
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw OutputError.cannot("create", path, error: errno) }
        var failure = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw OutputError.cannot("write", path, error: failure)
        }
    }
}
