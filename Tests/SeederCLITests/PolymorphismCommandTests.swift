import Foundation
import GRDB
import SeederTestSupport
import Testing

/// Selectors (`to: { by: ... }`, `entity: { by: ... }`) through the real binary
/// (docs/mapping.md, Relationships, Polymorphism): a value no case names, cases that do not all
/// have the inverse, a dangling (type, id) reference, and a stored case without an identity.
struct PolymorphismCommandTests {
    /// A feed of photos, videos and links, embedded in users, and the same cases fed by a source.
    static let feedMapping = """
        seeder: 1
        entities:
          User:
            identity: handle
            attributes: { handle: string }
            relationships:
              feed:
                to: { by: type, cases: { photo: Photo, video: Video, link: Link } }
                many: true
                inverse: owner
                ordered: true
          Photo:
            attributes: { id: string, width: integer }
            relationships: { owner: { to: User } }
          Video:
            attributes: { id: string, seconds: integer }
            relationships: { owner: { to: User } }
          Link:
            attributes: { id: string, title: string }
            relationships: { owner: { to: User } }
        sources:
          - path: users.json
            entity: User
          - path: items.json
            entity: { by: kind, cases: { photo: Photo, video: Video, link: Link } }

        """

    static func feedScratch() throws -> Workspace {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("feed.yaml", feedMapping)
        try scratch.write(
            "dumps/users.json",
            #"[{"handle": "blake", "feed": [{"type": "photo", "id": "p1", "width": 1080}, {"type": "gif", "id": "g1", "title": "A gif"}, "#
                + #"{"type": "video", "id": "v1", "seconds": 42}, {"type": "link", "id": "l1", "title": "Docs"}]}]"#)
        try scratch.write("dumps/items.json", #"[{"kind": "photo", "id": "p2", "width": 800}, {"kind": 7, "id": "x7"}]"#)
        return scratch
    }

    @Test func aValueNoCaseNamesIsAnErrorAtItUnlessThereIsADefault() async throws {
        let scratch = try Self.feedScratch()
        let failed = try await seeder(["build", "feed.yaml", "dumps", "-o", "feed.sqlite"], in: scratch.root)
        #expect(failed.status == 1)
        #expect(failed.stdout == "")
        #expect(
            failed.stderr == """
                dumps/users.json:1:86: error: User blake: 'type' is "gif", which no case of 'feed' names (cases: link, photo, video)  [/0/feed/1/type]
                dumps/items.json:1:56: error: 'kind' is 7, which no case of the source names (cases: link, photo, video)  [/1/kind]
                build failed: 2 errors, 0 warnings; nothing was written

                """)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("feed.sqlite")))

        // With a default, the same values choose it: positions still count across the cases.
        try scratch.write("feed.yaml", Self.feedMapping.replacingOccurrences(of: "link: Link } }", with: "link: Link }, default: Link }"))
        let built = try await seeder(["build", "feed.yaml", "dumps", "-o", "feed.sqlite", "--quiet"], in: scratch.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr == "")
        let (links, photos) = try await DatabaseQueue(path: scratch.path("feed.sqlite")).read { db in
            (
                try Row.fetchAll(db, sql: "SELECT id, owner_id, owner_position FROM link ORDER BY id").map(\.description),
                try Row.fetchAll(db, sql: "SELECT id, owner_id, owner_position FROM photo ORDER BY id").map(\.description)
            )
        }
        #expect(
            links == [
                #"[id:"g1" owner_id:"blake" owner_position:1]"#, #"[id:"l1" owner_id:"blake" owner_position:3]"#,
                #"[id:"x7" owner_id:NULL owner_position:NULL]"#,
            ])
        #expect(photos == [#"[id:"p1" owner_id:"blake" owner_position:0]"#, #"[id:"p2" owner_id:NULL owner_position:NULL]"#])
    }

    @Test func aCaseWithoutTheInverseIsAMappingErrorAtTheInverse() async throws {
        let scratch = try Self.feedScratch()
        // Video is a case of 'feed' but has no 'owner' back to User.
        try scratch.write(
            "feed.yaml",
            Self.feedMapping.replacingOccurrences(
                of: "attributes: { id: string, seconds: integer }\n    relationships: { owner: { to: User } }\n",
                with: "attributes: { id: string, seconds: integer }\n"))
        let run = try await seeder(["build", "feed.yaml", "dumps", "-o", "feed.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                feed.yaml:10:18: error: inverse 'owner' is not a relationship of Video; it must be a to-one from Video back to User; a one-to-many to a selector needs the same 'inverse' on every entity the selector can choose
                        inverse: owner
                                 ^
                build failed: 1 error, 0 warnings; nothing was written

                """)
    }

    static let pinnedMapping = """
        seeder: 1
        entities:
          Post:
            attributes: { id: integer }
            relationships:
              pinned: { to: { by: type, cases: { photo: Photo, video: Video } } }
          Photo:
            attributes: { id: string, url: string }
          Video:
            attributes: { id: string, seconds: integer }
        sources:
          - { path: posts.json, entity: Post }
          - { path: photos.json, entity: Photo }
          - { path: videos.json, entity: Video }

        """

    @Test func aDanglingTypeAndIdFollowsOnMissing() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("posts.yaml", Self.pinnedMapping)
        try scratch.write(
            "dumps/posts.json",
            #"[{"id": 3, "pinned": {"type": "video", "id": "v9"}}, {"id": 4, "pinned": {"type": "photo", "id": "p1"}}, {"id": 5, "pinned": null}]"#
        )
        try scratch.write("dumps/photos.json", #"[{"id": "p1", "url": "https://cdn.example.com/p1.jpg"}]"#)
        try scratch.write("dumps/videos.json", #"[{"id": "v1", "seconds": 42}]"#)
        let failed = try await seeder(["build", "posts.yaml", "dumps", "-o", "posts.sqlite"], in: scratch.root)
        #expect(failed.status == 1)
        #expect(
            failed.stderr == """
                dumps/posts.json:1:22: error: Post 3 references Video v9 (pinned), which no record provides  [/0/pinned]
                build failed: 1 error, 0 warnings; nothing was written

                """)

        // A (type, id) is looked up in its own entity: Photo p1 is no Video p1, which 'null' drops.
        try scratch.write(
            "posts.yaml", Self.pinnedMapping.replacingOccurrences(of: "video: Video } } }", with: "video: Video } }, onMissing: null }"))
        try scratch.write("dumps/videos.json", #"[{"id": "v9", "seconds": 42}]"#)
        try scratch.write(
            "dumps/posts.json",
            #"[{"id": 3, "pinned": {"type": "video", "id": "v9"}}, {"id": 4, "pinned": {"type": "photo", "id": "p1"}}, {"id": 5, "pinned": {"type": "video", "id": "p1"}}]"#
        )
        let built = try await seeder(["build", "posts.yaml", "dumps", "-o", "posts.sqlite"], in: scratch.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stderr == "")
        #expect(
            built.stdout == """
                entity  records  rows  merged  conflicts  references  dropped
                Post          3     3       0          0           2        1
                Photo         1     1       0          0           0        0
                Video         1     1       0          0           0        0
                wrote posts.sqlite

                """)
        let posts = try await DatabaseQueue(path: scratch.path("posts.sqlite")).read { db in
            try Row.fetchAll(db, sql: "SELECT id, pinned_id, pinned_type FROM post ORDER BY id").map(\.description)
        }
        #expect(
            posts == [
                #"[id:3 pinned_id:"v9" pinned_type:"Video"]"#, #"[id:4 pinned_id:"p1" pinned_type:"Photo"]"#,
                "[id:5 pinned_id:NULL pinned_type:NULL]",
            ])
    }

    @Test func aStoredCaseWithoutAnIdentityIsAMappingError() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write(
            "posts.yaml",
            """
            seeder: 1
            entities:
              Post:
                attributes: { id: integer }
                relationships:
                  pinned: { to: { by: type, cases: { photo: Photo, note: Note } } }
                  likes: { to: { by: type, cases: { photo: Photo, note: Note } }, many: true }
              Photo:
                attributes: { id: string, url: string }
              Note:
                identity: none
                attributes: { text: string }

            """)
        let run = try await seeder(["build", "posts.yaml", "dumps", "-o", "posts.sqlite"], in: scratch.root)
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                posts.yaml:6:62: error: case 'note' of 'pinned' is Note, which has 'identity: none'; the cases of a to-one or a many-to-many are stored as (type, id) and need an identity
                ...     pinned: { to: { by: type, cases: { photo: Photo, note: Note } } }
                                                                               ^
                posts.yaml:7:61: error: case 'note' of 'likes' is Note, which has 'identity: none'; the cases of a to-one or a many-to-many are stored as (type, id) and need an identity
                      likes: { to: { by: type, cases: { photo: Photo, note: Note } }, many: true }
                                                                            ^
                build failed: 2 errors, 0 warnings; nothing was written

                """)
    }
}
