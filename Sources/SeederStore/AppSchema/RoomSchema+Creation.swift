import GRDB
import SeederFiles

extension RoomSchema {
    /// The statements that create the schema in an empty database, in Room's order
    /// (room-migration's `DatabaseBundle.buildCreateQueries`, the same list the generated
    /// `createAllTables` runs in `RoomConnectionManager.onCreate`): each entity's `CREATE TABLE`
    /// then its indices' `CREATE INDEX`, or for an FTS entity its `CREATE VIRTUAL TABLE` then its
    /// content sync triggers; an FTS entity after its external content table; then each view's
    /// `CREATE VIEW`; then `setupQueries` (`room_master_table` and the identity hash).
    package var createStatements: [String] {
        var statements: [String] = []
        for entity in entitiesInCreationOrder {
            statements.append(entity.createTableSQL)
            if let fts = entity.fts {
                statements += fts.contentSyncTriggers
            } else {
                statements += entity.indices.map { RoomSchema.replacingTableName(in: $0.createSql, with: entity.tableName) }
            }
        }
        statements += views.map(\.createViewSQL)
        statements += setupQueries
        return statements
    }

    /// Creates the schema in `db`, an empty database, as Room does on a device: the
    /// `createStatements`, then `PRAGMA user_version = version`, which Room reads to know the
    /// database is created and at which version (`RoomConnectionManager.configureConnection`).
    ///
    /// ```swift
    /// try dbQueue.write { db in try schema.createDatabase(db) }
    /// ```
    ///
    /// The statements run where they can do no more than that (`RoomSQLSandbox`), and `db` is
    /// given a copy of the database they made.
    package func createDatabase(_ db: Database) throws {
        try RawSQLite.deserialize(try createdDatabase(), into: db)
    }

    /// The bytes of the database the schema's statements create (`createDatabase`).
    func createdDatabase() throws(RoomSQLSandbox.Refusal) -> [UInt8] {
        try RoomSQLSandbox.database(running: createStatements, userVersion: version)
    }

    /// The entities in file order, except that an FTS entity with external content comes after
    /// the entity whose table holds it: its content sync triggers are created on that table.
    ///
    /// Room sorts with `FtsEntityCreateComparator`, which only orders such pairs, through
    /// Kotlin's stable `sortedWith`; moving each such FTS entity to just after its content table
    /// gives the same pairs the same order, and leaves the rest in file order as that sort does
    /// for this comparator. The order decides no more than whether each statement can run: the
    /// schema created is the same.
    var entitiesInCreationOrder: [Entity] {
        var ordered = entities
        for entity in entities {
            guard let content = entity.fts?.ftsOptions.contentTable, !content.isEmpty,
                let ftsIndex = ordered.firstIndex(of: entity),
                let contentIndex = ordered.firstIndex(where: { $0.tableName == content }),
                contentIndex > ftsIndex
            else { continue }
            ordered.remove(at: ftsIndex)
            ordered.insert(entity, at: contentIndex)
        }
        return ordered
    }
}
