import Testing

@testable import SeederCore

/// `search:` and `compatibility:` of docs/mapping.md (Search, Compatibility): what a valid one
/// loads as, and each problem at its node with its exact message.
struct SearchMappingTests {
    /// An entity `Pod` whose `search:` is on line 7, its value from column 13.
    static func pod(search: String, head: String = "") -> String {
        head + """
            seeder: 1
            entities:
              Pod:
                identity: name
                attributes: { name: string, summary: string, downloads: integer, homepage: url }
                relationships: { owner: { to: Pod } }
                search: \(search)

            """
    }

    @Test func loadsFieldsEngineTokenizerAndSync() throws {
        let (mapping, diagnostics) = loadMapping(
            Self.pod(search: #"{ fields: [summary, name], engine: fts4, tokenizer: "unicode61 remove_diacritics 0", sync: triggers }"#))
        #expect(diagnostics == [])
        let search = try #require(mapping?.entities[0].search)
        #expect(search.fields == [1, 0])
        #expect(search.engine == .fts4)
        #expect(search.triggers)
        #expect(search.tokenizer?.argument(engine: .fts4) == #"tokenize=unicode61 "remove_diacritics=0""#)
        #expect(search.location.description == "mapping.yaml:7:5")
        #expect(mapping?.compatibility == SQLiteVersion(3, 22, 0))
    }

    @Test func defaultsToFTS5WithoutTriggersAndWritesItsTokenizerInFTS5Syntax() throws {
        let (mapping, diagnostics) = loadMapping(
            Self.pod(
                search: #"{ fields: [name], tokenizer: "porter unicode61 remove_diacritics 2 tokenchars -_" }"#,
                head: "compatibility: { sqlite: \"3.27.0\" }\n"))
        #expect(diagnostics == [])
        let search = try #require(mapping?.entities[0].search)
        #expect(search.engine == .fts5)
        #expect(!search.triggers)
        #expect(search.tokenizer?.argument(engine: .fts5) == #"tokenize = "porter unicode61 remove_diacritics 2 tokenchars '-_'""#)
        #expect(mapping?.compatibility == SQLiteVersion(3, 27, 0))
    }

    struct Case: Sendable, CustomStringConvertible {
        var yaml: String
        var errors: [String]
        var description: String { errors.first ?? "" }
    }

    static let cases: [Case] = [
        Case(
            yaml: pod(search: "{ fields: [nme] }"),
            errors: ["mapping.yaml:7:24: error: unknown attribute 'nme' in 'fields' of 'search' (did you mean 'name'?)"]),
        Case(
            yaml: pod(search: "{ fields: [name, owner] }"),
            errors: ["mapping.yaml:7:30: error: 'owner' is a relationship of entity 'Pod'; 'search' indexes its text attributes"]),
        Case(
            yaml: pod(search: "{ fields: [downloads] }"),
            errors: ["mapping.yaml:7:24: error: 'downloads' is integer; 'search' indexes text attributes (string, url or uuid)"]),
        Case(
            yaml: pod(search: "{ fields: [name, name] }"),
            errors: ["mapping.yaml:7:30: error: 'name' is listed twice in 'fields' of 'search'"]),
        Case(
            yaml: pod(search: "{ fields: name }"),
            errors: [
                "mapping.yaml:7:23: error: 'fields' of 'search' must be a list of the entity's text attributes, found 'name'"
            ]),
        Case(
            yaml: pod(search: "{ fields: [] }"),
            errors: ["mapping.yaml:7:23: error: 'fields' of 'search' must be a list of the entity's text attributes, found an empty list"]),
        Case(
            yaml: pod(search: "{ engine: fts5 }"),
            errors: ["mapping.yaml:7:5: error: 'search' of entity 'Pod' needs 'fields' (the text attributes to index)"]),
        Case(
            yaml: pod(search: "{ fields: [name], engin: fts5 }"),
            errors: ["mapping.yaml:7:31: error: unknown key 'engin' in 'search' of entity 'Pod'; did you mean 'engine'?"]),
        Case(
            yaml: pod(search: "{ fields: [name], engine: fts3 }"),
            errors: ["mapping.yaml:7:39: error: unknown value 'fts3' for 'engine' (did you mean 'fts5'?); expected fts5 or fts4"]),
        Case(
            yaml: pod(search: "{ fields: [name], sync: trigger }"),
            errors: ["mapping.yaml:7:37: error: unknown value 'trigger' for 'sync'; expected triggers"]),
        Case(
            yaml: pod(search: #"{ fields: [name], tokenizer: "unicode62" }"#),
            errors: [
                "mapping.yaml:7:42: error: unknown tokenizer 'unicode62' for fts5 (did you mean 'unicode61'?); expected unicode61, ascii, porter or trigram"
            ]),
        Case(
            yaml: pod(search: #"{ fields: [name], engine: fts4, tokenizer: "ascii" }"#),
            errors: [
                "mapping.yaml:7:56: error: unknown tokenizer 'ascii' for fts4; expected simple, porter or unicode61"
            ]),
        Case(
            yaml: pod(search: #"{ fields: [name], tokenizer: "unicode61 remove_diacritic 1" }"#),
            errors: [
                "mapping.yaml:7:42: error: unknown option 'remove_diacritic' for tokenizer 'unicode61' (did you mean 'remove_diacritics'?); expected remove_diacritics, tokenchars or separators"
            ]),
        Case(
            yaml: pod(search: #"{ fields: [name], engine: fts4, tokenizer: "unicode61 remove_diacritics=0" }"#),
            errors: [
                "mapping.yaml:7:56: error: write tokenizer options as 'name value' ('remove_diacritics 0'), not 'remove_diacritics=0'"
            ]),
        Case(
            yaml: pod(search: #"{ fields: [name], tokenizer: "unicode61 remove_diacritics 3" }"#),
            errors: ["mapping.yaml:7:42: error: 'remove_diacritics' of tokenizer 'unicode61' must be 0, 1 or 2, found '3'"]),
        Case(
            yaml: pod(search: #"{ fields: [name], tokenizer: "ascii tokenchars" }"#),
            errors: ["mapping.yaml:7:42: error: option 'tokenchars' of tokenizer 'ascii' needs a value"]),
        Case(
            yaml: pod(search: #"{ fields: [name], tokenizer: "ascii separators '" }"#),
            errors: ["mapping.yaml:7:42: error: 'separators' of tokenizer 'ascii' cannot hold a quote"]),
        Case(
            yaml: pod(search: #"{ fields: [name], engine: fts4, tokenizer: "porter unicode61" }"#),
            errors: [
                "mapping.yaml:7:56: error: unknown option 'unicode61' for tokenizer 'porter'; it takes no options"
            ]),
        Case(
            yaml: pod(search: "{ fields: [name] }") + "  PodSearch:\n    attributes: { id: integer }\n",
            errors: ["mapping.yaml:7:5: error: the search table of entity 'Pod' and entity 'PodSearch' both become table 'pod_search'"]),
        // FTS's shadow tables too: FTS5's and FTS4's names alike.
        Case(
            yaml: pod(search: "{ fields: [name] }") + "  Segments:\n    table: pod_search_segdir\n    attributes: { id: integer }\n",
            errors: [
                "mapping.yaml:7:5: error: the search table of entity 'Pod' (its FTS shadow table) and entity 'Segments' both become "
                    + "table 'pod_search_segdir'"
            ]),
        Case(
            yaml: "seeder: 1\nentities:\n  Pod:\n    attributes: { id: integer, rank: string }\n    search: { fields: [rank] }\n",
            errors: [
                "mapping.yaml:5:5: error: search field 'rank' has column 'rank', a name fts5 keeps for itself; give it another 'column'"
            ]),
        // Compatibility: each feature past the floor, at its node, naming the release that has it.
        Case(
            yaml: pod(search: #"{ fields: [name], tokenizer: "trigram" }"#),
            errors: [
                "mapping.yaml:7:42: error: the 'trigram' tokenizer needs SQLite 3.34.0 or later, but 'compatibility' asks for 3.22.0"
            ]),
        Case(
            yaml: pod(search: #"{ fields: [name], tokenizer: "unicode61 remove_diacritics 2" }"#),
            errors: [
                "mapping.yaml:7:42: error: 'remove_diacritics 2' needs SQLite 3.27.0 or later, but 'compatibility' asks for 3.22.0"
            ]),
        Case(
            yaml: pod(
                search: #"{ fields: [name], tokenizer: "trigram remove_diacritics 1" }"#, head: "compatibility: { sqlite: \"3.34.0\" }\n"),
            errors: [
                "mapping.yaml:8:42: error: 'remove_diacritics' of the 'trigram' tokenizer needs SQLite 3.45.0 or later, but 'compatibility' asks for 3.34.0"
            ]),
        Case(
            yaml: pod(search: "{ fields: [name] }", head: "compatibility: { sqlite: \"3.8.11\" }\n"),
            errors: ["mapping.yaml:8:5: error: fts5 needs SQLite 3.9.0 or later, but 'compatibility' asks for 3.8.11"]),
        Case(
            yaml: pod(search: "{ fields: [name], engine: fts5 }", head: "compatibility: { sqlite: \"3.8.11\" }\n"),
            errors: ["mapping.yaml:8:39: error: fts5 needs SQLite 3.9.0 or later, but 'compatibility' asks for 3.8.11"]),
        Case(
            yaml: pod(search: "{ fields: [name], engine: fts4 }", head: "compatibility: { sqlite: \"3.7.4\" }\n"),
            errors: ["mapping.yaml:8:39: error: fts4 needs SQLite 3.7.9 or later, but 'compatibility' asks for 3.7.4"]),
        Case(
            yaml: pod(search: "{ fields: [name] }", head: "compatibility: { sqlite: 3.22 }\n"),
            errors: []),
        Case(
            yaml: pod(search: "{ fields: [name] }", head: "compatibility: { sqlite: \"latest\" }\n"),
            errors: ["mapping.yaml:1:26: error: 'sqlite' must be an SQLite 3 release such as \"3.22.0\", found 'latest'"]),
        Case(
            yaml: pod(search: "{ fields: [name] }", head: "compatibility: { sqlit: \"3.22.0\" }\n"),
            errors: ["mapping.yaml:1:18: error: unknown key 'sqlit' in 'compatibility'; did you mean 'sqlite'?"]),
    ]

    @Test(arguments: cases)
    func reportsEachProblemAtItsNode(_ case: Case) {
        let (mapping, diagnostics) = loadMapping(`case`.yaml)
        #expect(diagnostics == `case`.errors)
        #expect((mapping == nil) == !`case`.errors.isEmpty)
    }
}
