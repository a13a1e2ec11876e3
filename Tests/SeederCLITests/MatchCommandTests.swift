import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `match:` through the real binary (docs/mapping.md, Values inside text): ids taken out of URLs
/// for identities, to-ones and to-manys, `@file.N` and numbers, and its errors, located.
struct MatchCommandTests {
    /// SWAPI's records as https://swapi.dev/api/ serves them (people/1 and people/2 whole; the
    /// planet and the films with some of their keys), the data of docs/mapping.md's example.
    static let people = """
        [{"name": "Luke Skywalker", "height": "172", "mass": "77", "hair_color": "blond", "skin_color": "fair", "eye_color": "blue", \
        "birth_year": "19BBY", "gender": "male", "homeworld": "https://swapi.dev/api/planets/1/", \
        "films": ["https://swapi.dev/api/films/1/", "https://swapi.dev/api/films/2/", "https://swapi.dev/api/films/3/", "https://swapi.dev/api/films/6/"], \
        "species": [], "vehicles": ["https://swapi.dev/api/vehicles/14/", "https://swapi.dev/api/vehicles/30/"], \
        "starships": ["https://swapi.dev/api/starships/12/", "https://swapi.dev/api/starships/22/"], \
        "created": "2014-12-09T13:50:51.644000Z", "edited": "2014-12-20T21:17:56.891000Z", "url": "https://swapi.dev/api/people/1/"},
         {"name": "C-3PO", "height": "167", "mass": "75", "hair_color": "n/a", "skin_color": "gold", "eye_color": "yellow", \
        "birth_year": "112BBY", "gender": "n/a", "homeworld": "https://swapi.dev/api/planets/1/", \
        "films": ["https://swapi.dev/api/films/1/", "https://swapi.dev/api/films/2/", "https://swapi.dev/api/films/3/", \
        "https://swapi.dev/api/films/4/", "https://swapi.dev/api/films/5/", "https://swapi.dev/api/films/6/"], \
        "species": ["https://swapi.dev/api/species/2/"], "vehicles": [], "starships": [], \
        "created": "2014-12-10T15:10:51.357000Z", "edited": "2014-12-20T21:17:50.309000Z", "url": "https://swapi.dev/api/people/2/"}]
        """
    static let planets = """
        [{"name": "Tatooine", "climate": "arid", "terrain": "desert", "population": "200000", "url": "https://swapi.dev/api/planets/1/"}]
        """
    static let films = """
        [{"title": "A New Hope", "episode_id": 4, "url": "https://swapi.dev/api/films/1/"},
         {"title": "The Empire Strikes Back", "episode_id": 5, "url": "https://swapi.dev/api/films/2/"},
         {"title": "Return of the Jedi", "episode_id": 6, "url": "https://swapi.dev/api/films/3/"},
         {"title": "The Phantom Menace", "episode_id": 1, "url": "https://swapi.dev/api/films/4/"},
         {"title": "Attack of the Clones", "episode_id": 2, "url": "https://swapi.dev/api/films/5/"},
         {"title": "Revenge of the Sith", "episode_id": 3, "url": "https://swapi.dev/api/films/6/"}]
        """

    /// The mapping of docs/mapping.md's "Values inside text (`match`)", as written.
    static func guideMapping() throws -> String {
        let reference = try String(contentsOfFile: repository + "/docs/mapping.md", encoding: .utf8)
        let section = try #require(reference.components(separatedBy: "### Values inside text (`match`)\n").dropFirst().first)
        return try #require(section.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "\n```").first) + "\n"
    }

    static func swapi(people: String = people) throws -> Workspace {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("swapi.yaml", try guideMapping())
        try scratch.write("dumps/people.json", people)
        try scratch.write("dumps/planets.json", planets)
        try scratch.write("dumps/films.json", films)
        return scratch
    }

    static func rows(_ sql: String, in file: String) throws -> [String] {
        try DatabaseQueue(path: file).read { db in try Row.fetchAll(db, sql: sql).map(\.description) }
    }

    @Test func theGuidesSWAPIMappingKeysRecordsAndReferencesByTheIdsInTheirURLs() async throws {
        let scratch = try Self.swapi()
        let built = try await seeder(["build", "swapi.yaml", "dumps", "-o", "swapi.sqlite"], in: scratch.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(!built.stderr.contains("error"), "\(built.stderr)")
        let file = scratch.path("swapi.sqlite")
        #expect(
            try Self.rows("SELECT * FROM person ORDER BY id", in: file) == [
                #"[id:1 name:"Luke Skywalker" homeworld_id:1]"#, #"[id:2 name:"C-3PO" homeworld_id:1]"#,
            ])
        #expect(try Self.rows("SELECT * FROM planet", in: file) == [#"[id:1 name:"Tatooine"]"#])
        #expect(try Self.rows("SELECT id, title FROM film WHERE id = 4", in: file) == [#"[id:4 title:"The Phantom Menace"]"#])
        #expect(
            try Self.rows("SELECT person_id, film_id FROM person_films ORDER BY person_id, film_id", in: file)
                == ["[person_id:1 film_id:1]", "[person_id:1 film_id:2]", "[person_id:1 film_id:3]", "[person_id:1 film_id:6]"]
                + (1...6).map { "[person_id:2 film_id:\($0)]" })
        // The foreign keys are the ids: every one resolves.
        #expect(try Self.rows("PRAGMA foreign_key_check", in: file) == [])
        // The seed's description of its mapping has the patterns: a changed one changes it.
        let described = try #require(
            try await DatabaseQueue(path: file).read { db in
                try String.fetchOne(db, sql: "SELECT value FROM seed_metadata WHERE key = 'mapping'")
            })
        #expect(described.contains(#""from":"url","match":"/(\\d+)/?$","name":"id""#), "\(described)")
        #expect(described.contains(#""many":true,"match":"/(\\d+)/?$","name":"films""#), "\(described)")
    }

    @Test func everyValueThePatternDoesNotMatchIsAnErrorAtItNamingPatternAndValue() async throws {
        let broken = Self.people
            .replacingOccurrences(of: #""url": "https://swapi.dev/api/people/2/""#, with: #""url": "https://swapi.dev/api/people/""#)
            .replacingOccurrences(of: #""homeworld": "https://swapi.dev/api/planets/1/", "#, with: #""homeworld": "Tatooine", "#)
            .replacingOccurrences(of: #""https://swapi.dev/api/films/5/""#, with: #""https://swapi.dev/api/films/five/""#)
        let scratch = try Self.swapi(people: broken)
        let built = try await seeder(["build", "swapi.yaml", "dumps", "-o", "swapi.sqlite"], in: scratch.root)
        #expect(built.status == 1)
        #expect(built.stdout == "")
        let errors = built.stderr.split(separator: "\n").filter { $0.contains(": error: ") || $0.hasPrefix("build failed") }
        #expect(
            errors == [
                #"dumps/people.json:1:180: error: Person 1: 'homeworld' is "Tatooine", which 'match' '/(\d+)/?$' does not match (an id of Planet)  [/0/homeworld]"#,
                #"dumps/people.json:2:573: error: Person: 'id' is "https://swapi.dev/api/people/", which 'match' '/(\d+)/?$' does not match  [/1/url]"#,
                #"dumps/people.json:2:171: error: Person: 'homeworld' is "Tatooine", which 'match' '/(\d+)/?$' does not match (an id of Planet)  [/1/homeworld]"#,
                #"dumps/people.json:2:329: error: Person: 'films' is "https://swapi.dev/api/films/five/", which 'match' '/(\d+)/?$' does not match (an id of Film)  [/1/films/4]"#,
                // The warnings: keys of SWAPI's records the mapping does not read.
                "build failed: 4 errors, 3 warnings; nothing was written",
            ])
        #expect(!FileManager.default.fileExists(atPath: scratch.path("swapi.sqlite")))
    }

    @Test func readsFileStarsNumbersAndStringsAsTheyAreWritten() async throws {
        let scratch = try Workspace(directories: ["dumps/releases"])
        try scratch.write(
            "releases.yaml",
            """
            seeder: 1
            entities:
              Release:
                attributes:
                  id: { type: integer, from: "@file.1", match: '^release-(\\d+)$' }
                  year: { type: integer, from: date, match: '^(\\d{4})' }
                  code: { type: string, match: '[A-Z]{3}' }
                  channel: { type: string, from: code, match: '(?i)^(beta|stable)', values: [BETA, stable] }
                  note: { type: string, match: '(\\d+)' }
            sources:
              - path: releases/*.json
                entity: Release

            """)
        try scratch.write("dumps/releases/release-7.json", #"{"date": 20240101, "code": "BETA-XYZ-9", "note": null}"#)
        try scratch.write("dumps/releases/release-12.json", #"{"date": "1999-12-31", "code": "stable/ABC"}"#)
        let built = try await seeder(["build", "releases.yaml", "dumps", "-o", "releases.sqlite"], in: scratch.root)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(
            try Self.rows("SELECT * FROM release ORDER BY id", in: scratch.path("releases.sqlite")) == [
                #"[id:7 year:2024 code:"BET" channel:"BETA" note:NULL]"#,
                #"[id:12 year:1999 code:"ABC" channel:"stable" note:NULL]"#,
            ])
    }

    /// Each row: the attribute or relationship as written, the message, its column.
    static let mappingErrors: [(String, String, Int)] = [
        ("homeworld: { to: Planet, match: '/(\\d+/' }", #"invalid 'match' pattern '/(\d+/': missing closing parenthesis at offset 6"#, 39),
        (
            "homeworld: { to: Planet, match: '/(\\d+)/(\\d+)' }",
            #"invalid 'match' pattern '/(\d+)/(\d+)': it has 2 capture groups; the value is the first group's text, so it may have one (write the others '(?:...)')"#,
            39
        ),
        ("homeworld: { to: Planet, match: [1] }", "'match' must be a string, found a list", 39),
        ("homeworld: { to: Planet, match: '' }", "'match' is empty; write the pattern whose match, or first group, is the value", 39),
        ("homeworld: { to: Planet, mach: '/(\\d+)/' }", "unknown key 'mach' in relationship 'Person.homeworld'; did you mean 'match'?", 32),
    ]

    @Test(arguments: mappingErrors)
    func aPatternThatCannotBeIsAMappingErrorAtItsNode(relationship: String, message: String, column: Int) async throws {
        let scratch = try Self.swapi()
        let mapping = try Self.guideMapping()
        let written = "homeworld: { to: Planet, match: '/(\\d+)/?$' }                 # -> Planet 1"
        try #require(mapping.contains(written))
        try scratch.write("swapi.yaml", mapping.replacingOccurrences(of: written, with: relationship))
        let built = try await seeder(["build", "swapi.yaml", "dumps", "-o", "swapi.sqlite"], in: scratch.root)
        #expect(built.status == 1)
        #expect(built.stderr.hasPrefix("swapi.yaml:8:\(column): error: \(message)\n"), "\(built.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("swapi.sqlite")))
    }

    @Test func aJSONAttributeCannotMatch() async throws {
        let scratch = try Self.swapi()
        let mapping = try Self.guideMapping().replacingOccurrences(of: "title: string", with: "title: { type: json, match: '.' }")
        try scratch.write("swapi.yaml", mapping)
        let checked = try await seeder(["validate", "swapi.yaml", "dumps"], in: scratch.root)
        #expect(checked.status == 1)
        #expect(
            checked.stderr.hasPrefix(
                "swapi.yaml:17:28: error: 'match' takes text out of a value; 'title' is json, which keeps values whole\n"),
            "\(checked.stderr)")
    }

    /// A pattern that backtracks without end on a hostile value stops at PCRE2's match limit: an
    /// error at the record, in well under a minute, never a hang (docs/mapping.md, Values inside
    /// text).
    @Test func aPatternThatBacktracksWithoutEndStopsAtTheMatchLimit() async throws {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write(
            "mapping.yaml",
            """
            seeder: 1
            entities:
              P:
                attributes:
                  id: integer
                  name: { type: string, match: '^(\\w+\\s?)*$' }

            """)
        try scratch.write("dumps/p.json", #"[{"id": 1, "name": "\#(String(repeating: "a", count: 20_000))!"}]"#)
        let built = try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root)
        #expect(built.ended - built.started < .seconds(60))
        #expect(built.status == 1)
        #expect(built.stderr.contains(#"which 'match' '^(\w+\s?)*$' could not search: match limit exceeded  [/0/name]"#), "\(built.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("seed.sqlite")))
    }
}
