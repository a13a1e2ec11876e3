import Foundation
import SeederTestServer
import SeederTestSupport
import Testing

/// A property of `seeder fetch` (docs/guides/fetching.md, What fetch guarantees): for random
/// secrets (printable ASCII, `+/=%&"\` and spaces among them) that a service echoes in random
/// shapes (as is, percent-encoded in either case or with `+`, JSON-escaped with `\/` or
/// `\uXXXX`, mixed within one value) and places (a page, an error page cut anywhere, a 401, a
/// next link to another host), no file the run leaves and no byte it prints holds the secret,
/// its echo, or any 8 characters of it.
struct FetchSecretPropertyTests {
    static let specials = Array("+/=%&\"\\ ")

    static func secret(_ random: inout SplitMix64) -> String {
        var characters = (0..<random.int(16...24)).map { _ in Character(Unicode.Scalar(UInt8(random.int(0x21...0x7E)))) }
        for _ in 0..<3 { characters[random.int(1...characters.count - 2)] = specials[random.int(0...specials.count - 1)] }
        return String(characters)
    }

    /// `secret` as the service echoes it: each character in a form of its own, valid inside a
    /// JSON string when `json`, inside a URL's query when not.
    static func echo(_ secret: String, json: Bool, _ random: inout SplitMix64) -> String {
        var text = ""
        for byte in secret.utf8 {
            let character = Character(Unicode.Scalar(byte))
            let percent = String(format: random.chance(0.5) ? "%%%02X" : "%%%02x", byte)
            let unicode = String(format: random.chance(0.5) ? "\\u%04X" : "\\u%04x", byte)
            let alphanumeric = character.isLetter || character.isNumber
            switch random.int(0...3) {
            case 0 where alphanumeric, 1 where alphanumeric: text.append(character)
            case 0 where json && byte != 0x22 && byte != 0x5C: text.append(character)
            case 1 where byte == 0x20: text += "+"
            case 2 where json && byte == 0x2F: text += "\\/"
            case 3 where json: text += unicode
            default: text += percent
            }
        }
        return text
    }

    @Test func noFormOfASecretIsEverWrittenOrShown() async throws {
        let base = UInt64(ProcessInfo.processInfo.environment["SEEDER_PROPERTY_SEED"] ?? "") ?? 0x5EED_F37C
        let other = try await TestHTTPServer.start(loopbackHost: 2) { _ in .json("[]") }
        defer { Task { await other.shutdown() } }
        let shape = Box((place: 0, echo: "", padding: 0))
        try await TestHTTPServer.with { request in
            let place = shape.value
            switch place.place {
            case 0: return .json(#"[{"id": 1, "self": "https://h/?k=\#(place.echo)"}]"#)
            case 1: return .text(String(repeating: "x", count: place.padding) + " " + place.echo + " tail", status: 404)
            case 2: return .text(String(repeating: "y", count: place.padding) + place.echo, status: 401)
            default:
                return .json(
                    #"[{"id": 1}]"#, headers: ["Link": "<http://127.0.0.2:\(other.port)/steal?k=\(place.echo)>; rel=\"next\""])
            }
        } run: { server in
            for index in 0..<24 {
                let seed = SplitMix64.caseSeed(base: base, index: index)
                var random = SplitMix64(seed: seed)
                let secret = Self.secret(&random)
                let place = index % 4
                let echo = Self.echo(secret, json: place == 0, &random)
                shape.value = (place, echo, random.int(150...230))
                let harness = try FetchHarness(
                    mapping: """
                        seeder: 1
                        fetch: { base: "\(server.baseURL)", retries: 0, headers: { X-Api-Key: "${API_KEY}" } }
                        entities:
                          User: { attributes: { id: integer } }
                        sources:
                          - { path: users/*.json, entity: User, fetch: { url: users, paginate: link } }
                        """)
                for arguments in [[], ["--json", "--diagnostics", "github"]] {
                    let run = try await harness.fetch(arguments, environment: ["API_KEY": secret])
                    let context = "seed \(seed) (SEEDER_PROPERTY_SEED=\(base), case \(index)): secret \(secret), echo \(echo)"
                    #expect(run.status != 0, "\(context)")
                    var texts = [("stdout", run.stdout), ("stderr", run.stderr)]
                    for (relative, bytes) in try FetchHarness.files(under: harness.workspace.root) {
                        texts.append((relative, String(decoding: bytes, as: UTF8.self)))
                    }
                    let windows = (0...secret.count - 8).map { String(secret.dropFirst($0).prefix(8)) }
                    for (name, text) in texts {
                        #expect(!text.contains(echo), "the echo in \(name): \(context)\n\(text)")
                        for window in windows where text.contains(window) {
                            Issue.record("'\(window)' of the secret in \(name): \(context)\n\(text)")
                        }
                    }
                }
            }
            #expect(other.requests.isEmpty, "\(other.requests.map(\.uri))")
        }
    }
}
