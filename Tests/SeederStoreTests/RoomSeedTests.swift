import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// `schema: { room }` end to end (docs/mapping.md, Fitting the app's own schema): the seed is the
/// database Room makes from its exported schema, filled, and passes the checks Room runs when it
/// opens a prepackaged database.
struct RoomSeedTests {
    static let mapping = """
        seeder: 1
        schema: { room: schemas/music.json }
        entities:
          Album:
            identity: title
            attributes:
              title: string
              year: integer
            relationships:
              songs: { to: Song, many: true, inverse: album }
          Song:
            identity: title
            attributes:
              title: string
              duration: { type: integer, required: true }
              plays: integer
            relationships:
              album: { to: Album, required: true }
        sources:
          - { path: albums.json, entity: Album }
        """

    static let albums = """
        [{"title": "Hejira", "year": 1976, "songs": [{"title": "Coyote", "duration": 301}]},
         {"title": "Blue", "year": 1971, "songs": [{"title": "River", "duration": 240, "plays": 3}, {"title": "Carey", "duration": 180, "plays": 5}]}]
        """

    static func workspace(schema: String = RoomSchemaFixture.music, mapping: String = Self.mapping) throws -> Workspace {
        let workspace = try Workspace.withDumps()
        try workspace.write("schemas/music.json", schema)
        try workspace.write("mapping.yaml", mapping)
        try workspace.write("dumps/albums.json", albums)
        return workspace
    }

    /// Rows in Room's tables with Room's generated ids, the FTS table filled from its content,
    /// the view answering, the identity hash and version Room checks, and no difference Room's
    /// `TableInfo`, `FtsTableInfo` or `ViewInfo` would find.
    @Test func fillsTheDatabaseRoomMakesAndRoomWouldOpenIt() throws {
        let workspace = try Self.workspace()
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(
            try workspace.rows("SELECT * FROM Album ORDER BY id") == [
                #"[id:1 title:"Hejira" year:1976]"#, #"[id:2 title:"Blue" year:1971]"#,
            ])
        // Song's plays is NOT NULL DEFAULT 0: a song without plays takes the default.
        #expect(
            try workspace.rows("SELECT * FROM Song ORDER BY id") == [
                #"[id:1 albumId:1 title:"Coyote" duration:301 plays:0]"#, #"[id:2 albumId:2 title:"River" duration:240 plays:3]"#,
                #"[id:3 albumId:2 title:"Carey" duration:180 plays:5]"#,
            ])
        #expect(try workspace.rows("SELECT docid, title FROM SongFts WHERE SongFts MATCH 'river'") == [#"[docid:2 title:"River"]"#])
        #expect(try workspace.rows("SELECT * FROM AlbumSummary ORDER BY id").count == 2)
        #expect(try workspace.rows("SELECT * FROM room_master_table") == [#"[id:42 identity_hash:"6f1c2a9e4d8b7c3a5e0f9d2b1a4c7e8f"]"#])
        let room = try RoomSchema(json: Array(RoomSchemaFixture.music.utf8), path: "music.json")
        let queue = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        let (differences, version, application, integrity) = try queue.read { db in
            (
                try room.differences(in: db).map(\.description), try Int.fetchOne(db, sql: "PRAGMA user_version"),
                try Int.fetchOne(db, sql: "PRAGMA application_id"), try String.fetchAll(db, sql: "PRAGMA integrity_check")
            )
        }
        #expect(differences == [])
        #expect(version == 3 && application == 0x5345_4544 && integrity == ["ok"])
    }

    /// A schema whose `createSql` and fields disagree is one Room rejects on the device: every
    /// difference is an error at the mapping's `room:` node, before any dump is read.
    @Test func aSchemaRoomWouldRejectIsReportedBeforeAnyRow() throws {
        let broken = RoomSchemaFixture.music.replacingOccurrences(
            of: "`duration` INTEGER NOT NULL,", with: "`duration` TEXT,")
        let workspace = try Self.workspace(schema: broken)
        let report = workspace.build()
        #expect(report.outcome == .invalid)
        let prefix =
            "mapping.yaml:2:17: error: Room would reject the database made from 'schemas/music.json': table 'Song': column 'duration': "
        #expect(
            report.messages(workspace) == [
                prefix + "Room expects NOT NULL, the seed allows NULL",
                prefix + "Room expects affinity INTEGER (declared type 'INTEGER'), the seed has TEXT (declared type 'TEXT')",
            ])
        #expect(!FileManager.default.fileExists(atPath: workspace.path("seed.sqlite")))
    }

    /// A JSON error in the schema names its place in the schema file, at the mapping's node.
    @Test func aSchemaThatIsNotRoomsIsAnErrorAtTheNode() throws {
        let workspace = try Self.workspace(schema: #"{"formatVersion": 2, "database": {}}"#)
        let report = workspace.build()
        #expect(report.outcome == .invalid)
        #expect(
            report.messages(workspace) == [
                "mapping.yaml:2:17: error: Room's exported schema schemas/music.json:1:19: formatVersion is 2: seeder reads Room's schema format 1"
            ])
    }
}
