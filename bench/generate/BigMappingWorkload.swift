import Foundation

// MARK: bigmapping

/// A mapping as big as `seeder infer` drafts for a large service (1,041 entities and 31,811
/// relationships, 5.7 MB of YAML in the case that prompted it; each line here carries a comment
/// as a draft's do), with a small dump per source so that `build`
/// runs end to end: `DIR/mapping.yaml` and `DIR/dumps/kNNNNN.json`.
///
/// N entities `K00000`...; each has five attributes and 20-40 relationships (30 on average) to
/// other entities drawn at random, in four kinds taken in turn: a to-one by key (`rN_id`), a
/// to-many by key (`rN_ids`), a nested to-one (`rN: {id, name}`) and a nested to-many (`rN:
/// [{id, name}, ...]`); and one source per entity. Every entity's dump holds ids 1-3, and every
/// link names one of them, so the build resolves every reference. A nested record carries the
/// same `name` as its entity's own record of that id, so occurrences merge without a conflict.
func generateBigMapping(count: Int, directory: String) throws {
    var random = SplitMix64(state: 41)
    let recordsPerEntity = 3
    func entityName(_ index: Int) -> String {
        let digits = String(index)
        return "K" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
    }
    func recordName(_ entity: Int, _ id: Int) -> String { "k\(entity)-\(id)" }
    /// Per entity: its relationships as (target, kind), kind 0-3 as above.
    var relationships: [[(target: Int, kind: Int)]] = []
    for entity in 0..<count {
        let many = count > 1 ? 20 + random.below(21) : 0
        relationships.append(
            (0..<many).map { index in
                var target = random.below(count - 1)
                if target >= entity { target += 1 }
                return (target, index % 4)
            })
    }

    let mapping = Output(directory + "/mapping.yaml")
    mapping.write("# bench \"bigmapping\": \(count) entities, \(relationships.map(\.count).reduce(0, +)) relationships.\n")
    mapping.write("seeder: 1\nentities:\n")
    for entity in 0..<count {
        mapping.write("  \(entityName(entity)):\n    attributes:\n")
        mapping.write("      id: integer\n      name: string\n      score: integer\n      active: boolean\n")
        mapping.write("      createdAt: { type: date, from: created_at }\n")
        guard !relationships[entity].isEmpty else { continue }
        mapping.write("    relationships:\n")
        for (index, link) in relationships[entity].enumerated() {
            let target = entityName(link.target)
            // Padded and commented as a draft's lines are (infer's evidence), for a draft's bytes.
            let line: String
            switch link.kind {
            case 0: line = "      r\(index): { to: \(target), from: r\(index)_id }"
            case 1: line = "      r\(index): { to: \(target), many: true, from: r\(index)_ids }"
            case 2: line = "      r\(index): { to: \(target) }"
            default: line = "      r\(index): { to: \(target), many: true }"
            }
            let evidence = [
                "by key, every value a \(target) id", "by keys, every value a \(target) id", "embedded, keyed by id",
                "embedded, keyed by id",
            ]
            mapping.write(
                line + String(repeating: " ", count: max(1, 60 - line.count)) + "# \(recordsPerEntity) of \(recordsPerEntity); "
                    + evidence[link.kind] + "\n")
        }
    }
    mapping.write("sources:\n")
    for entity in 0..<count {
        mapping.write("  - path: k\(entity).json\n    entity: \(entityName(entity))\n")
    }

    try FileManager.default.createDirectory(atPath: directory + "/dumps", withIntermediateDirectories: true)
    for entity in 0..<count {
        let dump = Output(directory + "/dumps/k\(entity).json")
        dump.write("[\n")
        for id in 1...recordsPerEntity {
            var fields = [
                "\"id\":\(id)", "\"name\":\"\(recordName(entity, id))\"", "\"score\":\(random.below(1000))",
                "\"active\":\(random.below(2) == 0)", "\"created_at\":\"\(random.timestamp())\"",
            ]
            for (index, link) in relationships[entity].enumerated() {
                func nested(_ target: Int) -> String {
                    "{\"id\":\(target),\"name\":\"\(recordName(link.target, target))\"}"
                }
                let first = 1 + random.below(recordsPerEntity)
                switch link.kind {
                case 0: fields.append("\"r\(index)_id\":\(1 + random.below(recordsPerEntity))")
                case 1: fields.append("\"r\(index)_ids\":[\((1...recordsPerEntity).map(String.init).joined(separator: ","))]")
                case 2: fields.append("\"r\(index)\":" + nested(first))
                default: fields.append("\"r\(index)\":[" + nested(first) + "," + nested(first % recordsPerEntity + 1) + "]")
                }
            }
            dump.write((id == 1 ? "" : ",\n") + "{" + fields.joined(separator: ",") + "}")
        }
        dump.write("\n]\n")
    }
}
