import Foundation

/// The system's `gzip` and `zstd` commands, which make the compressed dumps the tests read: the
/// files a user would have, not bytes of the library that reads them.
public enum Compressor: String, Sendable, CaseIterable, CustomStringConvertible {
    case gzip
    case zstd

    /// The file-name suffix the command adds.
    public var suffix: String { self == .gzip ? ".gz" : ".zst" }

    public var description: String { rawValue }

    /// Compresses the file at `path` beside it (`path` + `suffix`), keeping it, and returns the
    /// new file's path. `-n`: gzip stores no name or time, so the bytes are the same every run.
    @discardableResult
    public func compress(_ path: String) async throws -> String {
        let arguments = self == .gzip ? ["gzip", "-k", "-n", "-f", path] : ["zstd", "-q", "-k", "-f", path]
        let run = try await runProgram("/usr/bin/env", arguments)
        guard run.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(arguments) failed: \(run.stderr)"])
        }
        return path + suffix
    }

    /// `bytes`, compressed by the command.
    public func compress(_ bytes: Data) async throws -> Data {
        let workspace = try Workspace()
        let path = workspace.path("data")
        try bytes.write(to: URL(fileURLWithPath: path))
        return try Data(contentsOf: URL(fileURLWithPath: try await compress(path)))
    }
}
