/// How a command ended, by the kind of failure: the raw value is its exit status, the same for
/// every command (docs/commands.md, Exit status). Each command's report holds one; the command
/// only maps it to its exit.
public enum RunOutcome: Int, Sendable {
    /// The seed was written (or, for `validate`, would be); `diff`: the seeds hold the same
    /// records; `patch`: the patched seed was written.
    case success = 0
    /// The data or the mapping failed validation; `diff`: the seeds differ; `patch`: the changeset
    /// does not apply to the seed.
    case invalid = 1
    /// An input could not be read, or the output could not be written, or may not be.
    case failed = 2
    /// Bad usage seen only once the inputs are open (`diff --entity` naming nothing in either seed).
    case badUsage = 64

    /// The process's exit status.
    public var exitStatus: Int32 { Int32(rawValue) }

    /// The outcome's name in the `--json` and `--report` documents (docs/json.md).
    public var name: String {
        switch self {
        case .success: "success"
        case .invalid: "invalid"
        case .failed: "failed"
        case .badUsage: "badUsage"
        }
    }

    /// Writes `outcome` and `exitStatus`, as every command's `--json` and `--report` documents
    /// have them after their header (docs/json.md).
    public func write(to json: inout JSONStreamWriter) {
        json.member("outcome", name)
        json.member("exitStatus", rawValue)
    }
}
