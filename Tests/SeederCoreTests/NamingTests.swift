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
        // The folders of a service fetched a file a record (PokéAPI): the entity each names.
        ("abilities", "ability"), ("species", "species"), ("types", "type"), ("moves", "move"), ("berries", "berry"),
        ("pokemon", "pokemon"), ("indices", "index"), ("pokemon-species", "pokemon-species"),
        ("genera", "genus"), ("pokemonGenera", "pokemonGenus"), ("corpora", "corpus"), ("cameras", "camera"), ("eras", "era"),
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
