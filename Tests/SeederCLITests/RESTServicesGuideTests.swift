import Foundation
import GRDB
import SeederTestServer
import SeederTestSupport
import Testing

/// docs/guides/rest-services.md run as it is written: its mapping, pointed at a local server
/// that answers as PokéAPI does from PokéAPI's own recorded releases (`Fixtures/pokeapi/`, its
/// README names the source and the license), and each command of its console blocks run through
/// the real binary, printing exactly what the guide shows.
struct RESTServicesGuideTests {
    static let guide = "docs/guides/rest-services.md"
    static let fixtures = repository + "/Tests/SeederCLITests/Fixtures/pokeapi/"

    /// Which recorded release the server answers with; the guide's second block is run against
    /// the second.
    final class Release: @unchecked Sendable {
        private let lock = NSLock()
        private var current = 1
        var number: Int {
            get { lock.withLock { current } }
            set { lock.withLock { current = newValue } }
        }
    }

    /// PokéAPI, replayed: `GET /api/v2/type/18/` is `type/18/index.json` of the release (of
    /// release 1 when the release did not change it), with an `ETag` of its bytes, and `304 Not
    /// Modified` to a request whose `If-None-Match` is that `ETag`; anything else is PokéAPI's 404.
    static func pokeAPI(_ release: Release) -> TestHTTPServer.Handler {
        { request in
            let path = request.uri.split(separator: "?", maxSplits: 1)[0]
            guard request.method == "GET", path.hasPrefix("/api/v2/"), path.hasSuffix("/"), !path.contains("..") else {
                return .text("Not Found", status: 404)
            }
            let resource = path.dropFirst("/api/v2/".count) + "index.json"
            let candidates = ["release-\(release.number)/", "release-1/"].map { fixtures + $0 + resource }
            guard let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                return .text("Not Found", status: 404)
            }
            let body = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            let etag =
                "W/\"\(String(body.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }, radix: 16))\""
            if request.header("If-None-Match") == etag { return .status(304, headers: ["ETag": etag]) }
            return .bytes(body, contentType: "application/json; charset=utf-8", headers: ["ETag": etag])
        }
    }

    /// The guide's mapping, its `base` pointed at the server.
    static func mapping(base: String) throws -> String {
        let text = try String(contentsOfFile: repository + "/" + guide, encoding: .utf8)
        let yaml = try #require(
            text.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }.first {
                $0.hasPrefix("seeder: 1")
            })
        let official = "https://pokeapi.co/api/v2/"
        try #require(yaml.components(separatedBy: official).count == 2, "the guide's mapping has no base \(official)")
        return yaml.replacingOccurrences(of: official, with: base + "api/v2/") + "\n"
    }

    @Test func everyCommandPrintsWhatTheGuideShows() async throws {
        let transcript = try ConsoleTranscript(page: Self.guide, repository: repository)
        #expect(transcript.blocks.map(\.count) == [2, 3])
        let release = Release()
        try await TestHTTPServer.with(Self.pokeAPI(release)) { server in
            let workspace = try Workspace()
            try workspace.write("pokeapi.yaml", try Self.mapping(base: server.baseURL))
            for (index, block) in transcript.blocks.enumerated() {
                release.number = index + 1
                for step in block {
                    let (status, shown) = try await ConsoleTranscript.Command(step.words).run(in: workspace.root)
                    // diff exits 1 when the seeds differ, as diff(1) does (docs/commands.md).
                    #expect(status == (step.words[1] == "diff" ? 1 : 0), "\(step.words): \(shown)")
                    #expect(shown == step.output, "\(step.words.joined(separator: " ")) printed:\n\(shown)")
                }
            }

            // Each record was asked for once a release: the list, then each entry's own URL.
            let targets = server.requests.map(\.uri)
            let once = ["/api/v2/type/", "/api/v2/type/9/", "/api/v2/type/18/", "/api/v2/type/19/"]
            #expect(targets.sorted() == (once + once).sorted(), "\(targets)")

            try await Self.checkSeeds(in: workspace)
        }
    }

    /// What the seeds hold, from the recorded releases themselves.
    static func checkSeeds(in workspace: Workspace) async throws {
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixtures + "release-1/type/index.json")))
                as? [String: Any])
        let ids = try #require(list["results"] as? [[String: Any]]).compactMap { ($0["url"] as? String)?.split(separator: "/").last }
        #expect(ids == ["9", "18", "19"])
        for number in [1, 2] {
            let records = try ids.map { id -> [String: Any] in
                let release = FileManager.default.fileExists(atPath: fixtures + "release-\(number)/type/\(id)/index.json") ? number : 1
                let data = try Data(contentsOf: URL(fileURLWithPath: fixtures + "release-\(release)/type/\(id)/index.json"))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
            let seed = try DatabaseQueue(path: workspace.path("types-\(number).sqlite"))
            let (types, members, pokemon, key) = try await seed.read { db in
                (
                    try Row.fetchAll(db, sql: "SELECT id, name, english_name, generation FROM type ORDER BY id").map {
                        "\($0["id"] as Int) \($0["name"] as String) \($0["english_name"] as String) \($0["generation"] as Int)"
                    },
                    try Row.fetchAll(db, sql: "SELECT type_id, pokemon_id, slot FROM type_member ORDER BY type_id, pokemon_id").map {
                        "\($0["type_id"] as Int) \($0["pokemon_id"] as Int) \($0["slot"] as Int)"
                    },
                    try Row.fetchAll(db, sql: "SELECT id, name FROM pokemon ORDER BY id").map {
                        "\($0["id"] as Int) \($0["name"] as String)"
                    },
                    try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info('type_member') WHERE pk > 0 ORDER BY pk").map {
                        $0["name"] as String
                    }
                )
            }
            func id(_ url: Any?) -> Int { Int((url as? String)?.split(separator: "/").last ?? "") ?? -1 }
            #expect(
                types
                    == records.map { record in
                        let names = record["names"] as? [[String: Any]] ?? []
                        let english = names.first { ($0["language"] as? [String: Any])?["name"] as? String == "en" }?["name"] as? String
                        let generation = (record["generation"] as? [String: Any])?["url"]
                        return "\(record["id"] as? Int ?? -1) \(record["name"] as? String ?? "") \(english ?? "") \(id(generation))"
                    })
            var expectedMembers: [String] = []
            var expectedPokemon: [Int: String] = [:]
            for record in records {
                for entry in record["pokemon"] as? [[String: Any]] ?? [] {
                    let member = entry["pokemon"] as? [String: Any] ?? [:]
                    expectedMembers.append("\(record["id"] as? Int ?? -1) \(id(member["url"])) \(entry["slot"] as? Int ?? -1)")
                    expectedPokemon[id(member["url"])] = member["name"] as? String
                }
            }
            #expect(
                members
                    == expectedMembers.sorted {
                        $0.split(separator: " ").map { Int($0)! }.lexicographicallyPrecedes($1.split(separator: " ").map { Int($0)! })
                    })
            #expect(pokemon == expectedPokemon.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" })
            #expect(key == ["type_id", "pokemon_id"])
            #expect(pokemon.contains(number == 1 ? "10317 mega-magearna" : "10317 magearna-mega"))
        }
    }
}
