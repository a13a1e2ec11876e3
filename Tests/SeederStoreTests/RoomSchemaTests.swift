import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// `schema: { room: FILE }`: reading Room's exported schema, creating it, and checking a database
/// the way Room checks it when it opens it.
struct RoomSchemaTests {
    static let music = RoomSchemaFixture.music
    static let hash = RoomSchemaFixture.hash

    static func schema(_ json: String = music) throws -> RoomSchema {
        try RoomSchema(json: Array(json.utf8), path: "room.json")
    }

    /// The fixture with `old`, which must occur exactly once, replaced by `new`.
    static func edited(_ old: String, _ new: String, in json: String = music) throws -> String {
        try #require(json.components(separatedBy: old).count == 2, "'\(old)' must occur once in the fixture")
        return json.replacingOccurrences(of: old, with: new)
    }

    /// What the fixture's schema finds in a database created from `created` (the fixture, or an
    /// edit of it), after `sql` has run on it.
    static func differences(createdFrom created: String = music, then sql: [String] = []) throws -> [String] {
        let queue = try DatabaseQueue()
        let expected = try schema()
        return try queue.writeWithoutTransaction { db in
            try schema(created).createDatabase(db)
            for statement in sql { try db.execute(sql: statement) }
            return try expected.differences(in: db).map(\.message)
        }
    }

    // MARK: Load, create, check

    @Test func aCreatedSchemaHasNoDifferences() throws {
        let workspace = try Workspace(directories: ["schemas/com.example.music.MusicDatabase"])
        try workspace.write("schemas/com.example.music.MusicDatabase/3.json", Self.music)
        let schema = try RoomSchema.load(path: workspace.path("schemas/com.example.music.MusicDatabase/3.json"))
        let queue = try DatabaseQueue()
        let differences = try queue.write { db in
            try schema.createDatabase(db)
            // A filled seed: rows in every table; the FTS index filled by its triggers.
            try db.execute(sql: "INSERT INTO Album (title, year) VALUES ('Blue', 1971)")
            try db.execute(sql: "INSERT INTO Song (albumId, title, duration) VALUES (1, 'River', 240)")
            return try schema.differences(in: db)
        }
        #expect(differences == [])
        let (matches, version) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM SongFts WHERE SongFts MATCH 'river'"),
                try Int.fetchOne(db, sql: "PRAGMA user_version")
            )
        }
        #expect(matches == 1)
        #expect(version == 3)
    }

    @Test func readsEveryKeyOfTheExport() throws {
        let schema = try Self.schema()
        #expect(schema.formatVersion == 1)
        #expect(schema.version == 3)
        #expect(schema.identityHash == Self.hash)
        #expect(schema.entities.map(\.tableName) == ["Album", "SongFts", "Song"])
        let song = schema.entities[2]
        #expect(song.fields[0] == RoomSchema.Field(fieldPath: "songId", columnName: "id", affinity: "INTEGER", notNull: true))
        #expect(song.fields[4].defaultValue == "0")
        #expect(song.primaryKey == RoomSchema.PrimaryKey(columnNames: ["id"], autoGenerate: true))
        #expect(song.indices.map(\.name) == ["index_Song_albumId"])
        #expect(song.indices[0].orders == [])
        #expect(
            song.foreignKeys == [
                RoomSchema.ForeignKey(
                    table: "Album", onDelete: "CASCADE", onUpdate: "NO ACTION", columns: ["albumId"], referencedColumns: ["id"])
            ])
        #expect(song.fts == nil)
        let fts = try #require(schema.entities[1].fts)
        #expect(fts.ftsVersion == "FTS4")
        #expect(fts.ftsOptions.contentTable == "Song")
        #expect(fts.contentSyncTriggers.count == 4)
        #expect(schema.views == [RoomSchema.View(viewName: "AlbumSummary", createSql: schema.views[0].createSql)])
        #expect(schema.setupQueries.count == 2)
    }

    @Test func passesOverKeysRoomMayAddAndFillsThoseOlderExportsLack() throws {
        var json = try Self.edited(#""formatVersion": 1,"#, #""formatVersion": 1, "generator": {"room": "2.9.0"},"#)
        // Before Room 2.1 there were no views; before 2.2 no `orders`; `notNull` came late in 1.0.
        json = try Self.edited(#""notNull": false"#, #""comment": "nullable""#, in: json)
        json = try Self.edited(
            """
            ,
                "views": [
                  {
                    "viewName": "AlbumSummary",
                    "createSql": "CREATE VIEW `${VIEW_NAME}` AS SELECT Album.id, Album.title, COUNT(Song.id) AS songCount FROM Album LEFT JOIN Song ON Song.albumId = Album.id GROUP BY Album.id"
                  }
                ]
            """, "", in: json)
        let schema = try Self.schema(json)
        #expect(schema.entities[0].fields[2].notNull == false)
        #expect(schema.views == [])
    }

    @Test func createsInRoomsOrder() throws {
        let statements = try Self.schema().createStatements.map { String($0.prefix(70)) }
        #expect(
            statements == [
                "CREATE TABLE IF NOT EXISTS `Album` (`id` INTEGER PRIMARY KEY AUTOINCRE",
                "CREATE UNIQUE INDEX IF NOT EXISTS `index_Album_title` ON `Album` (`tit",
                "CREATE TABLE IF NOT EXISTS `Song` (`id` INTEGER PRIMARY KEY AUTOINCREM",
                "CREATE INDEX IF NOT EXISTS `index_Song_albumId` ON `Song` (`albumId`)",
                "CREATE VIRTUAL TABLE IF NOT EXISTS `SongFts` USING FTS4(`title` TEXT N",
                "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_SongFts_BEFORE_UPDA",
                "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_SongFts_BEFORE_DELE",
                "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_SongFts_AFTER_UPDAT",
                "CREATE TRIGGER IF NOT EXISTS room_fts_content_sync_SongFts_AFTER_INSER",
                "CREATE VIEW `AlbumSummary` AS SELECT Album.id, Album.title, COUNT(Song",
                "CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,i",
                "INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42,",
            ])
    }

    // MARK: Columns (TableInfo.Column.equals)

    @Test func affinity() throws {
        let found = try Self.differences(createdFrom: Self.edited("`duration` INTEGER NOT NULL", "`duration` TEXT NOT NULL"))
        #expect(
            found == [
                "table 'Song': column 'duration': Room expects affinity INTEGER (declared type 'INTEGER'), the seed has TEXT (declared type 'TEXT')"
            ])
    }

    /// Room compares affinities by its `findAffinity`, not the declared types: `BIGINT` is
    /// INTEGER; `NUMERIC` matches no rule (UNDEFINED, where SQLite would say NUMERIC).
    @Test func affinityIsRoomsNotTheDeclaredType() throws {
        #expect(try Self.differences(createdFrom: Self.edited("`duration` INTEGER NOT NULL", "`duration` BIGINT NOT NULL")) == [])
        let found = try Self.differences(createdFrom: Self.edited("`duration` INTEGER NOT NULL", "`duration` NUMERIC NOT NULL"))
        #expect(
            found == [
                "table 'Song': column 'duration': Room expects affinity INTEGER (declared type 'INTEGER'), the seed has UNDEFINED (declared type 'NUMERIC')"
            ])
        #expect(RoomAffinity(declaredType: "VARCHAR(20)") == .text)
        #expect(RoomAffinity(declaredType: "DOUBLE PRECISION") == .real)
        #expect(RoomAffinity(declaredType: "") == .undefined)
        #expect(RoomAffinity(declaredType: nil) == .blob)
    }

    @Test func notNull() throws {
        let found = try Self.differences(createdFrom: Self.edited("`title` TEXT NOT NULL, `duration`", "`title` TEXT, `duration`"))
        #expect(found == ["table 'Song': column 'title': Room expects NOT NULL, the seed allows NULL"])
    }

    @Test func primaryKeyPosition() throws {
        let found = try Self.differences(
            createdFrom: Self.edited("`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `albumId`", "`id` INTEGER NOT NULL, `albumId`"))
        #expect(
            found == [
                "table 'Song': column 'id': Room expects it at position 1 of the primary key, the seed has it outside the primary key"
            ])
    }

    /// Positions, not just membership, as Android 5 and later compare them.
    @Test func primaryKeyOrder() throws {
        var json = try Self.edited("`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `albumId`", "`id` INTEGER NOT NULL, `albumId`")
        json = try Self.edited("ON DELETE CASCADE )", "ON DELETE CASCADE , PRIMARY KEY(`albumId`, `id`))", in: json)
        #expect(
            try Self.differences(createdFrom: json) == [
                "table 'Song': column 'id': Room expects it at position 1 of the primary key, the seed has it at position 2 of the primary key",
                "table 'Song': column 'albumId': Room expects it outside the primary key, the seed has it at position 1 of the primary key",
            ])
    }

    @Test func missingColumn() throws {
        let found = try Self.differences(createdFrom: Self.edited(", `plays` INTEGER NOT NULL DEFAULT 0", ""))
        #expect(found == ["table 'Song': column 'plays' is missing from the seed"])
    }

    @Test func columnRoomDoesNotKnow() throws {
        let found = try Self.differences(createdFrom: Self.edited("`year` INTEGER)", "`year` INTEGER, `genre` TEXT)"))
        #expect(found == ["table 'Album': column 'genre' is in the seed but not in Room's schema"])
    }

    @Test func defaultValue() throws {
        let found = try Self.differences(createdFrom: Self.edited("DEFAULT 0,", "DEFAULT 1,"))
        #expect(found == ["table 'Song': column 'plays': Room expects DEFAULT 0, the seed has DEFAULT 1"])
        let none = try Self.differences(createdFrom: Self.edited(" DEFAULT 0,", ","))
        #expect(none == ["table 'Song': column 'plays': Room expects DEFAULT 0, the seed has no DEFAULT"])
    }

    /// A default Room's entity does not declare is not checked (b/136019383); one in redundant
    /// parentheses matches what SQLite stores without them (b/182284899).
    @Test func defaultValueRules() throws {
        #expect(try Self.differences(createdFrom: Self.edited("`year` INTEGER)", "`year` INTEGER DEFAULT 1970)")) == [])
        #expect(RoomTableInfo.defaultValue("(0)", matches: "0"))
        #expect(RoomTableInfo.defaultValue("( 'a' )", matches: "'a'"))
        #expect(!RoomTableInfo.defaultValue("0", matches: "(0)"))
        #expect(!RoomTableInfo.defaultValue("(1) + (2)", matches: "1) + (2"))
        #expect(!RoomTableInfo.defaultValue("0", matches: nil))
    }

    @Test func missingTable() throws {
        let found = try Self.differences(then: ["DROP VIEW AlbumSummary", "DROP TABLE Album"])
        #expect(found == ["table 'Album': the seed has no such table", "view 'AlbumSummary': the seed has no such view"])
    }

    // MARK: Foreign keys

    @Test func foreignKeyOnDelete() throws {
        let found = try Self.differences(createdFrom: Self.edited("ON DELETE CASCADE", "ON DELETE NO ACTION"))
        #expect(
            found == ["table 'Song': foreign key (albumId) -> Album(id): Room expects ON DELETE CASCADE, the seed has ON DELETE NO ACTION"])
    }

    @Test func foreignKeyMissing() throws {
        let found = try Self.differences(
            createdFrom: Self.edited(", FOREIGN KEY(`albumId`) REFERENCES `Album`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE )", ")"))
        #expect(
            found == ["table 'Song': foreign key (albumId) -> Album(id) ON DELETE CASCADE ON UPDATE NO ACTION is missing from the seed"])
    }

    // MARK: Indices (TableInfo.Index.equals)

    @Test func indexColumns() throws {
        let found = try Self.differences(createdFrom: Self.edited("(`albumId`)\"", "(`title`)\""))
        #expect(found == ["table 'Song': index 'index_Song_albumId': Room expects columns (albumId), the seed has (title)"])
        let more = try Self.differences(createdFrom: Self.edited("(`albumId`)\"", "(`albumId`, `title`)\""))
        #expect(more == ["table 'Song': index 'index_Song_albumId': Room expects columns (albumId), the seed has (albumId, title)"])
    }

    @Test func indexOrders() throws {
        let found = try Self.differences(createdFrom: Self.edited("(`albumId`)\"", "(`albumId` DESC)\""))
        #expect(found == ["table 'Song': index 'index_Song_albumId': Room expects orders (ASC), the seed has (DESC)"])
    }

    @Test func indexUnique() throws {
        let found = try Self.differences(
            createdFrom: Self.edited(
                "CREATE INDEX IF NOT EXISTS `index_Song_albumId`", "CREATE UNIQUE INDEX IF NOT EXISTS `index_Song_albumId`"))
        #expect(found == ["table 'Song': index 'index_Song_albumId': Room expects an index that is not unique, the seed's is unique"])
    }

    @Test func indexMissing() throws {
        let found = try Self.differences(then: ["DROP INDEX index_Album_title"])
        #expect(found == ["table 'Album': index 'index_Album_title' on (title) is missing from the seed"])
    }

    @Test func indexRoomDoesNotKnow() throws {
        let found = try Self.differences(then: ["CREATE INDEX by_year ON Album (year)"])
        #expect(found == ["table 'Album': index 'by_year' on (year) is in the seed but not in Room's schema"])
    }

    /// Room reads only indices made by CREATE INDEX (origin `c`), not those SQLite makes for a
    /// UNIQUE or PRIMARY KEY constraint; any two names with Room's `index_` prefix match.
    @Test func indexRulesOfRoom() throws {
        #expect(try Self.differences(createdFrom: Self.edited("`year` INTEGER)", "`year` INTEGER, UNIQUE (`year`))")) == [])
        #expect(try Self.differences(createdFrom: Self.edited("`index_Song_albumId` ON", "`index_Song_by_album` ON")) == [])
        let renamed = try Self.differences(createdFrom: Self.edited("`index_Song_albumId` ON", "`song_album` ON"))
        #expect(
            renamed == [
                "table 'Song': index 'index_Song_albumId' on (albumId) is missing from the seed",
                "table 'Song': index 'song_album' on (albumId) is in the seed but not in Room's schema",
            ])
    }

    // MARK: FTS tables (FtsTableInfo)

    @Test func ftsOptionMissing() throws {
        let found = try Self.differences(createdFrom: Self.edited(", content=`Song`)", ")"))
        #expect(found == ["FTS table 'SongFts': Room expects the option content=`Song`, the seed's table does not have it"])
    }

    @Test func ftsOptionDiffers() throws {
        let found = try Self.differences(createdFrom: Self.edited(", content=`Song`)", ", content=\\\"Song\\\")"))
        #expect(found == ["FTS table 'SongFts': Room expects the option content=`Song`, the seed has content=\"Song\""])
        let extra = try Self.differences(createdFrom: Self.edited(", content=`Song`)", ", content=`Song`, tokenize=porter)"))
        #expect(extra == ["FTS table 'SongFts': the seed's table has the option tokenize=porter, which Room's schema does not"])
    }

    /// The `rowid` key is hidden, so not among the columns Room expects.
    @Test func ftsColumns() throws {
        let found = try Self.differences(then: [
            "DROP TABLE SongFts", "CREATE VIRTUAL TABLE SongFts USING FTS4(`name` TEXT, content=`Song`)",
        ])
        #expect(
            found == [
                "FTS table 'SongFts': column 'title' is missing from the seed",
                "FTS table 'SongFts': column 'name' is in the seed but not in Room's schema",
            ])
    }

    @Test func ftsOptionsAreParsedAsRoomDoes() {
        #expect(
            RoomFTSTableInfo.options(
                of: "CREATE VIRTUAL TABLE t USING FTS4(`a,b` TEXT, 'x,y', tokenize=unicode61 \"tokenchars=,\", prefix=2)")
                == ["tokenize=unicode61 \"tokenchars=,\"", "prefix=2"])
        #expect(RoomFTSTableInfo.options(of: "") == [])
    }

    // MARK: Views (ViewInfo), identity, version

    @Test func viewSQL() throws {
        let found = try Self.differences(createdFrom: Self.edited("GROUP BY Album.id\"", "GROUP BY Album.title\""))
        #expect(
            found == [
                "view 'AlbumSummary': Room expects the SQL \"CREATE VIEW `AlbumSummary` AS SELECT Album.id, Album.title, COUNT(Song.id) AS songCount FROM Album LEFT JOIN Song ON Song.albumId = Album.id GROUP BY Album.id\", the seed has \"CREATE VIEW `AlbumSummary` AS SELECT Album.id, Album.title, COUNT(Song.id) AS songCount FROM Album LEFT JOIN Song ON Song.albumId = Album.id GROUP BY Album.title\""
            ])
    }

    @Test func identityHash() throws {
        let found = try Self.differences(then: ["UPDATE room_master_table SET identity_hash = '0123'"])
        #expect(found == ["room_master_table: Room expects the identity hash '\(Self.hash)', the seed has '0123'"])
        let noRow = try Self.differences(then: ["DELETE FROM room_master_table"])
        #expect(
            noRow == ["room_master_table: Room expects the identity hash '\(Self.hash)' in the row with id 42, the seed has no such row"])
        let noTable = try Self.differences(then: ["DROP TABLE room_master_table"])
        #expect(noTable == ["room_master_table: the seed has no such table; Room expects it to hold the identity hash '\(Self.hash)'"])
        // A schema file's setupQueries may store anything: a number is a difference, not a trap.
        let blob = try Self.differences(then: ["UPDATE room_master_table SET identity_hash = x'00ff'"])
        #expect(blob == ["room_master_table: Room expects the identity hash '\(Self.hash)', the seed has a value that is not text"])
        let null = try Self.differences(then: ["UPDATE room_master_table SET identity_hash = NULL"])
        #expect(null == ["room_master_table: Room expects the identity hash '\(Self.hash)', the seed has NULL"])
    }

    @Test func userVersion() throws {
        let found = try Self.differences(then: ["PRAGMA user_version = 2"])
        #expect(found == ["user_version: Room expects 3 (the schema's database.version), the seed has 2"])
    }

    // MARK: Load errors

    struct LoadError: Sendable, CustomTestStringConvertible {
        let edit: @Sendable () throws -> String
        let message: String
        var testDescription: String { message }
    }

    static let songIdField = """
        CASCADE )",
                "fields": [
                  {
                    "fieldPath": "songId",
                    "columnName": "id",
                    "affinity": "INTEGER",
        """

    static let loadErrors: [LoadError] = [
        LoadError(
            edit: { "{\n  \"formatVersion\": 1,\n  \"database\": }" },
            message: "room.json:3:15: not valid JSON: unexpected '}', expected a value"),
        LoadError(edit: { "[]" }, message: "room.json:1:1: a Room schema is a JSON object, found an array"),
        LoadError(edit: { "{\"formatVersion\": 1}" }, message: "room.json:1:1: /database is missing"),
        LoadError(
            edit: { try edited(#""formatVersion": 1"#, #""formatVersion": 2"#) },
            message: "room.json:2:20: formatVersion is 2: seeder reads Room's schema format 1"),
        LoadError(
            edit: { try edited(#""version": 3"#, #""version": "3""#) },
            message: "room.json:4:16: /database/version must be an integer, found a string"),
        LoadError(
            edit: { try edited(songIdField, songIdField.replacingOccurrences(of: "\n            \"affinity\": \"INTEGER\",", with: "")) },
            message: "room.json:96:11: /database/entities/2/fields/0/affinity is missing"),
        LoadError(
            edit: { try edited(songIdField, songIdField.replacingOccurrences(of: "\"affinity\": \"INTEGER\"", with: "\"affinity\": 3")) },
            message: "room.json:99:25: /database/entities/2/fields/0/affinity must be a string, found the number 3"),
        LoadError(
            edit: { try edited(#""notNull": false"#, #""notNull": "false""#) },
            message: "room.json:27:24: /database/entities/0/fields/2/notNull must be true or false, found a string"),
        LoadError(
            edit: { try edited(#""ftsOptions": {"#, #""ftsOptions": null, "options": {"#) },
            message: "room.json:51:23: /database/entities/1/ftsOptions must be an object, found null"),
        LoadError(
            edit: { try edited(#""prefixSizes": [],"#, #""prefixSizes": [2.5],"#) },
            message: "room.json:58:27: /database/entities/1/ftsOptions/prefixSizes/0 must be an integer, found the number 2.5"),
        LoadError(
            edit: { try edited(#""entities": ["#, #""entities": "none", "x": ["#) },
            message: "room.json:6:17: /database/entities must be an array, found a string"),
    ]

    @Test(arguments: loadErrors) func loadError(_ error: LoadError) throws {
        let json = try error.edit()
        #expect(throws: RoomSchemaError.self) { try Self.schema(json) }
        do {
            _ = try Self.schema(json)
        } catch let failure as RoomSchemaError {
            #expect(failure.description == error.message)
        }
    }

    @Test func loadNamesAFileItCannotRead() throws {
        let workspace = try Workspace()
        let path = workspace.path("absent.json")
        #expect(throws: RoomSchemaError(path: path, message: "cannot read the Room schema: No such file or directory")) {
            try RoomSchema.load(path: path)
        }
    }
}
