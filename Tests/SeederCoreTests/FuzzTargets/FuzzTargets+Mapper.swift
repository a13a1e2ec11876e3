import SeederCore

/// fuzz-mapper: a fixed mapping that uses every type, date format and storage, key paths and
/// collection operators, `@file.N`, every kind of relationship and identity, keys as data
/// (`keyedBy`) and selectors (polymorphism) in each stored form; the bytes are its dump.
extension FuzzTargets {
    /// The mapping the dumps are mapped with (docs/mapping.md): `Project` records embed or name
    /// everything else, so one dump reaches every entity.
    public static let mapperYAML = """
        seeder: 1
        timeZone: America/New_York
        entities:
          User:
            attributes:
              id: integer
              name: { type: string, required: true }
              email: { type: string, unique: true }
              score: real
              balance: decimal
              active: { type: boolean, default: false }
              role: { type: string, values: [admin, member, guest] }
              level: { type: integer, values: [1, 2, 3] }
              born: { type: date, format: "yyyy-MM-dd" }
              seenAt: { type: date, storage: unixepoch }
              stamp: { type: date, format: unix, storage: unixepoch_ms }
              stampMs: { type: date, format: unix_ms, storage: reference }
              stampUs: { type: date, format: unix_us }
              stampNs: { type: date, format: unix_ns, storage: unixepoch }
              nickname: { type: string, emptyAsNull: true }
              localTime: { type: date, format: "MM/dd/yyyy HH:mm", timeZone: Europe/Paris }
              site: url
              token: uuid
              avatar: data
              settings: json
              city: { type: string, from: address.city }
              zip: { type: string, from: [address, "zip.code"] }
              org: { type: string, from: "@file.1" }
              rest: { type: json, from: "@rest" }
            relationships:
              manager: { to: User, onMissing: "null" }
          Project:
            onConflict: last
            attributes:
              id: integer
              name: string
              taskCount: { type: integer, from: "tasks.@count" }
              hours: { type: decimal, from: "tasks.@sum.hours" }
              averageHours: { type: decimal, from: "tasks.@avg.hours" }
              firstDue: { type: string, from: "tasks.@min.due_at" }
              lastDue: { type: string, from: "tasks.@max.due_at" }
              owners: { type: json, from: "tasks.@distinctUnionOfObjects.assigned_user_id" }
              labels: { type: json, from: "tags.@unionOfObjects.label" }
              taskTags: { type: json, from: "tasks.@unionOfArrays.tags" }
              taskLabels: { type: json, from: "tasks.@distinctUnionOfArrays.labels" }
              firstTask: { type: string, from: "tasks.@first.name" }
              lastDone: { type: boolean, from: "tasks.@last.done" }
              folder: { type: integer, from: "@file.1" }
            relationships:
              user: { to: User }
              lead: { to: User, from: "tasks.@first.assigned_user_id" }
              lastCard: { to: Card, from: "tasks.@last.card" }
              tasks: { to: Task, many: true, inverse: project, ordered: true }
              tags: { to: Tag, many: true, ordered: true }
              cards: { to: Card, many: true }
              notes: { to: Note, many: true, inverse: project }
              tagMap: { to: Tag, many: true, keyedBy: label }
              pinned: { to: { by: kind, cases: { task: Task, tag: Tag } } }
              media: { to: { by: kind, cases: { task: Task, tag: Tag }, default: Task }, many: true, ordered: true }
              items: { to: { by: kind, cases: { task: Task, note: Note } }, many: true, inverse: project }
          Task:
            nulls: absent
            attributes:
              id: integer
              name: string
              hours: real
              dueAt: { type: date, format: "yyyy-MM-dd HH:mm:ss Z" }
              done: { type: boolean, default: false }
            relationships:
              project: { to: Project }
              assignedUser: { to: User, from: assigned_user_id }
              card: { to: Card }
          Tag:
            identity: label
            onConflict: first
            attributes:
              label: string
              color: string
          Card:
            identity: [suit, value]
            attributes:
              suit: string
              value: integer
          Note:
            identity: none
            attributes:
              text: string
            relationships:
              project: { to: Project, required: true }
        sources:
          - { path: projects/*.json, entity: Project }
          - { path: users/*/*.jsonl, entity: User }
        """

    static let mapperMapping: Mapping? = MappingLoader().load(yaml: mapperYAML, file: "mapping.yaml", diagnostics: DiagnosticSink())

    /// Reads `bytes` as a dump of projects (one JSON value) and of users (JSON Lines), maps
    /// every record, merges the occurrences of each identity as the row store does, finishes
    /// the rows, and prints every diagnostic at its line and column. Every problem with the
    /// data must be a diagnostic; records must fit their entities and batches.
    public static func mapper(_ bytes: [UInt8]) -> [String] {
        guard let mapping = mapperMapping else { return ["the mapper target's mapping does not load"] }
        var problems: [String] = []
        for (format, entity, stars) in [(DumpFormat.json, "Project", ["7"]), (.jsonLines, "User", ["acme", "0001"])] {
            let sink = DiagnosticSink()
            let mapper = Mapper(mapping: mapping)
            mapper.beginFile(path: entity == "Project" ? "projects/*.json" : "users/*/*.jsonl", stars: stars)
            var rows = RowMerge(mapping: mapping)
            do {
                try JSONReader(source: MemoryByteSource(bytes), format: format, blockSize: 4096).forEachItem { item in
                    guard case let .record(value) = item else { return }
                    let batch = mapper.records(
                        from: value, entity: mapping.entityIndex(named: entity)!, file: "dump.json", diagnostics: sink)
                    problems += checkBatch(batch, mapping: mapping)
                    rows.add(batch, diagnostics: sink)
                }
            } catch let error as JSONSyntaxError {
                sink.error(.syntax, error.message, at: SourceLocation(file: "dump.json", offset: error.offset))
            } catch {
                problems.append("unexpected error \(error)")
            }
            rows.finish(diagnostics: sink)
            mapper.reportCoverage(to: sink)
            sink.resolveOffsets { _ in MemoryByteSource(bytes) }
            for diagnostic in sink.diagnostics {
                if case .offset? = diagnostic.location?.position { problems.append("not resolved: \(diagnostic)") }
                if case .offset? = diagnostic.relatedLocation?.position { problems.append("not resolved: \(diagnostic)") }
            }
        }
        return problems
    }

    /// Records fit their entities; links to embedded records name records of their batch, of
    /// the relationship's target.
    static func checkBatch(_ batch: [Record], mapping: Mapping) -> [String] {
        var problems: [String] = []
        for record in batch {
            let shape = checkShape(record, mapping: mapping)
            problems += shape
            guard shape.isEmpty else { continue }
            let entity = mapping.entities[record.entity]
            if case .none = entity.identity {
                if record.identity != nil { problems.append("\(entity.name) has no identity, but a record has one") }
            } else if let identity = record.identity, identity.values.count != entity.identityAttributes.count {
                problems.append("\(entity.name) identity \(identity) of the wrong size")
            }
            for (link, relationship) in zip(record.links, entity.relationships) {
                let references: [RecordReference] =
                    switch link {
                    case let .one(reference): [reference]
                    case let .many(references): references
                    case .absent, .null: []
                    }
                for reference in references {
                    switch reference {
                    case let .embedded(index):
                        if !batch.indices.contains(index) {
                            problems.append("\(entity.name).\(relationship.name) names record \(index) of a batch of \(batch.count)")
                        } else if !relationship.targets.contains(batch[index].entity) {
                            problems.append("\(entity.name).\(relationship.name) names a record of another entity")
                        }
                    case let .identity(key, _):
                        // Through a selector, the key ends with the chosen entity's name.
                        var target = relationship.target
                        if relationship.selector != nil {
                            guard case let .text(name)? = key.values.last, let chosen = mapping.entityIndex(named: name),
                                relationship.targets.contains(chosen)
                            else {
                                problems.append("\(entity.name).\(relationship.name) names \(key) without an entity it can choose")
                                continue
                            }
                            target = chosen
                        }
                        let size = mapping.entities[target].identityAttributes.count + (relationship.selector == nil ? 0 : 1)
                        if key.values.count != size {
                            problems.append("\(entity.name).\(relationship.name) names \(key), of the wrong size")
                        }
                    }
                }
            }
        }
        return problems
    }
}

/// The rows of a dump held in memory, merged by identity as the row store merges them
/// (to-many links are kept apart there, so they are left out of the merge).
struct RowMerge {
    let mapping: Mapping
    let mergers: [RecordMerger]
    var rows: [[IdentityKey: Record]]

    init(mapping: Mapping) {
        self.mapping = mapping
        self.mergers = mapping.entities.map(RecordMerger.init)
        self.rows = mapping.entities.map { _ in [:] }
    }

    mutating func add(_ batch: [Record], diagnostics: DiagnosticSink) {
        for record in batch {
            guard let identity = record.identity else { continue }
            var incoming = record.namingEmbeddedTargets(
                in: batch, selectorLinks: mapping.entities[record.entity].relationships.map { $0.selector != nil },
                entityNames: mapping.entities.map(\.name))
            guard var row = rows[record.entity][identity] else {
                rows[record.entity][identity] = incoming
                continue
            }
            for (index, relationship) in mapping.entities[record.entity].relationships.enumerated() where relationship.isToMany {
                incoming.links[index] = .absent
            }
            for conflict in mergers[record.entity].merge(incoming, into: &row) where !conflict.isResolved {
                diagnostics.report(mergers[record.entity].diagnostic(for: conflict, identity: identity))
            }
            rows[record.entity][identity] = row
        }
    }

    mutating func finish(diagnostics: DiagnosticSink) {
        for entity in rows.indices {
            for (identity, var row) in rows[entity] {
                for name in mergers[entity].finish(&row) {
                    diagnostics.error(
                        .required, "\(mapping.entities[entity].name) \(identity): '\(name)' is required", at: row.origin.location)
                }
            }
        }
    }
}
