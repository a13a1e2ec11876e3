import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederInfer

/// `seeder infer` drafts `match:` where a key's values are URLs ending in the ids of records it
/// drafts (docs/commands.md, `seeder infer`): SWAPI's records, which have no `id` but their own
/// `url`, and link to others by URL.
struct InferURLIdentityTests {
    /// People 1 and 2, planet 1 and films 1 and 2 as https://swapi.dev/api/ serves them
    /// (`people/1/`, `people/2/`, `planets/1/`, `films/1/`, `films/2/`); the films cut to their
    /// scalar keys, their lists and `url`, the people given a `homepage` and an `image`, URLs
    /// that are no ids.
    static let people = """
        [{"name": "Luke Skywalker", "height": "172", "mass": "77", "hair_color": "blond", "skin_color": "fair", "eye_color": "blue",
          "birth_year": "19BBY", "gender": "male", "homeworld": "https://swapi.dev/api/planets/1/",
          "films": ["https://swapi.dev/api/films/1/", "https://swapi.dev/api/films/2/"], "species": [],
          "vehicles": ["https://swapi.dev/api/vehicles/14/", "https://swapi.dev/api/vehicles/30/"],
          "starships": ["https://swapi.dev/api/starships/12/", "https://swapi.dev/api/starships/22/"],
          "created": "2014-12-09T13:50:51.644000Z", "edited": "2014-12-20T21:17:56.891000Z", "url": "https://swapi.dev/api/people/1/",
          "homepage": "https://www.starwars.com/databank/luke-skywalker",
          "image": "https://lumiere-a.akamaihd.net/v1/images/luke-skywalker-main_7ffe21c7.jpeg"},
         {"name": "C-3PO", "height": "167", "mass": "75", "hair_color": "n/a", "skin_color": "gold", "eye_color": "yellow",
          "birth_year": "112BBY", "gender": "n/a", "homeworld": "https://swapi.dev/api/planets/1/",
          "films": ["https://swapi.dev/api/films/1/", "https://swapi.dev/api/films/2/"], "species": ["https://swapi.dev/api/species/2/"],
          "vehicles": [], "starships": [],
          "created": "2014-12-10T15:10:51.357000Z", "edited": "2014-12-20T21:17:50.309000Z", "url": "https://swapi.dev/api/people/2/",
          "homepage": "https://www.starwars.com/databank/c-3po",
          "image": "https://lumiere-a.akamaihd.net/v1/images/c-3po-main_d6850e28.jpeg"}]
        """

    static let planets = """
        [{"name": "Tatooine", "rotation_period": "23", "orbital_period": "304", "diameter": "10465", "climate": "arid",
          "gravity": "1 standard", "terrain": "desert", "surface_water": "1", "population": "200000",
          "residents": ["https://swapi.dev/api/people/1/", "https://swapi.dev/api/people/2/", "https://swapi.dev/api/people/4/"],
          "films": ["https://swapi.dev/api/films/1/"],
          "created": "2014-12-09T13:50:49.641000Z", "edited": "2014-12-20T20:58:18.411000Z", "url": "https://swapi.dev/api/planets/1/"}]
        """

    static let films = """
        [{"title": "A New Hope", "episode_id": 4, "director": "George Lucas", "producer": "Gary Kurtz, Rick McCallum",
          "release_date": "1977-05-25", "planets": ["https://swapi.dev/api/planets/1/"],
          "created": "2014-12-10T14:23:31.880000Z", "edited": "2014-12-20T19:49:45.256000Z", "url": "https://swapi.dev/api/films/1/"},
         {"title": "The Empire Strikes Back", "episode_id": 5, "director": "Irvin Kershner", "producer": "Gary Kurtz, Rick McCallum",
          "release_date": "1980-05-17", "planets": ["https://swapi.dev/api/planets/4/"],
          "created": "2014-12-12T11:26:24.656000Z", "edited": "2014-12-15T13:07:53.386000Z", "url": "https://swapi.dev/api/films/2/"}]
        """

    /// The draft of the three dumps; with `host`, every `https://swapi.dev` link written as a path
    /// from that host's root instead (`/api/planets/1/`).
    static func draft(host: String? = nil) throws -> (text: String, report: InferReport, workspace: Workspace) {
        let workspace = try Workspace(directories: ["dumps"])
        for (name, text) in [("people", people), ("planets", planets), ("films", films)] {
            try workspace.write("dumps/\(name).json", host.map { text.replacingOccurrences(of: $0, with: "") } ?? text)
        }
        let report = MappingInferrer.infer(InferOptions(dumps: workspace.path("dumps")))
        return (try #require(report.draft), report, workspace)
    }

    /// The identities from `url`, the references from `homeworld` and `films` (the people's and
    /// the planet's, whose films are all drafted), and nothing from what links to records not
    /// drafted (`vehicles`, `species`), to a person not in the dumps (`residents`: 4), to a
    /// planet not in them (a film's `planets`: 4), nor from URLs that end in no id.
    @Test func draftsMatchForIdsInURLs() throws {
        let (draft, _, _) = try Self.draft()
        let lines = draft.split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ prefix: String, after entity: String) -> String? {
            guard let start = lines.firstIndex(where: { $0.hasPrefix("  \(entity):") }) else { return nil }
            return lines[start...].first { $0.hasPrefix(prefix) }.map { String($0.prefix { $0 != "#" }).trimmingSpaces }
        }
        let match = #"match: '/(\d+)/?$'"#
        #expect(line("      id:", after: "Person") == "id: { type: integer, from: url, \(match) }", "\(draft)")
        #expect(line("      id:", after: "Planet") == "id: { type: integer, from: url, \(match) }")
        #expect(line("      id:", after: "Film") == "id: { type: integer, from: url, \(match) }")
        #expect(line("      homeworld:", after: "Person") == "homeworld: { to: Planet, \(match) }")
        #expect(line("      films:", after: "Person") == "films: { to: Film, many: true, \(match) }")
        #expect(line("      films:", after: "Planet") == "films: { to: Film, many: true, \(match) }")
        #expect(line("      vehicles:", after: "Person") == "vehicles: json")
        #expect(line("      species:", after: "Person") == "species: json")
        #expect(line("      residents:", after: "Planet") == "residents: json")
        #expect(line("      planets:", after: "Film") == "planets: json")
        #expect(line("      homepage:", after: "Person") == "homepage: { type: url, required: true }")
        #expect(line("      image:", after: "Person") == "image: { type: url, required: true }")
        // The identity is `id`: no `identity:` line, and no attribute reads `url` but `id`.
        #expect(!draft.contains("    identity:"))
        #expect(draft.components(separatedBy: "from: url").count == 4)
    }

    /// Links written as paths from the host's root, as PokéAPI's recorded responses write them
    /// (`/api/v2/type/18/`), give the same draft as whole URLs.
    @Test func pathsFromTheHostsRootAreURLsToo() throws {
        let (relative, report, _) = try Self.draft(host: "https://swapi.dev")
        #expect(report.outcome == .success, "\(report.diagnostics.map(\.description))")
        // The same draft but for its first line, which names the scratch folder.
        #expect(relative.split(separator: "\n").dropFirst() == (try Self.draft().text).split(separator: "\n").dropFirst())
        #expect(relative.contains("homeworld: { to: Planet, match: '/(\\d+)/?$' }"), "\(relative)")
    }

    /// The draft builds, every person linked to Tatooine and to both films.
    @Test func theDraftBuilds() throws {
        let (draft, report, workspace) = try Self.draft()
        #expect(report.outcome == .success, "\(report.diagnostics.map(\.description))")
        let rows = try buildDraft(draft, in: workspace)
        #expect(rows["Person"] == 2 && rows["Planet"] == 1 && rows["Film"] == 2, "\(rows)")
    }

    /// A record with an `id` of its own keeps it; a `url` that is no id URL is no identity.
    @Test func anIdOfItsOwnOrAURLWithoutAnIdIsNoURLIdentity() throws {
        let (draft, _) = try inferDraft([
            "planets.json":
                #"[{"id": 7, "name": "Tatooine", "url": "https://swapi.dev/api/planets/1/"}, {"id": 8, "name": "Alderaan", "url": "https://swapi.dev/api/planets/2/"}]"#,
            "pages.json":
                #"[{"title": "a", "url": "https://example.com/pages/a"}, {"title": "b", "url": "https://example.com/pages/b?page=2"}]"#,
        ])
        #expect(!draft.contains("match:"), "\(draft)")
    }

    /// A URL may end in a negative id (PokéAPI's "unknown" move ailment, `/move-ailment/-1/`):
    /// the identity is still the id, with a pattern that takes the sign, and the rows hold -1.
    @Test func aNegativeIdIsAnIdToo() throws {
        let (draft, workspace) = try inferDraft([
            "moves.json": #"""
            [{"id": 1, "meta": {"ailment": {"name": "none", "url": "/api/v2/move-ailment/0/"}}},
             {"id": 2, "meta": {"ailment": {"name": "unknown", "url": "/api/v2/move-ailment/-1/"}}},
             {"id": 3, "meta": {"ailment": {"name": "paralysis", "url": "/api/v2/move-ailment/1/"}}}]
            """#
        ])
        #expect(draft.contains("id: { type: integer, from: url, match: '/(-?\\d+)/?$' }"), "\(draft)")
        #expect(draftValue(draft, "metaAilment") == "metaAilment: { to: MoveAilment, from: meta.ailment }", "\(draft)")
        #expect(try buildDraft(draft, in: workspace) == ["Move": 3, "MoveAilment": 3])
        let ids = try DatabaseQueue(path: workspace.path("seed.sqlite")).read { db in
            try Int.fetchAll(db, sql: "SELECT id FROM move_ailment ORDER BY id")
        }
        #expect(ids == [-1, 0, 1])
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = self[...]
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
