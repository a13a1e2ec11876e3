/// Where in an input file something is: a mapping node or a value in a dump.
///
/// Mapping nodes carry a line and column from the YAML parser. Dump values carry only their
/// byte offset while the build runs; `LineLocator` turns offsets into lines and columns when a
/// diagnostic is printed, so the hot path never counts lines.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// A position in a file.
    public enum Position: Sendable, Hashable {
        /// The file as a whole.
        case file
        /// 1-based line and column; columns count Unicode scalars, as libyaml does.
        case lineColumn(line: Int, column: Int)
        /// A byte offset from the start of the file, not yet resolved to a line and column.
        case offset(Int)
    }

    /// The file as the user named it (relative to the dumps directory for dumps).
    public var file: String
    /// Where in the file.
    public var position: Position

    /// A location at a line and column.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.position = .lineColumn(line: line, column: column)
    }

    /// A location at a byte offset, resolved later by `LineLocator`.
    public init(file: String, offset: Int) {
        self.file = file
        self.position = .offset(offset)
    }

    /// The whole file.
    public init(file: String) {
        self.file = file
        self.position = .file
    }

    /// `file:line:col`, `file` for a whole file, or `file@offset` while unresolved.
    public var description: String {
        switch position {
        case .file: return file
        case let .lineColumn(line, column): return "\(file):\(line):\(column)"
        case let .offset(offset): return "\(file)@\(offset)"
        }
    }
}
