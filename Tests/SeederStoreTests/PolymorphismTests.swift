import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// Selectors, end to end (docs/mapping.md, Polymorphism): the entity each object's `by` value
/// picks, the three ways a relationship to a selector is stored, the references seeder checks
/// itself, and a source whose records are of several entities.
struct PolymorphismTests {
    static let mapping = """
        seeder: 1
        entities:
          User:
            identity: handle
            attributes: { handle: string, name: string }
            relationships:
              feed: { to: { by: type, cases: { photo: Photo, video: Video } }, many: true, inverse: owner, ordered: true }
              pinned: { to: { by: type, cases: { photo: Photo, video: Video } } }
              likes: { to: { by: type, cases: { photo: Photo, video: Video } }, many: true }
          Photo:
            attributes: { id: string, url: string }
            relationships:
              owner: { to: User }
          Video:
            attributes: { id: string, seconds: integer }
            relationships:
              owner: { to: User }
          Comment:
            attributes: { id: integer, text: string }
            relationships:
              subject: { to: { by: subject_type, cases: { photo: Photo, video: Video } }, from: subject_id }
        sources:
          - path: export.json
            entity: User
            keyPath: users
            keyedBy: handle
          - path: export.json
            entity: Comment
            keyPath: comments
        """

    /// Each stored form: an ordered one-to-many numbered across the entities it chose, a to-one
    /// as id and entity name, a many-to-many's join rows with the entity name, and a bare id
    /// whose `by` is beside it in its record (Rails' `subject_type`, `subject_id`).
    @Test func eachFormStoresTheChosenEntity() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.mapping)
        try workspace.write(
            "dumps/export.json",
            """
            {"users": {
              "blake": {"name": "Blake", "feed": [{"type": "photo", "id": "p1", "url": "u1"}, {"type": "video", "id": "v1", "seconds": 3},
                                                  {"type": "photo", "id": "p2", "url": "u2"}],
                        "pinned": {"type": "video", "id": "v1"}, "likes": [{"type": "video", "id": "v2"}]},
              "rachit": {"name": "Rachit", "feed": [{"type": "video", "id": "v2", "seconds": 9}], "pinned": {"type": "photo", "id": "p2"},
                         "likes": [{"type": "photo", "id": "p1"}, {"type": "video", "id": "v1"}]}},
             "comments": [{"id": 1, "text": "nice", "subject_type": "photo", "subject_id": "p1"},
                          {"id": 2, "text": "wow", "subject_type": "video", "subject_id": "v2"}]}
            """)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(
            try workspace.rows("SELECT * FROM user ORDER BY handle") == [
                #"[handle:"blake" name:"Blake" pinned_id:"v1" pinned_type:"Video"]"#,
                #"[handle:"rachit" name:"Rachit" pinned_id:"p2" pinned_type:"Photo"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM photo ORDER BY id") == [
                #"[id:"p1" url:"u1" owner_id:"blake" owner_position:0]"#, #"[id:"p2" url:"u2" owner_id:"blake" owner_position:2]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM video ORDER BY id") == [
                #"[id:"v1" seconds:3 owner_id:"blake" owner_position:1]"#, #"[id:"v2" seconds:9 owner_id:"rachit" owner_position:0]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM user_likes ORDER BY user_id, like_id") == [
                #"[user_id:"blake" like_id:"v2" like_type:"Video"]"#, #"[user_id:"rachit" like_id:"p1" like_type:"Photo"]"#,
                #"[user_id:"rachit" like_id:"v1" like_type:"Video"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM comment ORDER BY id") == [
                #"[id:1 text:"nice" subject_id:"p1" subject_type:"Photo"]"#, #"[id:2 text:"wow" subject_id:"v2" subject_type:"Video"]"#,
            ])
        // SQLite declares no key for the entity a selector chose: seeder checks it.
        let schema = try workspace.rows("SELECT sql FROM sqlite_master WHERE name IN ('user', 'user_likes') ORDER BY name")
        #expect(!schema[0].contains(#"REFERENCES \"photo\""#) && !schema[1].contains(#"REFERENCES \"photo\""#))
        #expect(schema[1].contains(#"REFERENCES \"user\""#))
    }

    /// Every problem of a run: a value no case names, a missing one, a value that is not one,
    /// and references to (type, id) pairs that no record provides, each at its place.
    @Test func unknownCasesAndDanglingReferencesAreErrorsAtTheirPlaces() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.mapping)
        try workspace.write(
            "dumps/export.json",
            """
            {"users": {
              "blake": {"name": "Blake", "feed": [{"type": "gif", "id": "g1"}, {"id": "x"}, {"type": "video", "id": "v1"}, {"type": "photo", "id": "p1", "url": "u"}],
                        "pinned": {"type": "video", "id": "v9"}, "likes": [{"type": "photo", "id": "v1"}]},
              "rachit": {"name": "Rachit", "pinned": {"type": [1], "id": "p2"}, "feed": [{"type": "video", "id": "v2", "seconds": 1}]}},
             "comments": [{"id": 1, "text": "a", "subject_type": "video", "subject_id": "v3"}, {"id": 2, "text": "b", "subject_id": "v1"}]}
            """)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                #"dumps/export.json:2:48: error: User blake: 'type' is "gif", which no case of 'feed' names (cases: photo, video)  [/users/blake/feed/0/type]"#,
                "dumps/export.json:2:68: error: User blake: 'type' is missing, and 'feed' has no default (cases: photo, video)  [/users/blake/feed/1]",
                "dumps/export.json:4:51: error: User rachit: 'type' is an array; expected a value naming a case (cases: photo, video)  [/users/rachit/pinned/type]",
                "dumps/export.json:5:84: error: Comment 2: 'subject_type' is missing, and 'subject' has no default (cases: photo, video)  [/comments/1]",
                "dumps/export.json:2:81: error: User blake references Video v1 (feed), which no record provides  [/users/blake/feed/2]",
                "dumps/export.json:3:23: error: User blake references Video v9 (pinned), which no record provides  [/users/blake/pinned]",
                "dumps/export.json:5:77: error: Comment 1 references Video v3 (subject), which no record provides  [/comments/0/subject_id]",
                "dumps/export.json:3:64: error: User blake references Photo v1 (likes), which no record provides  [/users/blake/likes/0]",
            ])
        #expect(report.outcome == .invalid)
    }

    /// `onMissing` as for any reference, per chosen entity: `null` clears the id and the name,
    /// `create` makes the row in the chosen entity's table.
    @Test func onMissingActsInTheChosenEntitysTable() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            onMissing: create
            entities:
              Photo:
                attributes: { id: string, url: string }
              Video:
                attributes: { id: string, seconds: integer }
              Post:
                attributes: { id: integer }
                relationships:
                  attachment: { to: { by: kind, cases: { photo: Photo, video: Video } }, onMissing: null }
                  refs: { to: { by: kind, cases: { photo: Photo, video: Video } }, many: true }
            sources:
              - path: posts.json
                entity: Post
            """)
        try workspace.write(
            "dumps/posts.json",
            """
            [{"id": 1, "attachment": {"kind": "photo", "id": "p9"}, "refs": [{"kind": "video", "id": "v5"}]},
             {"id": 2, "kind": "photo", "attachment": "p3", "refs": ["p3"]}]
            """)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(try workspace.rows("SELECT * FROM photo") == [#"[id:"p3" url:NULL]"#])
        #expect(try workspace.rows("SELECT * FROM video") == [#"[id:"v5" seconds:NULL]"#])
        #expect(
            try workspace.rows("SELECT * FROM post ORDER BY id") == [
                "[id:1 attachment_id:NULL attachment_type:NULL]", #"[id:2 attachment_id:"p3" attachment_type:"Photo"]"#,
            ])
        #expect(report.entities.map(\.counts.rowsCreated) == [1, 1, 0])
        #expect(report.entities[2].counts.referencesDropped == 1)
    }

    /// A source's selector picks each record's entity; `default` takes any other value; a
    /// value with neither is an error at it, and the other records are still read.
    @Test func aSourceSelectorPicksEachRecordsEntity() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Photo:
                attributes: { id: string, url: string }
              Video:
                attributes: { id: string, seconds: integer }
              Item:
                attributes: { id: string }
            sources:
              - path: feed.json
                entity: { by: kind, cases: { photo: Photo, video: Video }, default: Item }
                keyPath: data
                keyedBy: id
              - path: more.json
                entity: { by: kind, cases: { photo: Photo } }
            """)
        try workspace.write(
            "dumps/feed.json",
            #"{"data": {"p1": {"kind": "photo", "url": "a"}, "v1": {"kind": "video", "seconds": 2}, "x1": {"kind": "zine"}}}"#)
        try workspace.write("dumps/more.json", #"[{"kind": "photo", "id": "p2"}, {"kind": "film", "id": "f1"}, "p3", {"kind": "phto"}]"#)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                #"dumps/more.json:1:42: error: 'kind' is "film", which no case of the source names (cases: photo)  [/1/kind]"#,
                "dumps/more.json:1:63: error: a bare id has no 'kind' to pick its entity, and the source has no default (cases: photo)  [/2]",
                #"dumps/more.json:1:78: error: 'kind' is "phto", which no case of the source names (cases: photo; did you mean 'photo'?)  [/3/kind]"#,
            ])
        try workspace.write("dumps/more.json", #"[{"kind": "photo", "id": "p2"}]"#)
        #expect(workspace.build().messages(workspace) == [])
        #expect(try workspace.rows("SELECT * FROM photo ORDER BY id") == [#"[id:"p1" url:"a"]"#, #"[id:"p2" url:NULL]"#])
        #expect(try workspace.rows("SELECT * FROM video") == [#"[id:"v1" seconds:2]"#])
        #expect(try workspace.rows("SELECT * FROM item") == [#"[id:"x1"]"#])
    }

    /// A to-many to a selector shares its inverse with a plain to-many to one of the selector's
    /// entities other than its first: a child the plain one embeds new is claimed in dump order
    /// with the selector's claims, not taken for good as it goes in.
    @Test(arguments: [("last", "u1"), ("first", "u2")])
    func aSelectorsInverseSharedWithAPlainToManyIsSettledInDumpOrder(policy: String, owner: String) throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              User:
                identity: handle
                attributes: { handle: string }
                relationships:
                  feed: { to: { by: type, cases: { photo: Photo }, default: Note }, many: true, inverse: owner }
                  pinned: { to: Note, many: true, inverse: owner }
              Photo:
                attributes: { id: string, url: string }
                relationships: { owner: { to: User } }
              Note:
                onConflict: \(policy)
                attributes: { id: string, text: string }
                relationships: { owner: { to: User } }
            sources:
              - { path: users.json, entity: User }
            """)
        // u2's claim, a reference through the selector, comes first; u1's, embedding the note,
        // last.
        try workspace.write(
            "dumps/users.json",
            #"""
            [{"handle": "u2", "feed": [{"type": "photo", "id": "p1", "url": "a"}, {"type": "note", "id": "n1"}]},
             {"handle": "u1", "pinned": [{"id": "n1", "text": "one"}]}]
            """#)
        #expect(workspace.build().messages(workspace) == [])
        #expect(try workspace.rows("SELECT id, owner_id FROM note") == [#"[id:"n1" owner_id:"\#(owner)"]"#])
    }

    /// An owner merged from two occurrences numbers its children across the entities' tables in
    /// first-seen order, children without identity included; `keyedBy` reads a selector's
    /// records from an object's keys; names follow `naming`.
    @Test func mergedOwnersNumberTheirChildrenAcrossTheEntities() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            naming: { database: as_is }
            entities:
              User:
                identity: handle
                attributes: { handle: string }
                relationships:
                  feed: { to: { by: type, cases: { photo: Photo, note: Note } }, many: true, inverse: owner, ordered: true }
                  items: { to: { by: type, cases: { photo: Photo, video: Video } }, many: true, keyedBy: id }
                  pinned: { to: { by: type, cases: { photo: Photo, video: Video } } }
              Photo:
                attributes: { id: string, url: string }
                relationships:
                  owner: { to: User }
              Video:
                attributes: { id: string, seconds: integer }
              Note:
                identity: none
                attributes: { text: string }
                relationships:
                  owner: { to: User }
            sources:
              - path: users.json
                entity: User
            """)
        try workspace.write(
            "dumps/users.json",
            """
            [{"handle": "blake", "feed": [{"type": "photo", "id": "p1", "url": "a"}, {"type": "note", "text": "hi"}],
              "items": {"v1": {"type": "video", "seconds": 3}, "p5": {"type": "photo", "url": "z"}}, "pinned": {"type": "video", "id": "v1"}},
             {"handle": "blake", "feed": [{"type": "note", "text": "again"}, {"type": "photo", "id": "p2", "url": "b"}, {"type": "photo", "id": "p1", "url": "a"}]}]
            """)
        #expect(workspace.build().messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT id, ownerId, ownerPosition FROM Photo ORDER BY id") == [
                #"[id:"p1" ownerId:"blake" ownerPosition:0]"#, #"[id:"p2" ownerId:"blake" ownerPosition:3]"#,
                #"[id:"p5" ownerId:NULL ownerPosition:NULL]"#,
            ])
        #expect(
            try workspace.rows("SELECT text, ownerId, ownerPosition FROM Note ORDER BY _pk") == [
                #"[text:"hi" ownerId:"blake" ownerPosition:1]"#, #"[text:"again" ownerId:"blake" ownerPosition:2]"#,
            ])
        #expect(try workspace.rows("SELECT * FROM User") == [#"[handle:"blake" pinnedId:"v1" pinnedType:"Video"]"#])
        #expect(
            try workspace.rows("SELECT * FROM User_items ORDER BY itemId") == [
                #"[userId:"blake" itemId:"p5" itemType:"Photo"]"#, #"[userId:"blake" itemId:"v1" itemType:"Video"]"#,
            ])
    }

    /// A record embedded in a later occurrence of the owner merges into its row with the
    /// entity's name, as a reference to it does.
    @Test func aToOneEmbeddedInALaterOccurrenceKeepsItsEntity() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Note:
                attributes: { id: integer, text: string }
                relationships:
                  owner: { to: { by: type, cases: { task: Task } } }
              Task:
                identity: slug
                attributes: { slug: string, text: string }
            sources:
              - { path: notes-1.json, entity: Note }
              - { path: notes-2.json, entity: Note }
            """)
        try workspace.write("dumps/notes-1.json", #"[{"id": 1, "text": "a"}, {"id": 2, "owner": {"type": "task", "slug": "y"}}]"#)
        try workspace.write(
            "dumps/notes-2.json",
            #"[{"id": 1, "owner": {"type": "task", "slug": "x", "text": "b"}}, {"id": 2, "owner": {"type": "task", "slug": "y", "text": "c"}}]"#
        )
        #expect(workspace.build().messages(workspace) == [])
        #expect(
            try workspace.rows("SELECT * FROM note ORDER BY id") == [
                #"[id:1 text:"a" owner_id:"x" owner_type:"Task"]"#, #"[id:2 text:NULL owner_id:"y" owner_type:"Task"]"#,
            ])
    }
}
