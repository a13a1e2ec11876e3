import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// How a relationship's values name their targets, end to end (docs/mapping.md, Relationships):
/// which objects are records and which are references, and what a reference to an identity that
/// no record provides does (`onMissing`).
struct ReferenceRulesTests {
    /// An identity-only object makes a row of a target that declares nothing but its identity
    /// (nothing else to wait for), and is a reference, checked, to any other target.
    @Test func anIdentityOnlyObjectIsARecordOfATargetThatDeclaresNothingElse() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Post:
                attributes: { id: integer }
                relationships:
                  author: { to: Author }
                  tags: { to: Tag, many: true }
              Author:
                identity: name
                attributes: { name: string }
              Tag:
                identity: slug
                attributes: { slug: string, label: string }
            sources:
              - path: posts.json
                entity: Post
            """)
        try workspace.write(
            "dumps/posts.json",
            """
            [{"id": 1, "author": {"name": "Blake"}, "tags": [{"slug": "swift"}]},
             {"id": 2, "author": {"name": "Blake"}, "tags": []}]
            """)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                "dumps/posts.json:1:50: error: Post 1 references Tag swift (tags), which no record provides  [/0/tags/0]"
            ])
        #expect(report.outcome == .invalid)
        // Without the dangling tag, the authors are rows, merged by name.
        try workspace.write(
            "dumps/posts.json", #"[{"id": 1, "author": {"name": "Blake"}, "tags": []}, {"id": 2, "author": {"name": "Blake"}}]"#)
        let fixed = workspace.build()
        #expect(fixed.messages(workspace) == ["mapping.yaml:11:3: warning: Tag got no record from any source"])
        #expect(try workspace.rows("SELECT * FROM author") == [#"[name:"Blake"]"#])
        #expect(try workspace.rows("SELECT * FROM post ORDER BY id") == [#"[id:1 author_id:"Blake"]"#, #"[id:2 author_id:"Blake"]"#])
        #expect(fixed.entities[1].counts.recordsRead == 2 && fixed.entities[1].counts.occurrencesMerged == 1)
    }

    static let created = """
        seeder: 1
        onMissing: create
        entities:
          Post:
            attributes: { id: integer }
            relationships:
              author: { to: Author }
              tags: { to: Tag, many: true }
              cards: { to: Card, many: true, ordered: true }
              notes: { to: Note, many: true, inverse: post, ordered: true }
          Author:
            attributes: { id: integer, name: string, rank: { type: integer, default: 3 } }
          Tag:
            identity: slug
            attributes: { slug: string, label: string }
          Card:
            identity: [suit, rank]
            attributes: { suit: string, rank: integer }
          Note:
            attributes: { id: integer }
            relationships:
              post: { to: Post }
        sources:
          - path: posts.json
            entity: Post
          - path: authors.json
            entity: Author

        """

    static let posts = """
        [{"id": 1, "author_id": 7, "tag_ids": ["swift", "c"], "cards": [["h", 3], {"suit": "s", "rank": 1}]},
         {"id": 2, "author_id": 8, "tags": ["c"], "notes": [5, 6]},
         {"id": 3, "author": 7}]
        """

    /// `onMissing: create` makes one row of each identity that references name and no record
    /// provides, of every kind of reference: to-one, many-to-many, composite, one-to-many with
    /// `inverse` (the child takes its parent and position); defaults fill the rest.
    @Test func createsARowOfEachIdentityThatNoRecordProvides() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write("mapping.yaml", Self.created)
        try workspace.write("dumps/posts.json", Self.posts)
        try workspace.write("dumps/authors.json", #"[{"id": 8, "name": "Ann"}]"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(report.outcome == .success)
        #expect(
            try workspace.rows("SELECT * FROM post ORDER BY id") == [
                "[id:1 author_id:7]", "[id:2 author_id:8]", "[id:3 author_id:7]",
            ])
        #expect(try workspace.rows("SELECT * FROM author ORDER BY id") == ["[id:7 name:NULL rank:3]", #"[id:8 name:"Ann" rank:3]"#])
        // In the order of their first references.
        #expect(try workspace.rows("SELECT * FROM tag ORDER BY rowid") == [#"[slug:"swift" label:NULL]"#, #"[slug:"c" label:NULL]"#])
        #expect(try workspace.rows("SELECT * FROM card ORDER BY rowid") == [#"[suit:"s" rank:1]"#, #"[suit:"h" rank:3]"#])
        #expect(
            try workspace.rows("SELECT * FROM post_cards ORDER BY position") == [
                #"[post_id:1 card_suit:"h" card_rank:3 position:0]"#, #"[post_id:1 card_suit:"s" card_rank:1 position:1]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM post_tags ORDER BY rowid") == [
                #"[post_id:1 tag_id:"swift"]"#, #"[post_id:1 tag_id:"c"]"#, #"[post_id:2 tag_id:"c"]"#,
            ])
        #expect(
            try workspace.rows("SELECT * FROM note ORDER BY id") == [
                "[id:5 post_id:2 post_position:0]", "[id:6 post_id:2 post_position:1]",
            ])
        #expect(report.entities.map(\.counts.rowsCreated) == [0, 1, 2, 1, 2])
        #expect(report.entities.map(\.counts.rowsWritten) == [3, 2, 2, 2, 2])
        #expect(report.entities.map(\.counts.recordsRead) == [3, 1, 0, 1, 0])
        // Post's links to made rows resolve like any other: 3 authors, 3 tags, 2 cards.
        #expect(report.entities.map(\.counts.referencesResolved) == [8, 0, 0, 0, 2])
    }

    /// A made row holds only its identity: a `required` value without a default, or a required
    /// to-one that no `inverse` fills, is an error at the first reference in source order (of
    /// whichever relationship), which it names.
    @Test func reportsWhatAMadeRowLacksAtItsFirstReference() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            onMissing: create
            entities:
              Comment:
                attributes: { id: integer }
                relationships:
                  tags: { to: Tag, many: true }
                  note: { to: Note }
              Post:
                attributes: { id: integer }
                relationships:
                  author: { to: Author }
                  tags: { to: Tag, many: true }
                  notes: { to: Note, many: true, inverse: post }
              Author:
                attributes: { id: integer, name: { type: string, required: true } }
              Tag:
                identity: slug
                attributes: { slug: string, label: { type: string, required: true }, color: { type: string, required: true, default: grey } }
              Note:
                attributes: { id: integer }
                relationships:
                  post: { to: Post, required: true }
            sources:
              - path: posts.json
                entity: Post
              - path: comments.json
                entity: Comment
            """)
        try workspace.write(
            "dumps/posts.json", #"[{"id": 1, "author_id": 7, "tag_ids": ["c"], "notes": [5]},"# + "\n" + #" {"id": 2, "author_id": 7}]"#)
        try workspace.write("dumps/comments.json", #"[{"id": 1, "tag_ids": ["c", "d"], "note_id": 9}]"#)
        let report = workspace.build()
        let made = "which no record provides; the row onMissing: create makes holds only its identity, but"
        #expect(
            report.messages(workspace) == [
                "dumps/posts.json:1:25: error: Post 1 references Author 7 (author), \(made) 'name' is required  [/0/author_id]",
                "dumps/posts.json:1:40: error: Post 1 references Tag c (tags), \(made) 'label' is required  [/0/tag_ids/0]",
                "dumps/comments.json:1:29: error: Comment 1 references Tag d (tags), \(made) 'label' is required  [/0/tag_ids/1]",
                "dumps/comments.json:1:46: error: Comment 1 references Note 9 (note), \(made) 'post' is required  [/0/note_id]",
            ])
        #expect(report.outcome == .invalid)
        #expect(workspace.files == ["dumps", "mapping.yaml"])
    }

    /// A relationship's `onMissing` beats its entity's, which beats the document's: here Post's
    /// tags drop (the entity's `null`), Post's author fails (its own `error`), Comment's tags make
    /// rows (the document's `create`).
    @Test func followsOnMissingOfTheRelationshipThenTheEntityThenTheDocument() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            onMissing: create
            entities:
              Post:
                onMissing: null
                attributes: { id: integer }
                relationships:
                  tags: { to: Tag, many: true }
                  author: { to: Author, onMissing: error }
              Comment:
                attributes: { id: integer }
                relationships:
                  tags: { to: Tag, many: true }
              Tag:
                identity: slug
                attributes: { slug: string, label: string }
              Author:
                attributes: { id: integer, name: string }
            sources:
              - path: posts.json
                entity: Post
              - path: comments.json
                entity: Comment
              - path: authors.json
                entity: Author
            """)
        try workspace.write("dumps/posts.json", #"[{"id": 1, "tag_ids": ["a"], "author_id": 7}]"#)
        try workspace.write("dumps/comments.json", #"[{"id": 1, "tag_ids": ["b"]}]"#)
        try workspace.write("dumps/authors.json", #"[{"id": 8, "name": "Ann"}]"#)
        let failed = workspace.build()
        #expect(
            failed.messages(workspace) == [
                "dumps/posts.json:1:43: error: Post 1 references Author 7 (author), which no record provides  [/0/author_id]"
            ])
        #expect(failed.outcome == .invalid)
        try workspace.write("dumps/authors.json", #"[{"id": 7, "name": "Blake"}]"#)
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(try workspace.rows("SELECT * FROM tag") == [#"[slug:"b" label:NULL]"#])
        #expect(try workspace.rows("SELECT * FROM post_tags") == [])
        #expect(try workspace.rows("SELECT * FROM comment_tags") == [#"[comment_id:1 tag_id:"b"]"#])
        #expect(report.entities.map(\.counts.referencesDropped) == [1, 0, 0, 0])
        #expect(report.entities.map(\.counts.rowsCreated) == [0, 0, 1, 0])
    }

    /// `create` may make a row only of an identity its attribute's `values` accept: another is an
    /// error at the reference, reported once (not as a missing reference too).
    @Test func refusesToMakeAnIdentityOutsideItsValues() throws {
        let workspace = try Workspace.withDumps()
        try workspace.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              Post:
                attributes: { id: integer }
                relationships:
                  tags: { to: Tag, many: true, onMissing: create }
              Tag:
                identity: slug
                attributes: { slug: { type: string, values: [swift, c] }, label: string }
            sources:
              - path: posts.json
                entity: Post
            """)
        try workspace.write("dumps/posts.json", #"[{"id": 1, "tag_ids": ["swift", "go"]}, {"id": 2, "tag_ids": ["go"]}]"#)
        let report = workspace.build()
        #expect(
            report.messages(workspace) == [
                #"dumps/posts.json:1:33: error: Post 1 references Tag go (tags), which no record provides; onMissing: create cannot make it: 'slug' is "go", expected one of "swift", "c"  [/0/tag_ids/1]"#
            ])
        #expect(report.outcome == .invalid)
    }
}
