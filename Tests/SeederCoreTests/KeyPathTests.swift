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

    @Test func parsesFirstLastAndFile() throws {
        let last = try KeyPath(parsing: "data.@last.id")
        #expect(last.keys == ["data"] && last.collectionOperator == .last && last.operatorKeys == ["id"] && last.fileStar == nil)
        let first = try KeyPath(parsing: "statuses.@first.user.name")
        #expect(first.keys == ["statuses"] && first.collectionOperator == .first && first.operatorKeys == ["user", "name"])
        #expect(first.description == "statuses.@first.user.name")
        let file = try KeyPath(parsing: "@file.2")
        #expect(file == KeyPath(fileStar: 2))
        #expect(file.keys == [] && file.collectionOperator == nil && file.operatorKeys == [] && file.fileStar == 2)
        #expect(file.description == "@file.2")
        #expect(try KeyPath(parsing: "@file.12").fileStar == 12)
        // A literal key is never an operator.
        #expect(KeyPath(literal: ["@file", "1"]).fileStar == nil)
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
        ("statuses.@frist.text", "unknown collection operator '@frist' in 'statuses.@frist.text' (did you mean '@first'?)"),
        ("data.@lst.id", "unknown collection operator '@lst' in 'data.@lst.id' (did you mean '@last'?)"),
        ("data.@last.@first.id", "key path 'data.@last.@first.id' has a second collection operator '@first'"),
        ("@fiel.1", "unknown collection operator '@fiel' in '@fiel.1' (did you mean '@file'?)"),
        ("@file", "'@file' needs the number of a '*' of the source's path after it, as in '@file.1'"),
        ("@file.0", "'@file.0' must name a '*' of the source's path by its number, from 1, as in '@file.1'"),
        ("@file.x", "'@file.x' must name a '*' of the source's path by its number, from 1, as in '@file.1'"),
        ("@file.-1", "'@file.-1' must name a '*' of the source's path by its number, from 1, as in '@file.1'"),
        ("@file.1.id", "'@file.1' ends a key path; '@file.1.id' goes on after it"),
        ("comics.@file.1", "'@file.N' is a key path of its own; 'comics.@file.1' has keys before it"),
    ]

    @Test(arguments: invalid)
    func rejectsMalformedKeyPaths(_ text: String, _ message: String) {
        #expect(throws: KeyPathError(message: message)) { try KeyPath(parsing: text) }
    }
}

/// `KeyPath.jsonValue(in:)`: the one value a key path reaches in a document (a page's cursor, next
/// link or total), absent and null apart, and the key paths that reach no one value.
struct KeyPathJSONValueTests {
    static let page = """
        {"object": "list", "data": [{"id": "cus_1", "n": 1}, {"id": "cus_2", "n": null}, {"id": "cus_3"}],
         "links": {"next": "https://api.test/?page=2", "prev": null}, "meta": {"total": 240}, "empty": [], "nulls": [null],
         "pages": [{"items": [{"id": 1}]}, {"items": [{"id": 2}, {"id": 3}]}]}
        """

    func result(_ path: String, in json: String = page) throws -> String {
        let document = try JSONDocument(parsing: json)
        switch try KeyPath(parsing: path).jsonValue(in: document.root) {
        case .absent: return "absent"
        case .null: return "null"
        case let .value(value): return "\(JSONWriter.minified(value)) at \(value.pointer)"
        case let .failure(message, at): return "failure: \(message)" + (at.map { " at \($0.pointer)" } ?? "")
        }
    }

    static let cases: [(String, String)] = [
        ("data.@last.id", #""cus_3" at /data/2/id"#),
        ("data.@first.id", #""cus_1" at /data/0/id"#),
        ("links.next", #""https://api.test/?page=2" at /links/next"#),
        ("meta.total", "240 at /meta/total"),
        ("data", #"[{"id":"cus_1","n":1},{"id":"cus_2","n":null},{"id":"cus_3"}] at /data"#),
        // Absent and null apart, as a mapping keeps them.
        ("links.last", "absent"),
        ("links.prev", "null"),
        ("links.prev.href", "null"),
        ("object.name", "absent"),
        ("data.@last.n", "absent"),
        ("data.@first.n", "1 at /data/0/n"),
        ("empty.@last.id", "null"),
        ("nulls.@first.id", "null"),
        ("missing.@last.id", "absent"),
        ("pages.@last.items", #"[{"id":2},{"id":3}] at /pages/1/items"#),
        // Alone, the element itself.
        ("data.@first", #"{"id":"cus_1","n":1} at /data/0"#),
        ("data.@last", #"{"id":"cus_3"} at /data/2"#),
        ("empty.@first", "null"),
        // What reaches no one value, or none of the document.
        ("links.@last.href", "failure: '@last' needs an array, found an object at /links"),
        ("data.id", "failure: 'data.id' reaches a value per element of an array, not one value"),
        ("pages.items.@last.id", "failure: 'pages.items.@last.id' reaches a value per element of an array, not one value"),
        ("data.@count", "failure: '@count' computes a value that is not in the document; only '@first' and '@last' reach one"),
        ("data.@max.n", "failure: '@max' computes a value that is not in the document; only '@first' and '@last' reach one"),
        ("@file.1", "failure: '@file.1' reads a record's file name, not a value of the document"),
    ]

    @Test(arguments: cases)
    func reachesOneValue(_ path: String, _ expected: String) throws {
        #expect(try result(path) == expected)
    }

    @Test func tellsTheKeyPathsThatCanReachAValue() throws {
        for path in ["links.next", "data.@last.id", "data.@first.id", "total"] { #expect(try KeyPath(parsing: path).reachesJSONValue) }
        for path in ["data.@count", "data.@sum.n", "@file.1", "data.@unionOfObjects.id"] {
            #expect(try !KeyPath(parsing: path).reachesJSONValue)
        }
    }

    @Test func readsTheRootOfAnArrayBody() throws {
        #expect(try result("@last.id", in: #"[{"id": 1}, {"id": 2}]"#) == "2 at /1/id")
        #expect(try result("@first.id", in: "[]") == "null")
        #expect(try result("id", in: "null") == "null")
        #expect(try result("@first.id", in: "7") == "failure: '@first' needs an array, found a number at ")
    }
}
