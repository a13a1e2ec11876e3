import SeederCore

/// One dump file a build reads, for one source: where it is and how it holds its records.
public struct InputFile: Sendable, Hashable {
    /// The path as diagnostics name it: the dumps directory as given, then the path in it.
    public var path: String
    /// The path relative to the dumps directory, as `seed_source` stores it (docs/seed.md).
    public var relativePath: String
    /// The absolute path on disk.
    public var absolutePath: String
    /// The entity its records are (for a selector, its first entity).
    public var entity: Int
    /// The source's selector, which picks each record's entity (`Source.selector`).
    public var selector: EntitySelector? = nil
    /// Where the records are inside the file.
    public var keyPath: [String]
    /// `keyedBy`: the attribute each record's key becomes (`Source.keyedBy`).
    public var keyedBy: Int? = nil
    /// `.json` or JSON Lines.
    public var format: DumpFormat
    /// The file's size in bytes.
    public var size: Int
    /// The file's device and inode, links followed: what tells the output from an input.
    public var device: UInt64 = 0
    public var inode: UInt64 = 0
}

extension InputFile {
    /// The file's bytes: the one way a build opens a dump, for reading its records, for finding a
    /// record's JSON Pointer, and for turning a message's offset into a line and column, so that
    /// how a dump is stored is decided in one place. An error names the file as diagnostics do.
    func openBytes() throws -> ByteSource {
        do {
            return try FileByteSource(path: absolutePath)
        } catch let error as InputError {
            throw InputError(path: path, reason: error.reason)
        }
    }
}
