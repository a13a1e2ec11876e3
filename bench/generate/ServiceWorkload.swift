import Foundation

// MARK: service

/// The kinds of the `service` workload and each one's share of its records, in PokeAPI's
/// proportions: many pokemon, species and moves, few types and generations.
let serviceKinds: [(name: String, share: Int)] = [
    ("pokemon", 30), ("species", 20), ("move", 20), ("ability", 10), ("item", 12), ("location", 5), ("type", 2), ("generation", 1),
]

/// A service's API as `seeder fetch` saves it, one record a file (`DIR/<kind>/<id>.json`), about N
/// files over the eight kinds of `serviceKinds` (at least one record each). Records link each
/// other as such an API does, by `{name, url}` objects (`{"name": "fire", "url":
/// "https://svc.example/api/v2/type/10/"}`) alone or in arrays, some inside a wrapping object
/// (`{"slot": 1, "type": {name, url}}`), and hold nested objects of their own (`sprites`,
/// `cost`). Every link names a record that exists.
func generateService(count: Int, directory: String) throws {
    var random = SplitMix64(state: 23)
    let total = serviceKinds.map(\.share).reduce(0, +)
    let counts = Dictionary(uniqueKeysWithValues: serviceKinds.map { ($0.name, max(1, count * $0.share / total)) })
    func name(_ kind: String, _ id: Int) -> String {
        "\(words[(id * 7 + kind.count) % words.count])-\(kind)-\(id)"
    }
    /// `{"name": ..., "url": ...}` of a record of `kind` drawn at random.
    func link(_ kind: String) -> String {
        let id = 1 + random.below(counts[kind]!)
        return "{\"name\":\"\(name(kind, id))\",\"url\":\"https://svc.example/api/v2/\(kind)/\(id)/\"}"
    }
    func links(_ kind: String, _ most: Int) -> String {
        "[" + (0..<random.below(most + 1)).map { _ in link(kind) }.joined(separator: ",") + "]"
    }
    func sprite(_ kind: String, _ id: Int, _ side: String) -> String {
        "\"https://svc.example/media/\(kind)/\(side)/\(id).png\""
    }
    for (kind, _) in serviceKinds {
        try FileManager.default.createDirectory(atPath: directory + "/" + kind, withIntermediateDirectories: true)
        for id in 1...counts[kind]! {
            var fields = ["\"id\":\(id)", "\"name\":\"\(name(kind, id))\""]
            switch kind {
            case "pokemon":
                let types = (1...(1 + random.below(2))).map { "{\"slot\":\($0),\"type\":\(link("type"))}" }
                let abilities = (1...(1 + random.below(3))).map {
                    "{\"ability\":\(link("ability")),\"is_hidden\":\($0 == 3),\"slot\":\($0)}"
                }
                let moves = (0..<random.below(12)).map { _ in
                    "{\"move\":\(link("move")),\"level_learned_at\":\(random.below(60))}"
                }
                fields += [
                    "\"height\":\(1 + random.below(30))", "\"weight\":\(1 + random.below(2000))",
                    "\"base_experience\":\(random.below(300))", "\"species\":\(link("species"))",
                    "\"types\":[\(types.joined(separator: ","))]", "\"abilities\":[\(abilities.joined(separator: ","))]",
                    "\"moves\":[\(moves.joined(separator: ","))]", "\"held_items\":\(links("item", 2))",
                    "\"sprites\":{\"front_default\":\(sprite(kind, id, "front")),\"back_default\":\(sprite(kind, id, "back"))}",
                ]
            case "species":
                fields += [
                    "\"capture_rate\":\(random.below(256))", "\"is_legendary\":\(random.below(30) == 0)",
                    "\"generation\":\(link("generation"))", "\"habitat\":\(random.below(4) == 0 ? "null" : link("location"))",
                    "\"flavor_text\":\"\(random.phrase(6 + random.below(8)))\"",
                ]
            case "move":
                fields += [
                    "\"power\":\(random.below(5) == 0 ? "null" : String(10 * (1 + random.below(15))))",
                    "\"accuracy\":\(50 + random.below(51))", "\"pp\":\(5 * (1 + random.below(8)))",
                    "\"type\":\(link("type"))", "\"generation\":\(link("generation"))",
                    "\"meta\":{\"crit_rate\":\(random.below(3)),\"drain\":\(random.below(50)),\"category\":{\"name\":\"\(random.word())\"}}",
                ]
            case "ability":
                fields += [
                    "\"is_main_series\":\(random.below(10) != 0)", "\"generation\":\(link("generation"))",
                    "\"effect\":\"\(random.phrase(8 + random.below(10)))\"",
                ]
            case "item":
                fields += [
                    "\"cost\":{\"amount\":\(random.below(10_000)),\"currency\":\"coin\"}",
                    "\"fling_power\":\(random.below(4) == 0 ? "null" : String(random.below(100)))",
                    "\"attributes\":[\"\(random.word())\",\"\(random.word())\"]",
                    "\"sprites\":{\"default\":\(sprite(kind, id, "default"))}",
                ]
            case "location":
                fields += [
                    "\"region\":\"\(random.word())\"", "\"generation\":\(link("generation"))",
                    "\"areas\":[\((1...(1 + random.below(3))).map { "{\"name\":\"area-\(id)-\($0)\",\"encounter_rate\":\(random.below(100))}" }.joined(separator: ","))]",
                ]
            case "type":
                fields += [
                    "\"generation\":\(link("generation"))", "\"double_damage_to\":\(links("type", 3))",
                    "\"half_damage_from\":\(links("type", 3))",
                ]
            default:
                fields += ["\"main_region\":\"\(random.word())\"", "\"released\":\"\(random.timestamp())\""]
            }
            let file = Output(directory + "/\(kind)/\(id).json")
            file.write("{" + fields.joined(separator: ",") + "}\n")
        }
    }
}
