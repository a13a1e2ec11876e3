import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// `schema: { template }` on an empty Core Data store (docs/mapping.md, Fitting the app's own
/// schema): Z_PK, Z_ENT, Z_OPT and Z_MAX as Core Data writes them, to-ones and the join table
/// holding Z_PKs, dates as seconds since 2001, and the store's metadata kept byte for byte.
struct CoreDataStoreTests {
    /// Makes the empty store at `path`.
    static func makeStore(at path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: CoreDataStore.sql) }
        try queue.close()
    }

    static func mapping(storage: String = "iso8601") -> String {
        """
        seeder: 1
        schema: { template: Store.sqlite }
        entities:
          Author:
            identity: remoteID
            attributes:
              remoteID: string
              name: string
              joinedAt: { type: date, storage: \(storage) }
              isActive: boolean
          Post:
            identity: remoteID
            attributes:
              remoteID: string
              title: string
              publishedAt: { type: date, storage: \(storage) }
              rating: real
            relationships:
              author: { to: Author }
              tags: { to: Tag, many: true }
          Tag:
            identity: name
            attributes: { name: string }
        sources:
          - path: authors.json
            entity: Author
          - path: posts.json
            entity: Post

        """
    }

    static let authors = """
        [{"remoteID": "a9", "name": "Ursula", "joinedAt": "2024-03-01T12:00:00.250Z", "isActive": true},
         {"remoteID": "a1", "name": "Iain", "joinedAt": "2000-12-31T23:59:59.500Z", "isActive": false}]
        """

    static let posts = """
        [{"remoteID": "p3", "title": "Anarres", "author": "a9", "publishedAt": "2001-01-01T00:00:00Z", "rating": 4.5,
          "tags": [{"name": "utopia"}, {"name": "classic"}]},
         {"remoteID": "p1", "title": "Culture", "author": "a1", "publishedAt": "2020-06-15T08:00:00.125Z",
          "tags": [{"name": "space"}, {"name": "classic"}]},
         {"remoteID": "p2", "title": "Gethen", "tags": []}]
        """

    static func workspace(storage: String = "iso8601", authors: String = authors, posts: String = posts) throws -> Workspace {
        let workspace = try Workspace.withDumps()
        try makeStore(at: workspace.path("Store.sqlite"))
        try workspace.write("mapping.yaml", mapping(storage: storage))
        try workspace.write("dumps/authors.json", authors)
        try workspace.write("dumps/posts.json", posts)
        return workspace
    }

    @Test func fillsTheStoreAsCoreDataWouldHaveSavedIt() throws {
        let workspace = try Self.workspace()
        let storeBytes = try Data(contentsOf: URL(fileURLWithPath: workspace.path("Store.sqlite")))
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(
            try workspace.rows("SELECT * FROM ZAUTHOR ORDER BY Z_PK") == [
                #"[Z_PK:1 Z_ENT:1 Z_OPT:1 ZISACTIVE:1 ZJOINEDAT:730987200.25 ZNAME:"Ursula" ZREMOTEID:"a9"]"#,
                #"[Z_PK:2 Z_ENT:1 Z_OPT:1 ZISACTIVE:0 ZJOINEDAT:-0.5 ZNAME:"Iain" ZREMOTEID:"a1"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM ZPOST ORDER BY Z_PK") == [
                #"[Z_PK:1 Z_ENT:2 Z_OPT:1 ZAUTHOR:1 ZPUBLISHEDAT:0 ZRATING:4.5 ZREMOTEID:"p3" ZTITLE:"Anarres"]"#,
                #"[Z_PK:2 Z_ENT:2 Z_OPT:1 ZAUTHOR:2 ZPUBLISHEDAT:613900800.125 ZRATING:NULL ZREMOTEID:"p1" ZTITLE:"Culture"]"#,
                #"[Z_PK:3 Z_ENT:2 Z_OPT:1 ZAUTHOR:NULL ZPUBLISHEDAT:NULL ZRATING:NULL ZREMOTEID:"p2" ZTITLE:"Gethen"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM ZTAG ORDER BY Z_PK") == [
                #"[Z_PK:1 Z_ENT:3 Z_OPT:1 ZNAME:"utopia"]"#, #"[Z_PK:2 Z_ENT:3 Z_OPT:1 ZNAME:"classic"]"#,
                #"[Z_PK:3 Z_ENT:3 Z_OPT:1 ZNAME:"space"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM Z_2TAGS ORDER BY Z_2POSTS, Z_3TAGS") == [
                "[Z_2POSTS:1 Z_3TAGS:1]", "[Z_2POSTS:1 Z_3TAGS:2]", "[Z_2POSTS:2 Z_3TAGS:2]", "[Z_2POSTS:2 Z_3TAGS:3]",
            ])
        #expect(
            try workspace.rows("SELECT * FROM Z_PRIMARYKEY ORDER BY Z_ENT") == [
                #"[Z_ENT:1 Z_NAME:"Author" Z_SUPER:0 Z_MAX:2]"#, #"[Z_ENT:2 Z_NAME:"Post" Z_SUPER:0 Z_MAX:3]"#,
                #"[Z_ENT:3 Z_NAME:"Tag" Z_SUPER:0 Z_MAX:3]"#,
            ])

        // The store's metadata and model cache, byte for byte; its pragmas and schema as they were.
        let seed = try DatabaseQueue(path: workspace.path("seed.sqlite"))
        let store = try DatabaseQueue(path: workspace.path("Store.sqlite"))
        let kept = #"SELECT Z_VERSION, Z_UUID, Z_PLIST, (SELECT Z_CONTENT FROM Z_MODELCACHE) AS cache FROM Z_METADATA"#
        let schema = #"SELECT type, name, sql FROM sqlite_schema WHERE tbl_name NOT LIKE 'seed\_%' ESCAPE '\' ORDER BY rowid"#
        let (storeKept, storeSchema) = try store.read { db in (try Row.fetchAll(db, sql: kept), try Row.fetchAll(db, sql: schema)) }
        try seed.read { db in
            let seedKept = try Row.fetchAll(db, sql: kept)
            #expect(seedKept == storeKept)
            #expect(seedKept.count == 1)
            let plist: Data = seedKept[0]["Z_PLIST"]
            #expect(plist == Data(hexString: CoreDataStore.plist))
            let cache: Data = seedKept[0]["cache"]
            #expect(cache == Data(hexString: CoreDataStore.modelCache))
            #expect(try Row.fetchAll(db, sql: schema) == storeSchema)
            #expect(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2)
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
        }
        try store.close()
        try seed.close()

        // The store itself was only read: its bytes, and no journal or WAL beside it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.path("Store.sqlite"))) == storeBytes)
        #expect(workspace.files.filter { $0.hasPrefix("Store") } == ["Store.sqlite"])
    }

    /// Whatever a date's `storage:` says, Core Data's TIMESTAMP holds seconds since 2001.
    @Test(arguments: ["iso8601", "unixepoch", "unixepoch_ms", "reference"])
    func datesAreSecondsSince2001WhateverTheirStorage(_ storage: String) throws {
        let workspace = try Self.workspace(storage: storage)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT ZREMOTEID, ZJOINEDAT, typeof(ZJOINEDAT) AS t FROM ZAUTHOR ORDER BY Z_PK") == [
                #"[ZREMOTEID:"a9" ZJOINEDAT:730987200.25 t:"real"]"#, #"[ZREMOTEID:"a1" ZJOINEDAT:-0.5 t:"real"]"#,
            ])
        #expect(
            try workspace.rows("SELECT ZREMOTEID, ZPUBLISHEDAT FROM ZPOST ORDER BY Z_PK") == [
                #"[ZREMOTEID:"p3" ZPUBLISHEDAT:0]"#, #"[ZREMOTEID:"p1" ZPUBLISHEDAT:613900800.125]"#,
                #"[ZREMOTEID:"p2" ZPUBLISHEDAT:NULL]"#,
            ])
    }

    /// Two seeds of the store, from dumps where an author came first and a post's title and
    /// tags changed: `diff` pairs records by identity, not by the Z_PK each build numbered.
    @Test func diffPairsRecordsByIdentityNotByRowNumber() throws {
        let old = try Self.workspace()
        #expect(old.build().outcome == .success)
        let new = try Self.workspace(
            authors: #"[{"remoteID": "a0", "name": "Ann", "isActive": true}, "# + Self.authors.dropFirst(),
            posts: Self.posts.replacingOccurrences(of: #""Culture""#, with: #""The Culture""#)
                .replacingOccurrences(of: #""tags": []"#, with: #""tags": [{"name": "classic"}]"#))
        #expect(new.build().outcome == .success, "\(new.build().messages(new))")
        var changes: [String] = []
        let diff = try SeedDiffer(old: old.path("seed.sqlite"), new: new.path("seed.sqlite")).diff { table, change in
            let fields = change.fields.map { "\($0.column): \($0.old.map { "\($0)" } ?? "-") -> \($0.new.map { "\($0)" } ?? "-")" }
            changes.append("\(table.name) \(change.kind) \(change.key.map { "\($0)" }) \(fields)")
        }
        #expect(diff.schema.isEmpty)
        // Z_PK and the to-ones' Z_PKs shifted with Ann first; only what the records hold differs.
        // Z_ENT, Z_OPT and Z_PRIMARYKEY are Core Data's bookkeeping, which follows from them.
        #expect(
            changes == [
                #"Author added ["\"a0\""] ["ZISACTIVE: - -> 1", "ZJOINEDAT: - -> null", "ZNAME: - -> \"Ann\""]"#,
                #"Post changed ["\"p1\""] ["ZTITLE: \"Culture\" -> \"The Culture\""]"#,
                #"Post.tags added ["\"p2\"", "\"classic\""] []"#,
            ])
    }
}

extension Data {
    /// The bytes that `hex` (two digits a byte) spells.
    init?(hexString hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
