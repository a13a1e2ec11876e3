import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `@where(K = V)` in a real build (docs/mapping.md, Picking entries): the English entry of
/// PokeAPI's per-language lists, numbers, booleans and null, a to-many, `json`, the warnings
/// about keys, and each malformed condition's error at its node.
struct WhereCommandTests {
    func rows(_ sql: String, in scratch: Workspace) throws -> [String] {
        try DatabaseQueue(path: scratch.path("seed.sqlite")).read { db in try Row.fetchAll(db, sql: sql).map(\.description) }
    }

    /// `seeder build mapping.yaml dumps -o seed.sqlite` in a new workspace holding `mapping` and
    /// the dump `dumps/<file>`.
    func build(_ mapping: String, _ file: String, _ json: String) async throws -> (Workspace, Run) {
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("mapping.yaml", mapping)
        try scratch.write("dumps/" + file, json)
        return (scratch, try await seeder(["build", "mapping.yaml", "dumps", "-o", "seed.sqlite"], in: scratch.root))
    }

    /// The section of docs/mapping.md, from its heading to the next.
    static func docsSection() throws -> String {
        let docs = try String(contentsOfFile: repository + "/docs/mapping.md", encoding: .utf8)
        let section = try #require(docs.components(separatedBy: "### Picking entries (`@where`)").dropFirst().first)
        return try #require(section.components(separatedBy: "\n### ").first)
    }

    /// The text of the first fenced block in `section` opened with "```" + `language`.
    static func block(_ language: String, in section: String) throws -> String {
        let start = try #require(section.range(of: "```\(language)\n"))
        let end = try #require(section.range(of: "\n```", range: start.upperBound..<section.endIndex))
        return String(section[start.upperBound..<end.lowerBound])
    }

    /// The docs' example, record and mapping as written, builds to what its comments say.
    @Test func theDocsExampleBuilds() async throws {
        let section = try Self.docsSection()
        let (scratch, built) = try await build(
            try Self.block("yaml", in: section), "species.json", "[" + (try Self.block("json", in: section)) + "]")
        #expect(built.status == 0)
        #expect(built.stderr == "")
        #expect(
            try rows("SELECT * FROM species", in: scratch) == [
                #"[id:1 name:"bulbasaur" title:"Bulbasaur" genus:"Seed Pokémon" title_pt_br:"Bulbassauro" other_names:2 "#
                    + #"french:"[{\"language\":{\"name\":\"fr\",\"url\":\"https://pokeapi.co/api/v2/language/5/\"},\"name\":\"Bulbizarre\"}]"]"#
            ])
    }

    /// Species 1 and 2 as https://pokeapi.co/api/v2/pokemon-species/1/ and /2/ serve them, cut
    /// to a few languages of `names` and `genera` (their values as served), with one species
    /// without an English name and one without names.
    static let species = """
        [{"id": 1, "name": "bulbasaur",
          "names": [{"language": {"name": "ja-Hrkt", "url": "https://pokeapi.co/api/v2/language/1/"}, "name": "フシギダネ"},
                    {"language": {"name": "roomaji", "url": "https://pokeapi.co/api/v2/language/2/"}, "name": "Fushigidane"},
                    {"language": {"name": "fr", "url": "https://pokeapi.co/api/v2/language/5/"}, "name": "Bulbizarre"},
                    {"language": {"name": "de", "url": "https://pokeapi.co/api/v2/language/6/"}, "name": "Bisasam"},
                    {"language": {"name": "en", "url": "https://pokeapi.co/api/v2/language/9/"}, "name": "Bulbasaur"}],
          "genera": [{"genus": "たねポケモン", "language": {"name": "ja-Hrkt", "url": "https://pokeapi.co/api/v2/language/1/"}},
                     {"genus": "Seed Pokémon", "language": {"name": "en", "url": "https://pokeapi.co/api/v2/language/9/"}},
                     {"genus": "Pokémon Graine", "language": {"name": "fr", "url": "https://pokeapi.co/api/v2/language/5/"}}]},
         {"id": 2, "name": "ivysaur",
          "names": [{"language": {"name": "fr", "url": "https://pokeapi.co/api/v2/language/5/"}, "name": "Herbizarre"},
                    {"language": {"name": "en", "url": "https://pokeapi.co/api/v2/language/9/"}, "name": "Ivysaur"},
                    {"language": {"name": "de", "url": "https://pokeapi.co/api/v2/language/6/"}, "name": "Bisaknosp"}],
          "genera": [{"genus": "Seed Pokémon", "language": {"name": "en", "url": "https://pokeapi.co/api/v2/language/9/"}}]},
         {"id": 3, "name": "no-english",
          "names": [{"language": {"name": "fr", "url": "https://pokeapi.co/api/v2/language/5/"}, "name": "Florizarre"}],
          "genera": []},
         {"id": 4, "name": "no-names", "genera": null}]
        """

    static let speciesMapping = """
        seeder: 1
        entities:
          Species:
            attributes:
              id: integer
              name: string
              english: { type: string, from: "names.@where(language.name = en).@first.name" }
              genus: { type: string, from: 'genera.@where(language.name = "en").@first.genus' }
              lastGerman: { type: string, from: "names.@where(language.name = de).@last.name" }
              others: { type: integer, from: "names.@where(language.name != en).@count" }
              english2: { type: json, from: "names.@where(language.name = en).name" }
        sources:
          - path: species.json
            entity: Species

        """

    /// The English entry wherever it stands; none gives null; `!=` counts the others; keys after
    /// `@where` apply to each element kept; no key inside the entries (`language`, `url`) is
    /// reported as never mapped.
    @Test func picksTheEnglishEntry() async throws {
        let (scratch, built) = try await build(Self.speciesMapping, "species.json", Self.species)
        #expect(built.status == 0)
        #expect(built.stderr == "")
        #expect(
            try rows("SELECT * FROM species ORDER BY id", in: scratch) == [
                #"[id:1 name:"bulbasaur" english:"Bulbasaur" genus:"Seed Pokémon" last_german:"Bisasam" others:4 english2:"[\"Bulbasaur\"]"]"#,
                #"[id:2 name:"ivysaur" english:"Ivysaur" genus:"Seed Pokémon" last_german:"Bisaknosp" others:2 english2:"[\"Ivysaur\"]"]"#,
                #"[id:3 name:"no-english" english:NULL genus:NULL last_german:NULL others:1 english2:"[]"]"#,
                "[id:4 name:\"no-names\" english:NULL genus:NULL last_german:NULL others:NULL english2:NULL]",
            ])
    }

    /// Pokémon 1 as https://pokeapi.co/api/v2/pokemon/1/ serves its `abilities` and `stats`
    /// (its other keys left out), and a made-up one whose entries lack keys or hold null.
    static let pokemon = """
        [{"id": 1, "name": "bulbasaur",
          "abilities": [{"ability": {"name": "overgrow", "url": "https://pokeapi.co/api/v2/ability/65/"}, "is_hidden": false, "slot": 1},
                        {"ability": {"name": "chlorophyll", "url": "https://pokeapi.co/api/v2/ability/34/"}, "is_hidden": true, "slot": 3}],
          "stats": [{"base_stat": 45, "effort": 0, "stat": {"name": "hp", "url": "https://pokeapi.co/api/v2/stat/1/"}},
                    {"base_stat": 49, "effort": 0, "stat": {"name": "attack", "url": "https://pokeapi.co/api/v2/stat/2/"}},
                    {"base_stat": 49, "effort": 0, "stat": {"name": "defense", "url": "https://pokeapi.co/api/v2/stat/3/"}},
                    {"base_stat": 65, "effort": 1, "stat": {"name": "special-attack", "url": "https://pokeapi.co/api/v2/stat/4/"}},
                    {"base_stat": 65, "effort": 0, "stat": {"name": "special-defense", "url": "https://pokeapi.co/api/v2/stat/5/"}},
                    {"base_stat": 45, "effort": 0, "stat": {"name": "speed", "url": "https://pokeapi.co/api/v2/stat/6/"}}]},
         {"id": 9001, "name": "made-up",
          "abilities": [{"ability": {"name": "overgrow", "url": "https://pokeapi.co/api/v2/ability/65/"}, "is_hidden": null, "slot": "1"},
                        {"ability": {"name": "levitate", "url": "https://pokeapi.co/api/v2/ability/26/"}, "slot": 1.0}],
          "stats": [{"base_stat": 45.0, "effort": "1", "stat": null}]}]
        """

    static let pokemonMapping = """
        seeder: 1
        entities:
          Pokemon:
            attributes:
              id: integer
              name: string
              trained: { type: string, from: "stats.@where(effort = 1).@first.stat.name" }
              hp45: { type: integer, from: "stats.@where(base_stat = 45.0).@count" }
              firstSlot: { type: json, from: "abilities.@where(slot = 1).ability.name" }
              textSlot: { type: json, from: 'abilities.@where(slot = "1").ability.name' }
              unknownHidden: { type: json, from: "abilities.@where(is_hidden = null).ability.name" }
              notHidden: { type: json, from: "abilities.@where(is_hidden != true).ability.name" }
            relationships:
              hidden: { to: Ability, many: true, from: "abilities.@where(is_hidden = true).ability" }
              shown: { to: Ability, many: true, from: "abilities.@where(is_hidden = false).ability" }
          Ability:
            identity: name
            attributes: { name: string, url: string }
        sources:
          - path: pokemon.json
            entity: Pokemon

        """

    /// Numbers by value and never text, booleans, null apart from a missing key (which matches
    /// only `!=`), and a to-many fed by the kept elements.
    @Test func numbersBooleansNullAndAToMany() async throws {
        let (scratch, built) = try await build(Self.pokemonMapping, "pokemon.json", Self.pokemon)
        #expect(built.status == 0)
        #expect(built.stderr == "")
        #expect(
            try rows("SELECT * FROM pokemon ORDER BY id", in: scratch) == [
                #"[id:1 name:"bulbasaur" trained:"special-attack" hp45:2 first_slot:"[\"overgrow\"]" text_slot:"[]" "#
                    + #"unknown_hidden:"[]" not_hidden:"[\"overgrow\"]"]"#,
                #"[id:9001 name:"made-up" trained:NULL hp45:1 first_slot:"[\"levitate\"]" text_slot:"[\"overgrow\"]" "#
                    + #"unknown_hidden:"[\"overgrow\"]" not_hidden:"[\"overgrow\",\"levitate\"]"]"#,
            ])
        #expect(try rows("SELECT * FROM pokemon_hidden", in: scratch) == [#"[pokemon_id:1 hidden_id:"chlorophyll"]"#])
        #expect(try rows("SELECT * FROM pokemon_shown", in: scratch) == [#"[pokemon_id:1 shown_id:"overgrow"]"#])
        #expect(try rows("SELECT name FROM ability ORDER BY name", in: scratch) == [#"[name:"chlorophyll"]"#, #"[name:"overgrow"]"#])
    }

    /// A typo in K is warned about as a typo in the path is; the build still succeeds.
    @Test func aTypoInTheConditionIsWarnedAbout() async throws {
        let mapping = Self.speciesMapping.replacingOccurrences(
            of: #"from: "names.@where(language.name = en).@first.name""#, with: #"from: "names.@where(langauge.name = en).@first.name""#)
        let (scratch, built) = try await build(mapping, "species.json", Self.species)
        #expect(built.status == 0)
        #expect(
            built.stderr == """
                mapping.yaml:7:7: warning: Species.english: 'names.@where(langauge.name = en).@first.name' matched no key in 4 records
                      english: { type: string, from: "names.@where(langauge.name =...
                      ^

                """)
        #expect(try rows("SELECT count(*) AS n FROM species WHERE english IS NULL", in: scratch) == ["[n:4]"])
    }

    /// A value that no element has (`eng` for `en`) is warned about as keeping no element, the
    /// column all null; `--strict` makes it an error. A `!=` that keeps elements says nothing.
    @Test func aValueNoElementHasIsWarnedAbout() async throws {
        let mapping = Self.speciesMapping.replacingOccurrences(
            of: #"from: "names.@where(language.name = en).@first.name""#, with: #"from: "names.@where(language.name = eng).@first.name""#)
        let (scratch, built) = try await build(mapping, "species.json", Self.species)
        #expect(built.status == 0)
        #expect(
            built.stderr == """
                mapping.yaml:7:7: warning: Species.english: 'names.@where(language.name = eng).@first.name' kept no element in 4 records
                      english: { type: string, from: "names.@where(language.name =...
                      ^

                """)
        #expect(try rows("SELECT count(*) AS n FROM species WHERE english IS NULL", in: scratch) == ["[n:4]"])
        let strict = try await seeder(["build", "mapping.yaml", "dumps", "-o", "strict.sqlite", "--strict"], in: scratch.root)
        #expect(strict.status == 1)
        #expect(strict.stderr.hasPrefix("mapping.yaml:7:7: error: Species.english: 'names.@where(language.name = eng)"), "\(strict.stderr)")
    }

    /// `@where` on an object is an error at the value, as `@first` on one is.
    @Test func anObjectIsNotAnArray() async throws {
        let mapping = """
            seeder: 1
            entities:
              Species:
                attributes:
                  id: integer
                  english: { type: string, from: "names.@where(language.name = en).@first.name" }
            """
        let (scratch, built) = try await build(
            mapping, "species.json", #"[{"id": 1, "names": {"language": {"name": "en"}, "name": "Odd"}}]"#)
        #expect(built.status == 1)
        #expect(
            built.stderr == """
                dumps/species.json:1:21: error: Species 1: 'names.@where(language.name = en).@first.name': '@where(language.name = en)' needs an array, found an object  [/0/names]
                build failed: 1 error, 0 warnings; nothing was written

                """)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("seed.sqlite")))
    }

    /// Each malformed `@where` of the docs' table is a mapping error at its `from:`, exit 1,
    /// through the binary.
    @Test func eachMalformedConditionIsAnErrorAtItsNode() async throws {
        let section = try Self.docsSection()
        let table = try #require(section.components(separatedBy: "**Errors.**").dropFirst().first)
        let rows = table.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == 14)
        let scratch = try Workspace(directories: ["dumps"])
        try scratch.write("dumps/species.json", Self.species)
        for row in rows {
            let cells = row.dropFirst(3).dropLast(3).components(separatedBy: "` | `")
            try #require(cells.count == 2)
            try scratch.write(
                "mapping.yaml",
                Self.speciesMapping.replacingOccurrences(
                    of: #""names.@where(language.name = en).@first.name""#, with: "'\(cells[0])'"))
            let built = try await seeder(["validate", "mapping.yaml", "dumps"], in: scratch.root)
            #expect(built.status == 1)
            #expect(built.stderr.hasPrefix("mapping.yaml:7:38: error: \(cells[1])\n"), "\(built.stderr)")
        }
    }
}
