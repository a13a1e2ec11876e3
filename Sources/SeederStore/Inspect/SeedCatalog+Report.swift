import SeederCore

/// What `seeder inspect` prints: the catalog of a seed as text for people or as one JSON document.
extension SeedCatalog {
    /// The seed described for people: file, metadata, sources, tables with row counts.
    public var text: String {
        var text = "\(path): \(fileSize) bytes, schema version \(userVersion), \(tables.count) \(tables.count == 1 ? "table" : "tables")\n"
        text += "\nmetadata\n" + TextTable.render(metadata.map { ["  " + $0.key, SeedDiffWriter.shortened($0.value)] }, rightAligned: [])
        text += "\nsources\n" + TextTable.render([["  path", "sha256", "bytes", "records"]] + sources.map {
            ["  " + $0.path, String($0.sha256.prefix(12)), String($0.bytes), String($0.records)]
        }, rightAligned: [2, 3])
        text += "\ntables\n" + TextTable.render([["  table", "rows", "holds"]] + tables.map { table in
            ["  " + table.name, table.rows.map(String.init) ?? "", holder(of: table.name)]
        }, rightAligned: [1])
        return text
    }

    /// The seed as one JSON document, keys in a fixed order; `mapping` is the description itself.
    public var json: String {
        let string = JSONWriter.stringLiteral
        let values = metadata.filter { $0.key != "mapping" }.map { string($0.key) + ":" + string($0.value) }
        let description = metadata("mapping").map { mapping != nil ? $0 : string($0) } ?? "null"
        let sources = sources.map {
            "{\"path\":\(string($0.path)),\"sha256\":\(string($0.sha256)),\"bytes\":\($0.bytes),\"records\":\($0.records)}"
        }
        let tables = tables.map { table in
            let holder = holder(of: table.name)
            return "{\"name\":\(string(table.name)),\"rows\":\(table.rows.map(String.init) ?? "null"),\"holds\":\(holder.isEmpty ? "null" : string(holder))}"
        }
        return "{\"path\":\(string(path)),\"bytes\":\(fileSize),\"applicationId\":\(applicationID),\"userVersion\":\(userVersion),"
            + "\"metadata\":{\(values.joined(separator: ","))},\n\"sources\":[\(sources.joined(separator: ","))],\n"
            + "\"tables\":[\(tables.joined(separator: ","))],\n\"mapping\":\(description)}"
    }

    /// What a table holds: `User` for an entity's table, `Project.tags` for a join table.
    private func holder(of table: String) -> String {
        if let entity = mapping?.entity(table: table) { return entity.name }
        if let join = mapping?.joinTable(table) { return "\(join.owner).\(join.relationship)" }
        return ""
    }
}
