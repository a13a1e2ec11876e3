import SeederCore

/// fuzz-mapping: the mapping loader on any YAML, and the mapper built from what it accepts.
extension FuzzTargets {
    /// Loads `bytes` as a mapping file. The loader must say why it refuses (an error at a
    /// line and column of the file) and accept only what it reports no error for; a mapping
    /// it accepts must make a mapper that maps a record into every entity.
    public static func mapping(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let sink = DiagnosticSink()
        let mapping = MappingLoader().load(yaml: String(decoding: bytes, as: UTF8.self), file: "mapping.yaml", diagnostics: sink)
        if (mapping == nil) != sink.hasErrors {
            problems.append("loaded: \(mapping != nil), but \(sink.errorCount) errors")
        }
        for diagnostic in sink.diagnostics {
            guard let location = diagnostic.location, location.file == "mapping.yaml" else {
                problems.append("not located in the mapping: \(diagnostic)")
                continue
            }
            switch location.position {
            case .file: break
            case let .lineColumn(line, column) where line >= 1 && column >= 1: break
            default: problems.append("located at no line of the mapping: \(diagnostic)")
            }
        }
        if let mapping { problems += mapSample(with: mapping) }
        return problems
    }

    /// Maps one record that has a key for every attribute and relationship into each entity.
    static func mapSample(with mapping: Mapping) -> [String] {
        var problems: [String] = []
        let mapper = Mapper(mapping: mapping)
        let sink = DiagnosticSink()
        for (index, entity) in mapping.entities.enumerated() {
            var members = entity.attributes.map { "\(JSONWriter.stringLiteral($0.name)): \"1\"" }
            members += entity.relationships.map { "\(JSONWriter.stringLiteral($0.name)): \($0.isToMany ? "[1, {}]" : "{}")" }
            // Names that differ only in case or underscores may read the same key: keep the first.
            var seen = Set<String>()
            members = members.filter { seen.insert($0.split(separator: ":")[0].lowercased()).inserted }
            guard let record = try? JSONDocument(parsing: "{" + members.joined(separator: ", ") + "}") else {
                problems.append("the sample record of \(entity.name) does not parse")
                continue
            }
            for mapped in mapper.records(from: record.root, entity: index, file: "sample.json", diagnostics: sink) {
                problems += checkShape(mapped, mapping: mapping)
            }
        }
        mapper.reportCoverage(to: sink)
        return problems
    }

    /// A record has a field per attribute and a link per relationship of its entity.
    static func checkShape(_ record: Record, mapping: Mapping) -> [String] {
        guard mapping.entities.indices.contains(record.entity) else { return ["record of no entity \(record.entity)"] }
        let entity = mapping.entities[record.entity]
        guard record.fields.count == entity.attributes.count, record.links.count == entity.relationships.count else {
            return ["\(entity.name) record with \(record.fields.count) fields and \(record.links.count) links"]
        }
        return []
    }
}
