import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the update at `iterator`, a changeset iterator on a change of `columns` columns, sets
/// every column it names to the value it had: `seeder diff --changeset` writes such updates of
/// `seed_metadata` to pin the seed a changeset starts from (docs/commands.md, The changeset).
/// They are checked like any update when applied, but change nothing, and no count includes them.
package func isNoOpUpdate(_ iterator: OpaquePointer?, columns: Int32) -> Bool {
    (0..<columns).allSatisfy { column in
        var old: OpaquePointer?, new: OpaquePointer?
        guard sqlite3changeset_new(iterator, column, &new) == SQLITE_OK, let new else { return true }
        guard sqlite3changeset_old(iterator, column, &old) == SQLITE_OK, let old else { return false }
        let type = sqlite3_value_type(old)
        guard type == sqlite3_value_type(new) else { return false }
        switch type {
        case SQLITE_INTEGER: return sqlite3_value_int64(old) == sqlite3_value_int64(new)
        case SQLITE_FLOAT: return sqlite3_value_double(old).bitPattern == sqlite3_value_double(new).bitPattern
        case SQLITE_NULL: return true
        default:
            let count = sqlite3_value_bytes(old)
            guard count == sqlite3_value_bytes(new) else { return false }
            return count == 0 || memcmp(sqlite3_value_blob(old), sqlite3_value_blob(new), Int(count)) == 0
        }
    }
}
