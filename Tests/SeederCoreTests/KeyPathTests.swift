import Testing

@testable import SeederCore

struct KeyPathTests {
    @Test func parsesKeysAndOperators() throws {
        #expect(try KeyPath(parsing: "thumbnail.path") == KeyPath(literal: ["thumbnail", "path"]))
        let average = try KeyPath(parsing: "transactions.@avg.amount")
        #expect(average.keys == ["transactions"] && average.collectionOperator == .avg && average.operatorKeys == ["amount"])
        let count = try KeyPath(parsing: "@count")
        #expect(count.keys == [] && count.collectionOperator == .count)
        #expect(average.description == "transactions.@avg.amount")
        #expect(KeyPath(literal: ["a.b", "@count"]).collectionOperator == nil)
        let union = try KeyPath(parsing: "mediaGroups.@unionOfArrays.contents")
        #expect(union.keys == ["mediaGroups"] && union.collectionOperator == .unionOfArrays && union.operatorKeys == ["contents"])
        let distinct = try KeyPath(parsing: "groups.@distinctUnionOfArrays.items.id")
        #expect(distinct.collectionOperator == .distinctUnionOfArrays && distinct.operatorKeys == ["items", "id"])
    }

    @Test func parsesFirstAndLast() throws {
        let last = try KeyPath(parsing: "data.@last.id")
        #expect(last.keys == ["data"] && last.collectionOperator == .last && last.operatorKeys == ["id"])
        let first = try KeyPath(parsing: "statuses.@first.user.name")
        #expect(first.keys == ["statuses"] && first.collectionOperator == .first && first.operatorKeys == ["user", "name"])
        #expect(first.description == "statuses.@first.user.name")
    }

    static let invalid: [(String, String)] = [
        ("a..b", "key path 'a..b' has an empty key"),
        ("a.", "key path 'a.' has an empty key"),
        ("tasks.@cont", "unknown collection operator '@cont' in 'tasks.@cont' (did you mean '@count'?)"),
        ("tasks.@count.id", "'@count' ends a key path; 'tasks.@count.id' goes on after it"),
        ("tasks.@sum", "'@sum' needs a key after it, as in '@sum.amount'"),
        ("groups.@unionOfArrays", "'@unionOfArrays' needs a key after it, as in '@unionOfArrays.amount'"),
        (
            "groups.@unionOfArray.items",
            "unknown collection operator '@unionOfArray' in 'groups.@unionOfArray.items' (did you mean '@unionOfArrays'?)"
        ),
        (
            "groups.@distinctUnionOfArray.items",
            "unknown collection operator '@distinctUnionOfArray' in 'groups.@distinctUnionOfArray.items' (did you mean '@distinctUnionOfArrays'?)"
        ),
        ("a.@sum.b.@count", "key path 'a.@sum.b.@count' has a second collection operator '@count'"),
        ("statuses.@first", "'@first' needs a key after it, as in '@first.amount'"),
        ("data.@last", "'@last' needs a key after it, as in '@last.amount'"),
        ("statuses.@frist.text", "unknown collection operator '@frist' in 'statuses.@frist.text' (did you mean '@first'?)"),
        ("data.@lst.id", "unknown collection operator '@lst' in 'data.@lst.id' (did you mean '@last'?)"),
        ("data.@last.@first.id", "key path 'data.@last.@first.id' has a second collection operator '@first'"),
    ]

    @Test(arguments: invalid)
    func rejectsMalformedKeyPaths(_ text: String, _ message: String) {
        #expect(throws: KeyPathError(message: message)) { try KeyPath(parsing: text) }
    }
}
