/// An entity's full-text index (`search:`, docs/mapping.md, Search): an external-content FTS
/// table `<table>_search` over some of its text columns, filled when the seed is built.
public struct SearchSpec: Sendable, Hashable {
    /// The indexed attributes, by index in the entity's attributes, in the order written.
    public var fields: [Int]
    /// The FTS module.
    public var engine: SearchEngine
    /// `tokenize=`, when the mapping names one; the engine's default otherwise.
    public var tokenizer: SearchTokenizer?
    /// `sync: triggers`: the external-content triggers that keep the index in step with writes
    /// to the content table.
    public var triggers: Bool
    /// Where `search:` is written.
    public var location: SourceLocation

    /// The FTS table of the entity whose table is `table`.
    public static func tableName(for table: String) -> String { table + "_search" }

    /// The attribute types a search field may have: those stored as text.
    public static let textTypes: [AttributeType] = [.string, .url, .uuid]
}

/// The FTS module of a search table.
public enum SearchEngine: String, Sendable, Hashable, CaseIterable {
    case fts5
    case fts4

    /// The first SQLite release with this module and external content tables, which seeder's
    /// search tables are (docs/mapping.md, Compatibility).
    public var introduced: SQLiteVersion {
        switch self {
        case .fts5: return SQLiteVersion(3, 9, 0)
        case .fts4: return SQLiteVersion(3, 7, 9)
        }
    }

    /// Shadow-table suffixes the module creates beside a table `x` (`x_data`, ...), which hold
    /// the index rather than records (docs/commands.md, inspect).
    public static let shadowSuffixes = ["data", "idx", "content", "docsize", "config", "segments", "segdir", "stat"]

    /// The column names the module keeps for itself, beside the table's own name.
    var reservedColumns: [String] {
        switch self {
        case .fts5: return ["rank", "rowid"]
        case .fts4: return ["docid", "rowid", "oid", "_rowid_", "languageid"]
        }
    }
}
