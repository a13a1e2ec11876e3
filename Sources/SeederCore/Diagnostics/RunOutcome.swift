/// How a build, validation or infer ended (docs/commands.md, Exit status).
public enum RunOutcome: Int, Sendable {
    /// The seed was written (or, for `validate`, would be).
    case success = 0
    /// The data or the mapping failed validation.
    case invalid = 1
    /// An input could not be read, or the output could not be written.
    case failed = 2
}
