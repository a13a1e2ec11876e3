import Foundation
import GRDBSQLite

/// Where the SQL of Room's exported schema runs: a connection of its own, in memory, that lets
/// through only what creating Room's schema takes (docs/trust.md).
///
/// The schema file is a file of the app's repository, changed by pull requests like any other:
/// its `createSql` and `setupQueries` are data, not code seeder trusts. Run as they are, one
/// could attach a file and write to it, `VACUUM INTO` anywhere, leave a transaction open, or
/// loop for ever. Here each is one statement that creates a table, an index, a view or a
/// trigger, or fills `room_master_table`; an authorizer refuses every other action SQLite
/// reports (attaching, pragmas but the page size FTS reads, transactions, temporary objects,
/// recursive queries, writes to other tables), a progress handler stops a statement after
/// `maximumSteps` of SQLite's instructions, and no value may pass 1 MiB.
enum RoomSQLSandbox {
    /// A statement seeder does not run, or that failed.
    struct Refusal: Error, CustomStringConvertible {
        /// The statement, shortened.
        var statement: String
        var reason: String
        var description: String { "\(statement): \(reason)" }
    }

    /// SQLite's virtual machine instructions a statement may run: creating a schema takes a few
    /// thousand; a query that loops is stopped within a second.
    static let maximumSteps = 20_000_000

    /// The bytes of an empty database in which `statements` ran, in order, then
    /// `PRAGMA user_version = userVersion`.
    static func database(running statements: [String], userVersion: Int) throws(Refusal) -> [UInt8] {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(":memory:", &handle, flags, nil) == SQLITE_OK, let connection = handle else {
            sqlite3_close_v2(handle)
            throw Refusal(statement: "", reason: "SQLite cannot open a database in memory")
        }
        defer { sqlite3_close_v2(connection) }
        let watch = Watch()
        let context = Unmanaged.passUnretained(watch).toOpaque()
        sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, 1 << 20)
        sqlite3_limit(connection, SQLITE_LIMIT_SQL_LENGTH, 1 << 20)
        sqlite3_limit(connection, SQLITE_LIMIT_ATTACHED, 0)
        sqlite3_set_authorizer(connection, authorize, context)
        sqlite3_progress_handler(connection, 1000, progress, context)
        for statement in statements {
            try run(statement, on: connection, watch: watch)
        }
        // seeder's own statement, as Room sets the version it created.
        sqlite3_set_authorizer(connection, nil, nil)
        try run("PRAGMA user_version = \(userVersion)", on: connection, watch: watch, own: true)
        var size: Int64 = 0
        guard let data = sqlite3_serialize(connection, "main", &size, 0) else {
            throw Refusal(statement: "", reason: "SQLite cannot copy the database it made")
        }
        defer { sqlite3_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: Int(size)))
    }

    /// What the authorizer and the progress handler learn while a statement runs.
    private final class Watch {
        var refused: String?
        var steps = 0
    }

    private static func run(_ statement: String, on connection: OpaquePointer, watch: Watch, own: Bool = false) throws(Refusal) {
        let shown = statement.count > 80 ? String(statement.prefix(77)) + "..." : statement
        // VACUUM INTO writes a file, and SQLite's authorizer is not asked about it.
        let first = statement.uppercased().split(whereSeparator: { $0.isWhitespace || $0 == "(" }).first
        guard own || first == "CREATE" || first == "INSERT" else {
            throw Refusal(
                statement: shown, reason: "Room's schema only creates tables, indexes, views and triggers, and fills room_master_table")
        }
        watch.refused = nil
        watch.steps = 0
        var prepared: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = statement.withCString { sqlite3_prepare_v2(connection, $0, -1, &prepared, &tail) }
        defer { sqlite3_finalize(prepared) }
        guard code == SQLITE_OK, let prepared else { throw refusal(shown, connection, watch) }
        if let tail, !String(cString: tail).allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            throw Refusal(statement: shown, reason: "it holds more than one statement")
        }
        var step = sqlite3_step(prepared)
        while step == SQLITE_ROW { step = sqlite3_step(prepared) }
        guard step == SQLITE_DONE else { throw refusal(shown, connection, watch) }
    }

    private static func refusal(_ shown: String, _ connection: OpaquePointer, _ watch: Watch) -> Refusal {
        if let refused = watch.refused { return Refusal(statement: shown, reason: "seeder does not run it: \(refused)") }
        if watch.steps * 1000 >= maximumSteps {
            return Refusal(statement: shown, reason: "it ran past \(maximumSteps) of SQLite's steps, and was stopped")
        }
        return Refusal(statement: shown, reason: String(cString: sqlite3_errmsg(connection)))
    }

    private static let authorize:
        @convention(c) (
            UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?
        ) -> Int32 = { context, action, first, second, _, _ in
            let name = first.map { String(cString: $0) }?.lowercased()
            let allowed: Bool
            let what: String
            switch action {
            case SQLITE_CREATE_TABLE, SQLITE_CREATE_INDEX, SQLITE_CREATE_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VTABLE,
                SQLITE_READ, SQLITE_SELECT, SQLITE_FUNCTION, SQLITE_REINDEX:
                (allowed, what) = (true, "")
            case SQLITE_INSERT, SQLITE_UPDATE:
                // Creating a table writes SQLite's own tables (sqlite_master, sqlite_sequence),
                // which no statement may write but SQLite; Room's row is its identity hash.
                allowed = name?.hasPrefix("sqlite_") == true || action == SQLITE_INSERT && name == "room_master_table"
                what = "it writes to table \(name ?? "")"
            case SQLITE_PRAGMA:
                // FTS reads the page size when it creates its tables; no pragma is set.
                allowed = name == "page_size" && second == nil
                what = "it runs PRAGMA \(name ?? "")"
            case SQLITE_ATTACH: (allowed, what) = (false, "it attaches a database")
            case SQLITE_TRANSACTION, SQLITE_SAVEPOINT: (allowed, what) = (false, "it begins or ends a transaction")
            case SQLITE_RECURSIVE: (allowed, what) = (false, "it is a recursive query")
            case SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TEMP_TRIGGER:
                (allowed, what) = (false, "it creates a temporary object, which the seed would not hold")
            default: (allowed, what) = (false, "it does more than create Room's schema (SQLite's action \(action))")
            }
            if !allowed, let context {
                Unmanaged<Watch>.fromOpaque(context).takeUnretainedValue().refused = what
            }
            return allowed ? SQLITE_OK : SQLITE_DENY
        }

    private static let progress: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
        guard let context else { return 1 }
        let watch = Unmanaged<Watch>.fromOpaque(context).takeUnretainedValue()
        watch.steps += 1
        return watch.steps * 1000 >= maximumSteps ? 1 : 0
    }
}
