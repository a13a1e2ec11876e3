import Testing

@testable import SeederCore

struct NamingTests {
    static let snakeCases: [(String, String)] = [
        ("ArticleComment", "article_comment"), ("bodyText", "body_text"), ("assignedUser", "assigned_user"),
        ("URLString", "url_string"), ("userID", "user_id"), ("sha256Sum", "sha256_sum"), ("id", "id"),
        ("already_snake", "already_snake"), ("HTTPServer2Config", "http_server2_config"), ("A", "a"),
    ]

    @Test(arguments: snakeCases)
    func makesSnakeCaseNames(_ name: String, _ expected: String) {
        #expect(Naming.snakeCase(name) == expected)
    }

    static let singulars: [(String, String)] = [
        ("products", "product"), ("children", "child"), ("people", "person"), ("categories", "category"),
        ("addresses", "address"), ("statuses", "status"), ("series", "series"), ("boxes", "box"), ("wolves", "wolf"),
        ("knives", "knife"), ("archives", "archive"), ("analyses", "analysis"), ("matrices", "matrix"),
        ("vertices", "vertex"), ("octopi", "octopus"), ("viruses", "virus"), ("quizzes", "quiz"), ("oxen", "ox"),
        ("mice", "mouse"), ("movies", "movie"), ("shoes", "shoe"), ("heroes", "hero"), ("buses", "bus"),
        ("keys", "key"), ("databases", "database"), ("news", "news"), ("friends", "friend"), ("tags", "tag"),
        ("relatedPeople", "relatedPerson"), ("related_products", "related_product"), ("Images", "Image"),
        ("status", "status"), ("product", "product"), ("menus", "menu"), ("data", "datum"), ("axes", "axis"),
    ]

    @Test(arguments: singulars)
    func singularizesLikeRails(_ plural: String, _ singular: String) {
        #expect(Naming.singular(plural) == singular)
    }

    @Test func comparesJSONKeysIgnoringCaseAndUnderscores() {
        #expect(Naming.lookupKey("body_text") == Naming.lookupKey("bodyText"))
        #expect(Naming.lookupKey("BodyText") == "bodytext")
        #expect(Naming.lookupKey("__Body__Text") == "bodytext")
        #expect(Naming.lookupKey("body-text") != Naming.lookupKey("bodyText"))
    }

    @Test func checksIdentifiers() {
        #expect(Naming.isIdentifier("_private1"))
        #expect(Naming.isIdentifier("bodyText"))
        #expect(!Naming.isIdentifier("1st"))
        #expect(!Naming.isIdentifier("first-name"))
        #expect(!Naming.isIdentifier("naïve"))
        #expect(!Naming.isIdentifier(""))
    }

    @Test func suggestsTheNearestName() {
        #expect(closestMatch(to: "identiy", in: MappingLoader.Keys.entity) == "identity")
        #expect(closestMatch(to: "strng", in: AttributeType.allCases.map(\.rawValue)) == "string")
        #expect(closestMatch(to: "zzzzzz", in: AttributeType.allCases.map(\.rawValue)) == nil)
    }
}

struct KeyPathTests {
    @Test func parsesKeysAndOperators() throws {
        #expect(try KeyPath(parsing: "thumbnail.path") == KeyPath(literal: ["thumbnail", "path"]))
        let average = try KeyPath(parsing: "transactions.@avg.amount")
        #expect(average.keys == ["transactions"] && average.collectionOperator == .avg && average.operatorKeys == ["amount"])
        let count = try KeyPath(parsing: "@count")
        #expect(count.keys == [] && count.collectionOperator == .count)
        #expect(average.description == "transactions.@avg.amount")
        #expect(KeyPath(literal: ["a.b", "@count"]).collectionOperator == nil)
    }

    static let invalid: [(String, String)] = [
        ("a..b", "key path 'a..b' has an empty key"),
        ("a.", "key path 'a.' has an empty key"),
        ("tasks.@cont", "unknown collection operator '@cont' in 'tasks.@cont' (did you mean '@count'?)"),
        ("tasks.@count.id", "'@count' ends a key path; 'tasks.@count.id' goes on after it"),
        ("tasks.@sum", "'@sum' needs a key after it, as in '@sum.amount'"),
        ("a.@sum.b.@count", "key path 'a.@sum.b.@count' has a second collection operator '@count'"),
    ]

    @Test(arguments: invalid)
    func rejectsMalformedKeyPaths(_ text: String, _ message: String) {
        #expect(throws: KeyPathError(message: message)) { try KeyPath(parsing: text) }
    }
}

struct DecimalNumberTests {
    @Test func readsAndWritesCanonicalDecimals() {
        let cases: [(String, String)] = [
            ("0", "0"), ("-0", "0"), ("5013.260", "5013.26"), ("1.50e3", "1500"), ("1e-3", "0.001"), ("-12.5E+1", "-125"),
            ("123456789012345678901234567890.5", "123456789012345678901234567890.5"), ("0.000", "0"), ("100", "100"),
        ]
        for (text, canonical) in cases {
            let number = DecimalNumber(text: Array(text.utf8))
            #expect(number?.description == canonical, "\(text)")
            #expect(number?.canonicalLength == canonical.count, "\(text)")
        }
        #expect(DecimalNumber(text: Array("01".utf8)) == nil)
        #expect(DecimalNumber(text: Array("1.".utf8)) == nil)
        #expect(DecimalNumber(text: Array("1e999999999999".utf8))?.canonicalLength ?? 0 > 1000)
    }

    @Test func addsDividesAndComparesExactly() {
        func d(_ text: String) -> DecimalNumber { DecimalNumber(text: Array(text.utf8))! }
        #expect((d("0.1") + d("0.2")).description == "0.3")
        #expect((d("12.50") + d("-2.25")).description == "10.25")
        #expect((d("-5") + d("3")).description == "-2")
        #expect(d("110.25").divided(by: 3).description == "36.75")
        #expect(d("1").divided(by: 3).description == "0.33333333333333333333")
        #expect(d("2").divided(by: 3).description == "0.66666666666666666667")
        #expect(d("-2.25") < d("1") && d("-3") < d("-2.5") && d("10") > d("9.99") && !(d("1.0") < d("1")))
        #expect(d("9223372036854775807").int64 == Int64.max && d("9223372036854775808").int64 == nil)
        #expect(d("-9223372036854775808").int64 == Int64.min && d("1.5").int64 == nil)
    }
}
