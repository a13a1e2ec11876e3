import Foundation
import GRDB
import SeederTestSupport
import Testing

@testable import SeederCore
@testable import SeederInfer
@testable import SeederStore

/// Dumps shaped like real APIs that a user's trial of `seeder infer` broke (docs/commands.md,
/// `seeder infer`): each draft builds, and its seed holds every record.
struct InferTrialTests {
    /// Order lines numbered within their order: `id` is no identity across orders (merging
    /// would keep one line 1 of three), so every line is its own row.
    @Test func idsUniqueWithinTheirParentAreNoIdentity() throws {
        let (draft, workspace) = try inferDraft([
            "orders.json": #"""
            [{"id": 100, "lines": [{"id": 1, "sku": "A", "qty": 2}, {"id": 2, "sku": "B", "qty": 1}]},
             {"id": 101, "lines": [{"id": 1, "sku": "C", "qty": 5}]},
             {"id": 102, "lines": [{"id": 1, "sku": "A", "qty": 1}, {"id": 2, "sku": "D", "qty": 3}, {"id": 3, "sku": "E", "qty": 9}]}]
            """#
        ])
        #expect(draft.contains("'id' unique only within each parent: 3 values repeat with other records"))
        // Unique within each order, the line's `id` keys it there (rule `owned-identity`).
        #expect(draft.contains("identity: [order, id]"), "\(draft)")
        #expect(draft.contains("within each Order, 'id' is unique in every array of 6 records"), "\(draft)")
        #expect(draftLine(draft, "lines").contains("inverse: order }"))
        #expect(try buildDraft(draft, in: workspace) == ["Order": 3, "Line": 6])
        let lines = try DatabaseQueue(path: workspace.path("seed.sqlite")).read { db in
            try String.fetchAll(
                db, sql: "SELECT o.id || '|' || l.sku || '|' || l.qty FROM line l JOIN \"order\" o ON o.id = l.order_id ORDER BY o.id, l.id"
            )
        }
        #expect(lines == ["100|A|2", "100|B|1", "101|C|5", "102|A|1", "102|D|3", "102|E|9"])
    }

    /// The same records embedded again and again, alike, still merge by `id`.
    @Test func repeatedAlikeCopiesStillMerge() throws {
        let (draft, workspace) = try inferDraft([
            "repos.json": #"[{"id": 1, "owner": {"id": 7, "login": "a"}}, {"id": 2, "owner": {"id": 7, "login": "a"}}]"#
        ])
        #expect(draft.contains("# identity: 'id': 1 distinct value in 2 records (1 repeated occurrence merges)"))
        #expect(try buildDraft(draft, in: workspace) == ["Repo": 2, "Owner": 1])
    }

    /// An object that holds only an array of records under a key no list envelope uses
    /// (GraphQL's `{"edges": [...]}`) stores nothing of its own: its key is json, and the draft loads.
    @Test func wrappersOfRecordsAreJSON() throws {
        let (draft, workspace) = try inferDraft(["posts.json": #"[{"id": 1, "issues": {"edges": [{"node": {"id": 5, "title": "t"}}]}}]"#])
        #expect(draftLine(draft, "issues").contains("json"), "\(draft)")
        #expect(draft.contains("# 'issues' is json: its objects hold only other records, nothing of their own to store"))
        #expect(try buildDraft(draft, in: workspace) == ["Post": 1])
    }

    /// A list envelope (`{"items": [...]}`, Stripe's `{"object": "list", "data": [...], "has_more":
    /// false}`) is a to-many read through it, its records of the entity its key names; an empty
    /// one (`{}`, `"items": []`) is a list of none.
    @Test func listEnvelopesAreToManysThroughThem() throws {
        let (draft, workspace) = try inferDraft([
            "posts.json": #"""
            [{"id": 1, "comments": {"items": [{"id": 7, "text": "x"}, {"id": 8, "text": "y"}]}}, {"id": 2, "comments": {"items": []}},
             {"id": 3, "comments": {}}, {"id": 4, "comments": {"object": "list", "items": [{"id": 7, "text": "x"}], "has_more": false}}]
            """#,
            "comments.json": #"[{"id": 9, "text": "z"}]"#,
        ])
        #expect(draftValue(draft, "comments") == "comments: { to: Comment, many: true, from: comments.items }", "\(draft)")
        #expect(
            draft.contains(
                "    # 'comments' is a list envelope: its records are under 'items', and its other keys, which say how the list was paged, are left out\n"
            ))
        #expect(try buildDraft(draft, in: workspace) == ["Post": 4, "Comment": 3])
    }

    /// A list sent as its length only (Spotify's `"tracks": {"href": ..., "total": 12}` in a list
    /// of playlists, where an album holds the envelope of its tracks) is a list of none, not a
    /// record of the tracks' entity that would cost it its identity; where the key never holds
    /// an envelope, such an object is a record as any other.
    @Test func listsSentAsTheirLengthAreListsOfNone() throws {
        let (draft, workspace) = try inferDraft([
            "albums.json": #"""
            [{"id": "a1", "tracks": {"href": "https://api.example.com/albums/a1/tracks", "items": [{"id": "t1", "name": "x"}], "total": 1}},
             {"id": "a2", "tracks": {"href": "https://api.example.com/albums/a2/tracks", "items": [{"id": "t2", "name": "y"}], "total": 1}}]
            """#,
            "playlists.json": #"""
            [{"id": "p1", "tracks": {"href": "https://api.example.com/playlists/p1/tracks", "total": 12}},
             {"id": "p2", "tracks": {"href": "https://api.example.com/playlists/p2/tracks", "total": 3}}]
            """#,
            "reviews.json":
                #"[{"id": 1, "stats": {"count": 4, "url": "https://example.com/1"}}, {"id": 2, "stats": {"count": 0, "url": "https://example.com/2"}}]"#,
        ])
        #expect(draftValue(draft, "tracks") == "tracks: { to: Track, many: true, from: tracks.items }", "\(draft)")
        #expect(
            draft.contains("      tracks: json                          # 2 of 2; json: lists sent as their length only, never a record\n"))
        #expect(
            draft.contains(
                "  Track:                                    # 2 records\n    # identity: 'id': 2 distinct values in 2 records\n"))
        #expect(draftValue(draft, "statsCount") == "statsCount: { type: integer, from: stats.count, required: true }")
        #expect(try buildDraft(draft, in: workspace) == ["Album": 2, "Track": 2, "Playlist": 2, "Review": 2])
        #expect(
            try seedColumn("SELECT tracks FROM playlist ORDER BY id", in: workspace).first
                == #"{"href":"https://api.example.com/playlists/p1/tracks","total":12}"#)
    }

    /// Elements of a list that each wrap one record of the list's kind under its singular
    /// (Spotify's playlist `"tracks"`: `{"added_at": ..., "track": {...}}`) are entries, an
    /// entity of their own (`TrackEntry`) that links the track: the tracks keep their identity.
    @Test func entriesThatWrapARecordAreAnEntityOfTheirOwn() throws {
        let (draft, workspace) = try inferDraft([
            "albums.json": #"""
            [{"id": "a1", "tracks": [{"id": "t1", "name": "x"}, {"id": "t2", "name": "y"}]}]
            """#,
            "playlists.json": #"""
            [{"id": "p1", "tracks": {"items": [{"added_at": "2021-01-01T00:00:00Z", "track": {"id": "t1", "name": "x"}},
                                               {"added_at": "2021-01-02T00:00:00Z", "track": {"id": "t3", "name": "z"}}]}}]
            """#,
        ])
        #expect(
            draftValue(draft, "tracks") == "tracks: { to: Track, many: true }"
                && draft.contains("      tracks: { to: TrackEntry, many: true, inverse: playlist, ordered: true, from: tracks.items }"),
            "\(draft)")
        #expect(
            draft.contains("  Track:                                    # 4 records\n    # identity: 'id': 3 distinct values in 4 records"))
        #expect(draftValue(draft, "track") == "track: { to: Track }")
        #expect(try buildDraft(draft, in: workspace) == ["Album": 1, "Track": 3, "Playlist": 1, "TrackEntry": 2])
        #expect(
            try seedColumn("SELECT added_at || ' ' || track_id FROM track_entry ORDER BY playlist_position", in: workspace) == [
                "2021-01-01T00:00:00.000Z t1", "2021-01-02T00:00:00.000Z t3",
            ])
    }

    /// Two files whose names end alike (`artists.json`, `related_artists.json`) holding records of
    /// the same keys and identity are one entity, named by the shorter; files named otherwise stay
    /// apart.
    @Test func sourcesNamedForOneKindAreOneEntity() throws {
        let artist = { (id: String) in #"{"id": "\#(id)", "name": "n\#(id)", "genres": ["pop"], "popularity": 50}"# }
        let (draft, workspace) = try inferDraft([
            "artists.json": "[" + artist("a1") + ", " + artist("a2") + "]",
            "related_artists.json": "[" + artist("a2") + ", " + artist("a3") + "]",
            "headliners.json": "[" + artist("a1") + "]",
        ])
        #expect(draft.contains("  - path: related_artists.json              # 2 records\n    entity: Artist\n"), "\(draft)")
        #expect(draft.contains("  - path: headliners.json                   # 1 record\n    entity: Headliner\n"))
        #expect(!draft.contains("RelatedArtist"))
        #expect(try buildDraft(draft, in: workspace) == ["Artist": 3, "Headliner": 1])
    }

    /// Files of one kind of record under names that do not say so (a home and a public timeline,
    /// a saved status: statuses all) are one entity: the same identity, and the same keys, or
    /// nearly and some identity in both. Copies recorded at other times differ: the first wins.
    /// The entity takes the name its embedding key gives (`status` in a notification).
    /// The corpus case `infer/timelines`, a Mastodon account's saved answers.
    @Test func sourcesOfOneKindUnderOtherNamesAreOneEntity() throws {
        let folder =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
            + "/SeederCLITests/Fixtures/infer/timelines"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let (draft, workspace) = try inferDraft(
            Dictionary(uniqueKeysWithValues: try names.map { ($0, try String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) }))
        #expect(draft.contains("  - path: home-timeline.json                # 2 records\n    entity: Status\n"), "\(draft)")
        #expect(draft.contains("  - path: tag-timeline.json                 # 1 record\n    entity: Status\n"))
        #expect(draft.contains("    onConflict: first "))
        #expect(
            draft.contains(
                "    # one entity for the records of the sources named HomeTimeline, PublicTimeline, Status and TagTimeline: "
                    + "10 keys or nearly, the same identity ('id'), 2 identities in more than one of them\n"))
        #expect(try buildDraft(draft, in: workspace) == ["Status": 4, "Notification": 1, "List": 1])
    }

    /// Arrays of records without identity in records that repeat (a poll embedded in every status
    /// that shows it) are json: each occurrence's would be rows of their own (docs/mapping.md,
    /// Merging), a poll's two options six rows. Where no record repeats they are a table.
    /// (Options that a key tells apart within their poll would be keyed by it, and merge.)
    @Test func recordsWithoutIdentityInRepeatedOwnersAreJSON() throws {
        let poll = #"{"id": "p1", "options": [{"title": "yes", "votes": 1}, {"title": "yes", "votes": 1}]}"#
        let (draft, workspace) = try inferDraft([
            "statuses.json": #"[{"id": "1", "poll": \#(poll)}, {"id": "2", "poll": \#(poll)}, {"id": "3", "poll": null}]"#,
            "surveys.json": #"[{"id": "s1", "questions": [{"text": "why"}, {"text": "why"}]}]"#,
        ])
        #expect(
            draftLine(draft, "options").hasSuffix(
                "# 2 of 2; json: its objects have no identity, and 1 record of Poll repeats another: rows of them would be there once per copy"
            ),
            "\(draft)")
        #expect(draftValue(draft, "questions") == "questions: { to: Question, many: true, inverse: survey, ordered: true }")
        #expect(!draft.contains("  Option:"))
        #expect(try buildDraft(draft, in: workspace) == ["Status": 3, "Poll": 1, "Survey": 1, "Question": 2])
        #expect(try seedColumn("SELECT options FROM poll", in: workspace) == [#"[{"title":"yes","votes":1},{"title":"yes","votes":1}]"#])
    }

    /// An empty last page is a page of no records, at the place its group's pages hold theirs,
    /// not one record of the page's wrapper.
    @Test(arguments: InferObjectRootTests.limits)
    func anEmptyLastPageIsAPageOfNone(limit: Int) throws {
        let page = { (items: String) in #"{"meta": {"page": 1, "total": 3}, "data": {"items": [\#(items)]}}"# }
        let (draft, workspace) = try InferObjectRootTests().draft(
            [
                "products/page-1.json": page(#"{"id": 1, "name": "a"}, {"id": 2, "name": "b"}"#),
                "products/page-2.json": page(#"{"id": 3, "name": "c"}"#), "products/page-3.json": page(""),
            ], limit: limit)
        #expect(draft.contains("- path: products/page-*.json"))
        #expect(draft.contains("keyPath: data.items"))
        #expect(draft.contains("# identity: 'id': 3 distinct values in 3 records"))
        #expect(draftLine(draft, "name").contains("required: true"))
        #expect(!draft.contains("Metum") && !draft.contains("Datum") && !draft.contains("Meta:"))
        #expect(try buildDraft(draft, in: workspace) == ["Product": 3])
    }

    /// A root object that only holds collections (a bootstrap file) is a source per array, each
    /// named by its key; a page's wrapper, with values of its own, is not.
    @Test func collectionsSideBySideAreEachASource() throws {
        let (draft, workspace) = try inferDraft([
            "bootstrap.json": #"""
            {"data": {"users": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}],
                      "projects": [{"id": 10, "owner_id": 1}, {"id": 11, "owner_id": 2}, {"id": 12, "owner_id": 1}],
                      "tags": [{"slug": "x"}]}}
            """#
        ])
        for (entity, path) in [("User", "data.users"), ("Project", "data.projects"), ("Tag", "data.tags")] {
            #expect(draft.contains("  \(entity):"))
            #expect(draft.contains("keyPath: \(path)"))
        }
        #expect(try buildDraft(draft, in: workspace) == ["User": 2, "Project": 3, "Tag": 1])
    }

    /// A saved `GET /users/1` is one record whose arrays are its fields; arrays a page's records
    /// are not read beside are named in a comment.
    @Test func aRecordWithAnIDIsOneRecordAndArraysLeftOutAreSaid() throws {
        let (draft, workspace) = try inferDraft([
            "user-1.json": #"{"id": 1, "name": "U1", "addresses": [{"city": "a"}, {"city": "b"}]}"#,
            "user-2.json": #"{"id": 2, "name": "U2", "addresses": [{"city": "c"}]}"#,
            "feed.json": #"{"total": 2, "links": [{"rel": "next"}], "data": {"items": [{"id": 5}, {"id": 6}]}}"#,
        ])
        #expect(draft.contains("- path: user-*.json"))
        #expect(draftLine(draft, "addresses").contains("to: Address, many: true"))
        #expect(draft.contains("# feed.json also holds objects not read: links (1 object); a source each, if they are records"))
        // The record's own arrays are read, through its relationships: never said to be left out.
        #expect(!draft.contains("user-1.json also holds") && !draft.contains("user-2.json also holds"), "\(draft)")
        #expect(try buildDraft(draft, in: workspace) == ["User": 2, "Address": 3, "Feed": 2])
    }

    /// Firebase's sets (`{"carol": true}`) are json however few and however alike their keys.
    @Test func setsOfKeysAreJSON() throws {
        let (draft, workspace) = try inferDraft([
            "users.json": #"""
            [{"id": "alice", "following": {"bob": true, "carol": true}}, {"id": "bob", "following": {"alice": true, "carol": true}},
             {"id": "carol", "following": {"alice": true, "bob": true}}]
            """#
        ])
        #expect(draftLine(draft, "following").contains("following: json"))
        #expect(draftLine(draft, "following").hasSuffix("every value is true: a set of 3 keys"))
        #expect(try buildDraft(draft, in: workspace) == ["User": 3])
    }

    /// Names: `data` and `meta` stay as they are (no `Datum`, no `Metum`); `+1` and `-1` keep
    /// their sign as a word.
    @Test func namesOfDataMetaAndSigns() {
        #expect(DraftNaming.entityName(fromWords: ["meta"]) == "Meta")
        #expect(DraftNaming.entityName(fromWords: ["page", "data"]) == "PageData")
        #expect(DraftNaming.memberName(fromKey: "+1") == "plus1")
        #expect(DraftNaming.memberName(fromKey: "-1") == "minus1")
    }

    /// Money as text, some values whole (`"7"`), is decimal; Stripe's `created` (unix seconds)
    /// is a date.
    @Test func moneyStringsAndStripeTimes() throws {
        let (draft, workspace) = try inferDraft([
            "charges.json": #"""
            [{"id": "ch_1", "amount": "10.00", "created": 1700000000}, {"id": "ch_2", "amount": "3.50", "created": 1700003600},
             {"id": "ch_3", "amount": "7", "created": 1700007200}]
            """#
        ])
        #expect(draftLine(draft, "amount").contains("type: decimal"))
        #expect(draftLine(draft, "amount").hasSuffix("decimal: 3 numeric strings, 2 with fractions: money-like, kept exact"))
        #expect(draftLine(draft, "created").contains("{ type: date, format: unix, required: true }"))
        #expect(try buildDraft(draft, in: workspace) == ["Charge": 3])
    }

    /// A user embedded short in issues and full in users.json is one User: a source's records
    /// are fields, however the embedded copies vary; its own source is read first.
    @Test func shortEmbeddedCopiesOfASourcesRecordsMerge() throws {
        let (draft, workspace) = try inferDraft([
            // Ten short copies beside two full records: most keys are in few of the objects.
            "issues.json": "["
                + (10..<20).map { #"{"id": \#($0), "user": {"id": \#($0 % 2 + 1), "login": "\#($0 % 2 == 0 ? "a" : "b")"}}"# }
                .joined(separator: ",") + "]",
            "users.json": #"""
            [{"id": 1, "login": "a", "name": "Ann", "email": "a@x", "bio": "b", "site": "s", "company": "c", "blog": "d"},
             {"id": 2, "login": "b", "name": "Bo", "email": "b@x", "bio": "c", "site": "t", "company": "e", "blog": "f"}]
            """#,
        ])
        #expect(draftLine(draft, "user").contains("to: User"))
        let sources = draft.split(separator: "\n").filter { $0.contains("- path:") }
        #expect(sources.first?.contains("users.json") == true)
        #expect(try buildDraft(draft, in: workspace) == ["Issue": 10, "User": 2])
        let names = try DatabaseQueue(path: workspace.path("seed.sqlite")).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM user ORDER BY id")
        }
        #expect(names == ["Ann", "Bo"])
    }

    /// A file of no records says so, not that its records hold nothing.
    @Test func aFileOfNoRecordsSaysSo() throws {
        let (draft, _) = try inferDraft(["a.ndjson": "", "b.json": #"[{"id": 1}]"#])
        #expect(draft.contains("# a.ndjson: left out, it holds no records"))
    }

    /// Records keyed twice in an export (`post-comments` by post, then by comment) are no
    /// collection seeder reads: named in a comment, not left out silently.
    @Test func recordsKeyedTwiceAreSaid() throws {
        let (draft, workspace) = try inferDraft([
            "export.json": #"""
            {"users": {"u1": {"name": "a"}, "u2": {"name": "b"}},
             "post-comments": {"p1": {"c1": {"text": "x"}, "c2": {"text": "y"}}, "p2": {"c3": {"text": "z"}}}}
            """#
        ])
        #expect(
            draft.contains(
                "# export.json also holds objects not read: post-comments (an object of 2 objects); a source each, if they are records"))
        #expect(try buildDraft(draft, in: workspace) == ["User": 2])
    }
}
