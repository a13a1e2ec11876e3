import SeederCore
import SeederFiles

/// The order of the draft's sources (docs/commands.md, `seeder infer`, Sources): a build reads
/// them in order, and under `onConflict: first` the first copy of a record wins, so an entity's
/// own records (`users.json`) are read before the records that embed a copy of it, often partial
/// (`posts.json`, each with its `user`).
extension MappingInference {
    /// `sources`, each entity's own before those whose records embed it; otherwise, and on a
    /// cycle, in file order.
    static func ordered(_ sources: [InferredMapping.Source], embedding entities: [ShapeObserver]) -> [InferredMapping.Source] {
        let observers = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var embeddedCache: [String: Set<String>] = [:]
        func embedded(_ name: String) -> Set<String> {
            if let found = embeddedCache[name] { return found }
            var reached = Set<String>()
            var pending = [name]
            while let next = pending.popLast() {
                for stats in observers[next]?.keys ?? [] {
                    guard let child = nestedEntity(stats), reached.insert(child.name).inserted else { continue }
                    pending.append(child.name)
                }
            }
            reached.remove(name)
            embeddedCache[name] = reached
            return reached
        }
        // Source `index` waits for the sources of the entities its records embed.
        let waits = sources.indices.map { index in
            let inside = embedded(sources[index].entity)
            return sources.indices.filter { $0 != index && inside.contains(sources[$0].entity) }
        }
        var placed = [Bool](repeating: false, count: sources.count)
        var order: [InferredMapping.Source] = []
        while order.count < sources.count {
            let ready = sources.indices.first { !placed[$0] && waits[$0].allSatisfy { placed[$0] } }
            let next = ready ?? sources.indices.first { !placed[$0] }!
            placed[next] = true
            order.append(sources[next])
        }
        return order
    }
}
