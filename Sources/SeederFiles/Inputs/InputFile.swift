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
    /// The source's `path`, the glob that matched the file; `nil` for a file that feeds an
    /// entity by its name (a mapping without `sources:`).
    public var glob: String? = nil
    /// The text each `*` of `glob` matched in the file's path, in order (`SourceGlob.stars(in:)`):
    /// what `@file.N` reads.
    public var stars: [String] = []
    /// `.json` or JSON Lines.
    public var format: DumpFormat
    /// How the file is stored: as its text, gzip or Zstandard.
    public var compression: DumpCompression = .none
    /// The file's size in bytes, as stored.
    public var size: Int
    /// The file's device and inode, links followed: what tells the output from an input.
    public var device: UInt64 = 0
    public var inode: UInt64 = 0

    package init(
        path: String, relativePath: String, absolutePath: String, entity: Int, keyPath: [String], format: DumpFormat,
        compression: DumpCompression = .none, size: Int, device: UInt64 = 0, inode: UInt64 = 0
    ) {
        self.path = path
        self.relativePath = relativePath
        self.absolutePath = absolutePath
        self.entity = entity
        self.keyPath = keyPath
        self.format = format
        self.compression = compression
        self.size = size
        self.device = device
        self.inode = inode
    }
}

extension InputFile {
    /// The file's bytes: the one way a build opens a dump, for reading its records, for finding a
    /// record's JSON Pointer, and for turning a message's offset into a line and column, so that
    /// how a dump is stored is decided in one place. A compressed dump's bytes are its text,
    /// decompressed as they are read, so that offsets, lines and pointers are the text's
    /// (docs/mapping.md, Compressed dumps). An error names the file as diagnostics do.
    ///
    /// `stored` sees the bytes as stored, before they are decompressed: what `seed_source`
    /// hashes (docs/seed.md).
    package func openBytes(stored: (ByteSource) -> ByteSource = { $0 }) throws -> ByteSource {
        let file: FileByteSource
        do {
            file = try FileByteSource(path: absolutePath)
        } catch let error as InputError {
            throw InputError(path: path, reason: error.reason)
        }
        return try compression.decompressing(stored(file), path: path)
    }
}
