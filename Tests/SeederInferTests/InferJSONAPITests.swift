import Foundation
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederInfer
@testable import SeederStore

/// JSON:API documents (docs/commands.md, JSON:API): an entity per resource `type`, its
/// `attributes` read through that object, its relationships' linkage read as references, and a
/// source per place of resources choosing the entity by `type`; parsed whole and streamed alike.
struct InferJSONAPITests {
    static let limits = InferObjectRootTests.limits

    /// Two pages of articles, each including its authors and comments, and a last page of none.
    static let pages = [
        "articles-page-1.json": #"""
        {"data": [
          {"type": "articles", "id": "1", "attributes": {"title": "JSON:API paints my bikeshed!", "min-version": "1.10"},
           "relationships": {"author": {"links": {"related": "/articles/1/author"}, "data": {"type": "people", "id": "9"}},
                             "comments": {"data": [{"type": "comments", "id": "5"}, {"type": "comments", "id": "12"}]},
                             "tags": {"links": {"related": "/articles/1/tags"}}},
           "links": {"self": "http://example.com/articles/1"}},
          {"type": "articles", "id": "2", "attributes": {"title": "Rails is Omakase", "min-version": "2.0"},
           "relationships": {"author": {"data": {"type": "people", "id": "9"}}, "comments": {"data": []},
                             "tags": {"links": {"related": "/articles/2/tags"}}},
           "links": {"self": "http://example.com/articles/2"}}],
         "included": [
          {"type": "people", "id": "9", "attributes": {"first-name": "Dan", "twitter": "dgeb"}},
          {"type": "comments", "id": "5", "attributes": {"body": "First!"}, "relationships": {"author": {"data": {"type": "people", "id": "2"}}}},
          {"type": "comments", "id": "12", "attributes": {"body": "I like XML better"}, "relationships": {"author": {"data": {"type": "people", "id": "9"}}}}],
         "links": {"next": "http://example.com/articles?page[number]=2"}, "meta": {"total": 3}}
        """#,
        "articles-page-2.json": #"""
        {"data": [{"type": "articles", "id": "3", "attributes": {"title": "Nulls", "min-version": "3.0"},
                   "relationships": {"author": {"data": {"type": "people", "id": "2"}}, "comments": {"data": [{"type": "comments", "id": "13"}]}}}],
         "included": [{"type": "people", "id": "2", "attributes": {"first-name": "Ada", "twitter": null}},
                      {"type": "comments", "id": "13", "attributes": {"body": "Why?"}, "relationships": {"author": {"data": null}}}],
         "links": {"next": "http://example.com/articles?page[number]=3"}}
        """#,
        "articles-page-3.json": #"{"data": [], "links": {"next": null}, "meta": {"total": 3}}"#,
    ]

    /// Every type an entity, every relationship with data a reference, the pages one glob.
    @Test(arguments: limits) func resourcesBecomeAnEntityPerType(limit: Int) throws {
        let (draft, workspace) = try InferObjectRootTests().draft(Self.pages, limit: limit)
        #expect(draftValue(draft, "title") == "title: { type: string, from: attributes.title, required: true }")
        #expect(draftValue(draft, "minVersion") == "minVersion: { type: string, from: attributes.min-version, required: true }")
        #expect(draftValue(draft, "firstName") == "firstName: { type: string, from: attributes.first-name, required: true }")
        #expect(draftValue(draft, "author") == "author: { to: Person, from: relationships.author.data.id }")
        #expect(draftValue(draft, "comments") == "comments: { to: Comment, many: true, from: relationships.comments.data.id }")
        #expect(draftValue(draft, "linksSelf") == "linksSelf: { type: url, from: links.self }")
        #expect(draft.contains("    # relationships 'tags' hold links only, no resource linkage ('data'): left out"))
        #expect(
            draft.contains(
                """
                  - path: articles-page-*.json              # 3 files, 3 resource objects
                    entity: { by: type, cases: { articles: Article } }
                    keyPath: data
                  - path: articles-page-1.json              # 3 resource objects of 2 types
                    entity: { by: type, cases: { people: Person, comments: Comment } }
                    keyPath: included
                  - path: articles-page-2.json              # 2 resource objects of 2 types
                    entity: { by: type, cases: { people: Person, comments: Comment } }
                    keyPath: included
                """), "\(draft)")
        #expect(try buildDraft(draft, in: workspace) == ["Article": 3, "Person": 2, "Comment": 3])
        #expect(
            try seedColumn("SELECT id || ' ' || title || ' ' || author_id FROM article ORDER BY id", in: workspace) == [
                "1 JSON:API paints my bikeshed! 9", "2 Rails is Omakase 9", "3 Nulls 2",
            ])
        #expect(
            try seedColumn("SELECT article_id || ' ' || comment_id FROM article_comments ORDER BY 1", in: workspace) == [
                "1 12", "1 5", "3 13",
            ])
        #expect(
            try seedColumn("SELECT id || ' ' || coalesce(author_id, '-') FROM comment ORDER BY id", in: workspace) == [
                "12 9", "13 -", "5 2",
            ])
    }

    /// A linkage to several types is a selector; to a type of which no dump holds a resource, its
    /// ids are kept; to resources of a known type that no dump holds, rows made from the link.
    @Test(arguments: limits) func linkagesBeyondTheDumps(limit: Int) throws {
        let likes = #"""
            {"data": [
              {"type": "likes", "id": "l1", "relationships": {
                 "subject": {"data": {"type": "photos", "id": "p1"}}, "owner": {"data": {"type": "accounts", "id": "a1"}},
                 "labels": {"data": [{"type": "labels", "id": "x"}, {"type": "labels", "id": "y"}]}}},
              {"type": "likes", "id": "l2", "relationships": {
                 "subject": {"data": {"type": "videos", "id": "v1"}}, "owner": {"data": {"type": "accounts", "id": "a2"}},
                 "labels": {"data": []}}},
              {"type": "likes", "id": "l3", "relationships": {
                 "subject": {"data": {"type": "photos", "id": "p9"}}, "owner": {"data": null}, "labels": {"data": []}}}],
             "included": [{"type": "photos", "id": "p1", "attributes": {"url": "https://example.com/p1.jpg"}},
                          {"type": "videos", "id": "v1", "attributes": {"url": "https://example.com/v1.mp4"}}]}
            """#
        let (draft, workspace) = try InferObjectRootTests().draft(["likes.json": likes], limit: limit)
        #expect(
            draftValue(draft, "subject")
                == "subject: { to: { by: type, cases: { photos: Photo, videos: Video } }, from: relationships.subject.data, onMissing: create }"
        )
        #expect(draftValue(draft, "ownerId") == "ownerId: { type: string, from: relationships.owner.data.id }")
        #expect(draftValue(draft, "labelIds") == "labelIds: { type: json, from: relationships.labels.data.id }")
        // Photo p9 is made from the link alone: nothing of a photo can be required.
        #expect(draftValue(draft, "url") == "url: { type: url, from: attributes.url }")
        #expect(try buildDraft(draft, in: workspace) == ["Like": 3, "Photo": 2, "Video": 1])
        #expect(
            try seedColumn(
                "SELECT id || ' ' || subject_type || ' ' || subject_id || ' ' || coalesce(owner_id, '-') FROM \"like\" ORDER BY id",
                in: workspace)
                == ["l1 Photo p1 a1", "l2 Video v1 a2", "l3 Photo p9 -"])
        #expect(try seedColumn("SELECT label_ids FROM \"like\" ORDER BY id", in: workspace) == [#"["x","y"]"#, "[]", "[]"])
    }

    /// `{"data": [...]}` wraps the records of many APIs that are not JSON:API: records with keys of
    /// their own beside `type` and `id` are read as any page's.
    @Test(arguments: limits) func dataOfOtherAPIsIsNoJSONAPI(limit: Int) throws {
        let users =
            #"{"data": [{"type": "user", "id": "1", "name": "Ada"}, {"type": "user", "id": "2", "name": "Dan"}], "meta": {"total": 2}}"#
        let (draft, workspace) = try InferObjectRootTests().draft(["users.json": users], limit: limit)
        #expect(!draft.contains("by: type"))
        #expect(draftValue(draft, "name") == "name: { type: string, required: true }")
        #expect(try buildDraft(draft, in: workspace) == ["User": 2])
    }
}
