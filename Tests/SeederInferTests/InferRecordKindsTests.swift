import Foundation
import SeederTestSupport
import Testing

@testable import SeederInfer

/// What `seeder infer` makes of API records (docs/commands.md, `seeder infer`): one entity per
/// kind of record whatever key embeds it, keys that never held a value drafted so the next
/// value builds, and objects without identity kept in their owner's row.
@Suite struct InferRecordKindsTests {
    /// An account as GitHub embeds it: the same keys wherever it is.
    static func account(_ id: Int) -> String {
        #"{"login": "user\#(id)", "id": \#(id), "url": "https://api.example.com/users/user\#(id)", "site_admin": false}"#
    }

    static func issue(_ id: Int, user: Int, assignee: Int?, closedBy: Int?) -> String {
        let assignee = assignee.map(account) ?? "null"
        let closedBy = closedBy.map(account) ?? "null"
        return #"{"id": \#(id), "title": "Issue \#(id)", "user": \#(account(user)), "assignee": \#(assignee), "closed_by": \#(closedBy)}"#
    }

    /// `user`, `assignee` and `closed_by` hold one kind of record: one `User`, every
    /// relationship to it, a row per account.
    @Test func oneKindOfRecordUnderSeveralKeysIsOneEntity() throws {
        let issues = [
            Self.issue(1, user: 1, assignee: 2, closedBy: nil), Self.issue(2, user: 2, assignee: nil, closedBy: 3),
            Self.issue(3, user: 1, assignee: 1, closedBy: 1),
        ]
        let (draft, workspace) = try inferDraft(["issues.json": "[" + issues.joined(separator: ",\n") + "]"])
        #expect(draftValue(draft, "user") == "user: { to: User }")
        #expect(draftValue(draft, "assignee") == "assignee: { to: User }")
        #expect(draftValue(draft, "closedBy") == "closedBy: { to: User }")
        #expect(!draft.contains("Assignee:") && !draft.contains("ClosedBy:"))
        #expect(
            draft.contains(
                "    # one entity for the records under 'user', 'assignee' and 'closed_by': the same 4 keys and identity ('id'), "
                    + "2 identities under more than one of them with the same record\n"), "\(draft)")
        #expect(try buildDraft(draft, in: workspace) == ["Issue": 3, "User": 3])
        #expect(try seedColumn("SELECT closed_by_id FROM issue ORDER BY id", in: workspace) == [nil, "3", "1"])
    }

    /// The name is the key of the most records, or a source's: `users.json` beside `author`s.
    @Test func theMergedEntityIsNamedBySourceElseByItsMostRecords() throws {
        let posts = (1...3).map { #"{"id": \#($0), "author": \#(Self.account($0 % 2 + 1)), "editor": \#(Self.account(1))}"# }
        let (byCount, _) = try inferDraft(["posts.json": "[" + posts.joined(separator: ",") + "]"])
        #expect(draftValue(byCount, "author") == "author: { to: Author }")
        #expect(draftValue(byCount, "editor") == "editor: { to: Author }")
        let (bySource, workspace) = try inferDraft([
            "posts.json": "[" + posts.joined(separator: ",") + "]", "users.json": "[\(Self.account(1)), \(Self.account(2))]",
        ])
        #expect(draftValue(bySource, "author") == "author: { to: User }")
        #expect(draftValue(bySource, "editor") == "editor: { to: User }")
        #expect(try buildDraft(bySource, in: workspace) == ["Post": 3, "User": 2])
    }

    /// Records that only look alike stay apart: identities that never meet, identities that
    /// collide with other contents, other keys.
    @Test func recordsThatOnlyLookAlikeStayApart() throws {
        let never = #"[{"id": 1, "label": {"id": 10, "name": "bug"}, "milestone": {"id": 20, "name": "v1"}}]"#
        let (apart, _) = try inferDraft(["issues.json": never])
        #expect(draftValue(apart, "label") == "label: { to: Label }")
        #expect(draftValue(apart, "milestone") == "milestone: { to: Milestone }")
        let colliding = #"""
            [{"id": 1, "label": {"id": 10, "name": "bug"}, "milestone": {"id": 10, "name": "bug"}},
             {"id": 2, "label": {"id": 11, "name": "docs"}, "milestone": {"id": 11, "name": "v1"}}]
            """#
        let (collide, _) = try inferDraft(["issues.json": colliding])
        #expect(draftValue(collide, "milestone") == "milestone: { to: Milestone }")
        let otherKeys = #"[{"id": 1, "user": {"id": 5, "login": "a"}, "author": {"id": 5, "email": "a@example.com"}}]"#
        let (other, _) = try inferDraft(["commits.json": otherKeys])
        #expect(draftValue(other, "author") == "author: { to: Author }")
    }

    /// A key null or `[]` in every record is `json`, said once: the next dump, where it holds an
    /// object, a string or elements, builds with the same draft.
    @Test func keysThatNeverHeldAValueTakeTheirFirstOne() throws {
        let (draft, workspace) = try inferDraft([
            "issues.json": #"[{"id": 1, "milestone": null, "labels": [], "body": null}, {"id": 2, "milestone": null, "labels": []}]"#
        ])
        #expect(draftValue(draft, "milestone") == "milestone: json")
        #expect(draftLine(draft, "milestone").hasSuffix("# 2 of 2; 2 null; json: null in every record"))
        #expect(draftLine(draft, "labels").hasSuffix("# 2 of 2; json: an empty array in every record"))
        #expect(
            draft.contains(
                "    # 'milestone', 'labels' and 'body' never held a value (null or [] in every record): json, so the first one builds, "
                    + "whatever it is; give each its type once it has one\n"))
        try workspace.write(
            "dumps/issues.json",
            #"[{"id": 1, "milestone": {"id": 7, "title": "v2"}, "labels": [{"id": 3}], "body": "Text"}, {"id": 2, "milestone": null, "labels": []}]"#
        )
        #expect(try buildDraft(draft, in: workspace) == ["Issue": 2])
        #expect(try seedColumn("SELECT milestone FROM issue ORDER BY id", in: workspace) == [#"{"id":7,"title":"v2"}"#, nil])
    }

    /// An object without identity is columns of its owner, read through it, nested ones too;
    /// arrays of such objects stay rows of their own.
    @Test func objectsWithoutIdentityAreColumnsOfTheirOwner() throws {
        let issues = (1...3).map { id in
            #"{"id": \#(id), "reactions": {"total_count": \#(id), "+1": 1, "stats": {"seen": 4}}, "events": [{"kind": "open"}]}"#
        }
        let (draft, workspace) = try inferDraft(["issues.json": "[" + issues.joined(separator: ",") + "]"])
        #expect(
            draftValue(draft, "reactionsTotalCount")
                == "reactionsTotalCount: { type: integer, from: reactions.total_count, required: true }")
        #expect(draftValue(draft, "reactionsPlus1") == #"reactionsPlus1: { type: integer, from: ["reactions", "+1"], required: true }"#)
        #expect(
            draftValue(draft, "reactionsStatsSeen") == "reactionsStatsSeen: { type: integer, from: reactions.stats.seen, required: true }")
        #expect(
            draft.contains(
                "    # 'reactions' has no identity: its keys are columns here (reactionsTotalCount, reactionsPlus1, reactionsStatsSeen), "
                    + "not rows of a table of their own\n"))
        #expect(draftValue(draft, "events") == "events: { to: Event, many: true, inverse: issue, ordered: true }")
        #expect(!draft.contains("Reaction:"))
        #expect(try buildDraft(draft, in: workspace) == ["Issue": 3, "Event": 3])
        #expect(try seedColumn("SELECT reactions_total_count FROM issue ORDER BY id", in: workspace) == ["1", "2", "3"])
    }
}
