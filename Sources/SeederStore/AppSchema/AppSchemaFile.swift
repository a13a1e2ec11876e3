import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The app's empty database that `schema:` names (docs/mapping.md, Fitting the app's own schema),
/// read into memory: the file itself is never opened by SQLite, which could write beside it.
/// A template is taken as it is; Room's exported schema is made into the database Room would
/// create from it.
struct AppSchemaFile {
    /// The empty database's bytes, in rollback-journal mode.
    var bytes: [UInt8]
    /// Its schema.
    var schema: AppSchema
    var mode: SchemaFit.Mode
    /// Room's exported schema, for `schema: { room }`: the seed is checked against it as Room
    /// checks the database it opens.
    var room: RoomSchema?

    /// Reads `source`'s file at `path` (as the working directory sees it).
    init(_ source: SchemaSource, path: String) throws(AppSchemaError) {
        // Named as the working directory sees it, as dump files are.
        let shown = path
        var bytes: [UInt8]
        var room: RoomSchema?
        do {
            bytes = try FileByteSource(path: path).readAll(atMost: Self.sizeLimit)
        } catch {
            throw AppSchemaError(
                "cannot read \(source.kind == .room ? "Room's exported schema" : "the template") '\(shown)': \((error as? InputError)?.reason ?? "\(error)")",
                unreadable: true)
        }
        switch source.kind {
        case .template:
            try Self.checkTemplate(&bytes, shown: shown, path: path)
        case .room:
            let schema = try Self.roomSchema(bytes, shown: shown)
            bytes = try Self.roomDatabase(schema, shown: shown)
            room = schema
        }
        let schema = try Self.read(bytes, shown: shown)
        self.bytes = bytes
        self.schema = schema
        self.room = room
        mode = schema.coreData != nil ? .coreData : source.kind == .room ? .room : .template
    }

    /// The largest template or Room schema seeder reads, whole, into memory: 64 MiB (docs/mapping.md,
    /// Fitting the app's own schema). An app's empty database or exported schema is kilobytes.
    static let sizeLimit = 64 << 20

    private static func read(_ bytes: [UInt8], shown: String) throws(AppSchemaError) -> AppSchema {
        do {
            let queue = try DatabaseQueue()
            return try queue.inDatabase { db in
                try RawSQLite.deserialize(bytes, into: db)
                return try AppSchema.read(db)
            }
        } catch {
            throw AppSchemaError("the template '\(shown)' is not a SQLite database SQLite can read: \(Self.reason(error))")
        }
    }

    /// The header of an SQLite database file (SQLite's "Database File Format", 1.3).
    private static let header = Array("SQLite format 3\0".utf8)

    /// Checks that `bytes` are an SQLite database whose text is UTF-8, and that no `-wal` file
    /// beside it holds part of it, nor a hot `-journal` a transaction that never committed (docs/seed.md, Journals),
    /// then marks the copy as in rollback-journal mode (header bytes 18 and 19).
    private static func checkTemplate(_ bytes: inout [UInt8], shown: String, path: String) throws(AppSchemaError) {
        guard bytes.count >= 100, Array(bytes[0..<16]) == header else {
            let what = bytes.isEmpty ? "the file is empty" : "it does not begin with SQLite's header"
            throw AppSchemaError("the template '\(shown)' is not a SQLite database: \(what)")
        }
        // Header bytes 56..59, big-endian: 1 is UTF-8 (0 on a database never written to). A seed
        // is built in UTF-8, and SQLite attaches no database of another encoding to it.
        let encoding = bytes[56..<60].reduce(0) { $0 << 8 | Int($1) }
        guard encoding <= 1 else {
            let name = [2: "UTF-16le", 3: "UTF-16be"][encoding] ?? "encoding \(encoding), which SQLite does not know"
            throw AppSchemaError(
                "the template '\(shown)' stores its text as \(name); seeder builds seeds in UTF-8, SQLite's default: "
                    + "make the template with PRAGMA encoding = 'UTF-8'")
        }
        if bytes[18] == 2, PathStatus.walHoldsTransactions(path) {
            throw AppSchemaError(
                "the template '\(shown)' is in WAL mode and '\(shown)-wal' beside it holds part of it: checkpoint it "
                    + "(PRAGMA wal_checkpoint(TRUNCATE), or close every connection to it), or make it with journal_mode=DELETE")
        }
        if bytes[18] == 1, let journal = RollbackJournal.hotJournal(beside: path) {
            throw AppSchemaError("the template '\(shown)': \(RollbackJournal.refusal(journal))")
        }
        bytes[18] = 1
        bytes[19] = 1
    }

    /// Room's exported schema in `bytes`.
    private static func roomSchema(_ bytes: [UInt8], shown: String) throws(AppSchemaError) -> RoomSchema {
        do {
            return try RoomSchema(json: bytes, path: shown)
        } catch {
            throw AppSchemaError("Room's exported schema \(error)")
        }
    }

    /// The database Room creates from `room`, checked as Room checks a database it opens
    /// (`RoomSchema.differences`): a difference here is one between the schema's `createSql`
    /// and its fields, which Room would reject on the device.
    private static func roomDatabase(_ room: RoomSchema, shown: String) throws(AppSchemaError) -> [UInt8] {
        let differences: [RoomSchemaDifference]
        let bytes: [UInt8]
        do {
            bytes = try room.createdDatabase()
            let queue = try DatabaseQueue()
            differences = try queue.inDatabase { db in
                try RawSQLite.deserialize(bytes, into: db)
                return try room.differences(in: db)
            }
        } catch {
            throw AppSchemaError("Room's schema '\(shown)' cannot be created: \(Self.reason(error))")
        }
        guard differences.isEmpty else {
            throw AppSchemaError(messages: differences.map { "Room would reject the database made from '\(shown)': \($0)" })
        }
        return bytes
    }

    private static func reason(_ error: Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }
}

/// The app's schema file cannot be used; reported at the mapping's `schema:` node.
struct AppSchemaError: Error {
    /// One message per problem.
    var messages: [String]
    /// The file could not be read at all (an I/O failure, not bad content).
    var unreadable = false

    init(_ message: String, unreadable: Bool = false) {
        self.init(messages: [message], unreadable: unreadable)
    }

    init(messages: [String], unreadable: Bool = false) {
        self.messages = messages
        self.unreadable = unreadable
    }
}
