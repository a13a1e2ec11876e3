import GRDB

/// How every connection that writes a file of the build is set up, in one place: no syncs (the
/// finished file is synced once, beside its checks: `SeedChecks.check`), 16 MiB of cache (the
/// load's, which keeps a build within its memory target and the app's indexes in step row by
/// row: bench/README.md), foreign keys off (seeder checks references itself), and the journal
/// the file's failure calls for.
enum WritingConnection {
    /// What a failed write leaves to undo.
    enum Journal: String {
        /// Nothing: the file is a temporary one that a failure removes.
        case off = "OFF"
        /// A transaction rolled back in memory: a copy filled in one, with no journal file beside
        /// it for a killed build to leave behind.
        case memory = "MEMORY"
    }

    static let cacheKiB = 16384

    /// The connection's configuration, `prepare`d for `main` with `journal` (and `pageSize`);
    /// `attach` then runs on each new connection (attaching and tuning another schema).
    static func configuration(
        journal: Journal, pageSize: Int? = nil, attach: @escaping @Sendable (Database) throws -> Void = { _ in }
    ) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.journalMode = .default
        // A failed build leaves its transaction open: with the journal off there is nothing to
        // roll back to, and its files go.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            try prepare(db, journal: journal, pageSize: pageSize)
            try attach(db)
        }
        return configuration
    }

    /// Sets the schema `schema` of `db` up as above; `pageSize` first, for a file not yet
    /// written.
    static func prepare(_ db: Database, schema: String = "main", journal: Journal, pageSize: Int? = nil) throws {
        let qualified = "PRAGMA \(SQLText.quote(schema))."
        if let pageSize { try db.execute(sql: qualified + "page_size = \(pageSize)") }
        try db.execute(sql: qualified + "journal_mode = \(journal.rawValue)")
        try db.execute(sql: qualified + "synchronous = OFF")
        try db.execute(sql: qualified + "cache_size = -\(cacheKiB)")
    }
}
