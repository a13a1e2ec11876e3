import Foundation
import GRDB
import SeederFiles
import SeederStore
import SeederTestSupport
import Testing

/// The examples fitted to an app's own schema (docs/mapping.md, Fitting the app's own schema): each
/// reads an existing example's dumps (`tasklist-grdb` reads `seeds/tasklist`) into the empty
/// database in `mappings/templates/` (or the one Room makes from `mappings/schemas/`), and is
/// built and checked as the other examples are.
extension ExampleTests {
    static let fittedExamples = ["tasklist-grdb", "catalog-coredata", "tasklist-room"]

    @Test(arguments: fittedExamples)
    func buildsTheFittedExample(_ name: String) async throws {
        let dumps = "seeds/" + name.prefix { $0 != "-" }
        let scratch = try Workspace()
        let output = scratch.root + "/\(name).sqlite"
        let run = try await seeder(
            ["build", "mappings/\(name).yaml", dumps, "-o", output], environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        let summary = run.stdout.replacingOccurrences(of: scratch.root + "/", with: "")
        let dump = try SeedDump.text(ofSeedAt: output, masking: ["sqlite_version"])
        try assertSnapshot("$ seeder build mappings/\(name).yaml \(dumps) -o \(name).sqlite\n\(summary)\n\(dump)", named: name)
        let (integrity, violations, journal) = try DatabaseQueue(path: output).read { db in
            (
                try String.fetchAll(db, sql: "PRAGMA integrity_check"), try Row.fetchAll(db, sql: "PRAGMA foreign_key_check"),
                try String.fetchOne(db, sql: "PRAGMA journal_mode")
            )
        }
        #expect(integrity == ["ok"])
        #expect(violations.isEmpty)
        #expect(journal == "delete")
    }

    /// The GRDB example: the server's ids where the app keeps them (`user.id`, `remoteId`), the
    /// app's own row numbers in source order where it numbers its rows, a to-one to such a table
    /// holding the row number, the order of a one-to-many in the app's column, the search table
    /// rebuilt from its content with the app's triggers left alone, and the migrator's
    /// bookkeeping and header kept.
    @Test func grdbExampleRows() async throws {
        let scratch = try Workspace()
        let output = scratch.root + "/tasklist-grdb.sqlite"
        let run = try await seeder(["build", "mappings/tasklist-grdb.yaml", "seeds/tasklist", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(
            run.stdout.replacingOccurrences(of: scratch.root + "/", with: "") == """
                entity   records  rows  merged  conflicts  references  dropped
                User           6     3       3          0           0        0
                Project        3     3       0          0           3        0
                Task           7     7       0          0          14        0
                wrote tasklist-grdb.sqlite

                """)
        let queue = try DatabaseQueue(path: output)
        func rows(_ sql: String) throws -> [String] { try queue.read { db in try Row.fetchAll(db, sql: sql).map(\.description) } }
        #expect(
            try rows("SELECT id, name, email FROM user ORDER BY id") == [
                #"[id:1 name:"Blake Watters" email:"blake@restkit.org"]"#, #"[id:2 name:"Jeff Arena" email:"jeff@restkit.org"]"#,
                #"[id:3 name:"Rachit Shukla" email:NULL]"#,
            ])
        #expect(
            try rows("SELECT id, remoteId, taskCount, userId FROM project ORDER BY id") == [
                "[id:1 remoteId:123 taskCount:4 userId:1]", "[id:2 remoteId:456 taskCount:3 userId:2]",
                "[id:3 remoteId:789 taskCount:0 userId:3]",
            ])
        #expect(
            try rows("SELECT id, remoteId, projectId, projectPosition, dueAt, completed, assignedUserId FROM task ORDER BY id") == [
                "[id:1 remoteId:1 projectId:1 projectPosition:0 dueAt:\"2011-07-10T16:51:03.000Z\" completed:1 assignedUserId:1]",
                "[id:2 remoteId:5 projectId:1 projectPosition:1 dueAt:\"2011-07-20T00:00:00.000Z\" completed:0 assignedUserId:2]",
                "[id:3 remoteId:6 projectId:1 projectPosition:2 dueAt:\"2011-07-21T12:00:00.000Z\" completed:0 assignedUserId:1]",
                "[id:4 remoteId:7 projectId:1 projectPosition:3 dueAt:NULL completed:0 assignedUserId:3]",
                "[id:5 remoteId:8 projectId:2 projectPosition:0 dueAt:NULL completed:1 assignedUserId:2]",
                "[id:6 remoteId:9 projectId:2 projectPosition:1 dueAt:NULL completed:0 assignedUserId:2]",
                "[id:7 remoteId:10 projectId:2 projectPosition:2 dueAt:NULL completed:0 assignedUserId:1]",
            ])
        // Filled once by 'rebuild', not once more by the app's triggers.
        #expect(
            try rows("SELECT rowid AS r, name FROM task_ft WHERE task_ft MATCH 'docs' ORDER BY rowid") == [
                #"[r:6 name:"Generate docs"]"#, #"[r:7 name:"Review docs for accuracy"]"#,
            ])
        #expect(try rows("SELECT count(*) AS n FROM task_ft_docsize") == ["[n:7]"])
        #expect(try rows("SELECT name, seq FROM sqlite_sequence ORDER BY name") == [#"[name:"project" seq:3]"#, #"[name:"task" seq:7]"#])
        #expect(try rows("SELECT identifier FROM grdb_migrations") == [#"[identifier:"v1"]"#])
        #expect(try rows("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").count == 3)
        let header = try await queue.read { db in
            [try Int.fetchOne(db, sql: "PRAGMA user_version"), try Int.fetchOne(db, sql: "PRAGMA application_id")]
        }
        #expect(header == [0, 0])
        // An app's Date decodes the stored ISO 8601 text.
        let due = try await queue.read { db in try Date.fetchOne(db, sql: "SELECT dueAt FROM task WHERE remoteId = 1") }
        #expect(due == Date(timeIntervalSince1970: 1_310_316_663))
    }

    /// The Core Data example: Z_PK numbered per entity in source order, Z_ENT from Z_PRIMARYKEY,
    /// Z_OPT 1, to-ones and the many-to-many's join table holding Z_PKs, dates in seconds since
    /// 2001, Z_PRIMARYKEY.Z_MAX the row counts, and the store's metadata kept byte for byte.
    @Test func coreDataExampleRows() async throws {
        let scratch = try Workspace()
        let output = scratch.root + "/catalog-coredata.sqlite"
        let run = try await seeder(["build", "mappings/catalog-coredata.yaml", "seeds/catalog", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        let queue = try DatabaseQueue(path: output)
        func rows(_ sql: String) throws -> [String] { try queue.read { db in try Row.fetchAll(db, sql: sql).map(\.description) } }
        #expect(
            try rows("SELECT Z_PK, Z_ENT, Z_OPT, ZREMOTEID, ZNAME FROM ZCATEGORY ORDER BY Z_PK") == [
                #"[Z_PK:1 Z_ENT:1 Z_OPT:1 ZREMOTEID:1 ZNAME:"Kitchen"]"#, #"[Z_PK:2 Z_ENT:1 Z_OPT:1 ZREMOTEID:2 ZNAME:"Garden"]"#,
            ])
        #expect(
            try rows(
                "SELECT Z_PK, Z_ENT, ZREMOTEID, ZCATEGORY, ZCREATEDAT, printf('%.2f', ZPRICE) AS ZPRICE, ZNAME FROM ZPRODUCT ORDER BY Z_PK")
                == [
                    #"[Z_PK:1 Z_ENT:3 ZREMOTEID:10 ZCATEGORY:1 ZCREATEDAT:332009463 ZPRICE:"89.90" ZNAME:"Chef\'s knife"]"#,
                    #"[Z_PK:2 Z_ENT:3 ZREMOTEID:11 ZCATEGORY:1 ZCREATEDAT:332096400 ZPRICE:"45.00" ZNAME:"Cutting board"]"#,
                    #"[Z_PK:3 Z_ENT:3 ZREMOTEID:12 ZCATEGORY:2 ZCREATEDAT:352279800 ZPRICE:"19.50" ZNAME:"Watering can"]"#,
                ])
        #expect(
            try rows("SELECT Z_PK, Z_ENT, ZREMOTEID, ZPRODUCT FROM ZIMAGE ORDER BY Z_PK") == [
                "[Z_PK:1 Z_ENT:2 ZREMOTEID:100 ZPRODUCT:1]", "[Z_PK:2 Z_ENT:2 ZREMOTEID:101 ZPRODUCT:1]",
                "[Z_PK:3 Z_ENT:2 ZREMOTEID:110 ZPRODUCT:2]",
            ])
        #expect(
            try rows("SELECT Z_PK, Z_ENT, ZREMOTEID, ZRATING, ZCREATEDAT FROM ZPRODUCTREVIEW ORDER BY Z_PK") == [
                "[Z_PK:1 Z_ENT:4 ZREMOTEID:1000 ZRATING:5 ZCREATEDAT:333918000]",
                "[Z_PK:2 Z_ENT:4 ZREMOTEID:1001 ZRATING:4 ZCREATEDAT:334028710]",
            ])
        // Review 1000 is of product 10; review 1001 of products 10 and 11.
        #expect(
            try rows("SELECT Z_3PRODUCTS, Z_4REVIEWS FROM Z_3REVIEWS ORDER BY Z_4REVIEWS, Z_3PRODUCTS") == [
                "[Z_3PRODUCTS:1 Z_4REVIEWS:1]", "[Z_3PRODUCTS:1 Z_4REVIEWS:2]", "[Z_3PRODUCTS:2 Z_4REVIEWS:2]",
            ])
        #expect(
            try rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                #"[Z_ENT:1 Z_NAME:"Category" Z_SUPER:0 Z_MAX:2]"#, #"[Z_ENT:2 Z_NAME:"Image" Z_SUPER:0 Z_MAX:3]"#,
                #"[Z_ENT:3 Z_NAME:"Product" Z_SUPER:0 Z_MAX:3]"#, #"[Z_ENT:4 Z_NAME:"ProductReview" Z_SUPER:0 Z_MAX:2]"#,
            ])
        // Core Data checks its model against Z_METADATA and Z_MODELCACHE: they are the template's.
        let metadata = "SELECT Z_VERSION, Z_UUID, Z_PLIST, (SELECT Z_CONTENT FROM Z_MODELCACHE) AS Z_CONTENT FROM Z_METADATA"
        var configuration = Configuration()
        configuration.readonly = true
        let template = try DatabaseQueue(path: repository + "/mappings/templates/catalog-coredata.sqlite", configuration: configuration)
        let kept = try template.read { db in try Row.fetchAll(db, sql: metadata) }
        #expect(try queue.read { db in try Row.fetchAll(db, sql: metadata) } == kept)
        await #expect(try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") } == 2)
    }

    /// The Room example (docs/guides/room.md): the database Room makes from its exported schema,
    /// with Room's header, the server's ids as the keys and the order of a one-to-many in its
    /// column.
    @Test func roomExampleRows() async throws {
        let scratch = try Workspace()
        let output = scratch.root + "/tasklist-room.sqlite"
        let run = try await seeder(["build", "mappings/tasklist-room.yaml", "seeds/tasklist", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        let queue = try DatabaseQueue(path: output)
        let header = try await queue.read { db in
            [try Int.fetchOne(db, sql: "PRAGMA user_version"), try Int.fetchOne(db, sql: "PRAGMA application_id")]
        }
        #expect(header == [3, 0x5345_4544])
        func rows(_ sql: String) throws -> [String] { try queue.read { db in try Row.fetchAll(db, sql: sql).map(\.description) } }
        #expect(
            try rows("SELECT id, project_id, project_position, due_at FROM tasks ORDER BY id") == [
                "[id:1 project_id:123 project_position:0 due_at:1310316663000]",
                "[id:5 project_id:123 project_position:1 due_at:1311120000000]",
                "[id:6 project_id:123 project_position:2 due_at:1311249600000]",
                "[id:7 project_id:123 project_position:3 due_at:NULL]", "[id:8 project_id:456 project_position:0 due_at:NULL]",
                "[id:9 project_id:456 project_position:1 due_at:NULL]", "[id:10 project_id:456 project_position:2 due_at:NULL]",
            ])
        #expect(
            try rows("SELECT id, identity_hash FROM room_master_table") == [#"[id:42 identity_hash:"8f3c2b6e41d95a07c1e4f7a2b9d06e53"]"#]
        )
    }
}
