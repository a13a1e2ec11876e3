import SeederCore
import SeederFiles

/// The fitter's checks and messages: columns found by name, values that suit their column,
/// `NOT NULL` columns that something fills, tables that are empty; and what the seed's
/// metadata says of the fit.
extension SchemaFitter {
    func error(_ message: String, at location: SourceLocation) {
        diagnostics.error(.schema, message, at: location)
    }

    /// `'a', 'b' and 'c'` (or another conjunction), or `none`.
    func quotedList(_ names: [String], conjunction: String = "and") -> String {
        names.isEmpty ? "none" : Wording.list(names.map { "'\($0)'" }, conjunction: conjunction)
    }

    func lowerFirst(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }

    /// Whether two lists of names are the same, as SQLite compares names.
    func same(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.caseInsensitiveCompare($1) == .orderedSame }
    }

    /// `what` has no column in `table`: an error listing the table's columns.
    func missing(
        _ what: String, in table: AppSchema.Table, at location: SourceLocation, near name: String? = nil,
        advice: String = "name it with 'column:'"
    ) {
        let names = table.columns.map(\.name)
        error(
            "table '\(table.name)' of the app's schema has no \(what)\(name.map { Wording.didYouMean($0, among: names) } ?? ""); "
                + "\(advice); its columns: \(quotedList(names))", at: location)
    }

    /// Copies of the built columns into the app's columns of the same names; with `single`, the
    /// one built column into the first of `names` that `table` has. `nil` after an error.
    func columns(
        _ names: [String], in table: AppSchema.Table, what: String, at location: SourceLocation, single: Bool = false,
        builtColumns: [String]? = nil, advice: String = "name it with 'column:'"
    ) -> [SchemaFit.Fill]? {
        let built = builtColumns ?? names
        if single {
            guard let column = names.lazy.compactMap({ table.column(named: $0) }).first else {
                missing("column for \(what)", in: table, at: location, near: names[0], advice: advice)
                return nil
            }
            return [SchemaFit.Fill(column: column.name, value: .column(built[0]))]
        }
        var fills: [SchemaFit.Fill] = []
        for (name, builtColumn) in zip(names, built) {
            guard let column = table.column(named: name) else {
                missing("column '\(name)' for \(what)", in: table, at: location, near: name, advice: advice)
                return nil
            }
            fills.append(SchemaFit.Fill(column: column.name, value: .column(builtColumn)))
        }
        return fills
    }

    /// Reports a value stored as `storedType` (seeder's declared type: TEXT, INTEGER, REAL,
    /// BLOB) that `column`'s affinity would change or that the app would read as another type.
    func checkSuits(
        _ storedType: String, _ what: String, attribute: Attribute?, column: AppSchema.Column, of table: AppSchema.Table,
        at location: SourceLocation
    ) {
        let affinity = column.affinity
        let suits: Bool
        switch (storedType, affinity) {
        case (_, .blob), ("", _): suits = true
        case ("INTEGER", _): suits = affinity != .text
        case ("REAL", _): suits = affinity == .real || affinity == .numeric
        case ("TEXT", .text): suits = true
        // A NUMERIC column keeps text that is not a number as it is (GRDB's DATETIME holds ISO 8601).
        case ("TEXT", .numeric): suits = attribute?.type == .decimal || attribute?.type == .date
        default: suits = false
        }
        if suits, storedType == "TEXT", affinity == .numeric, attribute?.type == .decimal, let attribute {
            diagnostics.warning(
                .schema,
                "decimal '\(attribute.name)' goes into column '\(column.name)' (\(affinity.rawValue) affinity) of table '\(table.name)', "
                    + "which stores it as a number: exact to 15 significant digits; a TEXT column keeps every digit",
                at: location)
        }
        guard !suits else { return }
        let declared = column.declaredType.isEmpty ? "no type" : column.declaredType
        var message =
            "\(what) is stored as \(storedType), which does not suit column '\(column.name)' (\(declared), "
            + "\(affinity.rawValue) affinity) of table '\(table.name)'"
        if attribute?.type == .date {
            let storage: String
            switch affinity {
            case .text: storage = "iso8601'"
            case .real: storage = "unixepoch' (seconds since 1970)"
            default: storage = "unixepoch_ms' (milliseconds since 1970, as Room's converters store them)"
            }
            message += ": choose 'storage: \(storage)"
        } else if let attribute {
            message += ": the column wants \(affinity.rawValue.lowercased()) values, and '\(attribute.name)' is \(attribute.type.rawValue)"
        }
        error(message, at: location)
    }

    /// Reports values of the target's identity that do not suit a to-one's columns; returns the
    /// `NOT NULL` column that makes an optional to-one required, if one does.
    func checkToOne(_ fills: [SchemaFit.Fill], _ relationship: Relationship, in table: AppSchema.Table) -> String? {
        var requiredBy: String?
        if !relationship.isRequired, let notNull = fills.first(where: { table.column(named: $0.column)?.notNull == true }) {
            requiredBy = "column '\(notNull.column)' of table '\(table.name)' is NOT NULL"
        }
        let types = SeedSchema.targetKeyColumns(of: relationship, in: mapping.entities).map(\.type)
        for (fill, type) in zip(fills, types) {
            guard case .column = fill.value, let column = table.column(named: fill.column) else { continue }
            checkSuits(type, "relationship '\(relationship.name)'", attribute: nil, column: column, of: table, at: relationship.location)
        }
        return requiredBy
    }

    /// Reports the `NOT NULL` columns without a default that nothing fills.
    func checkFilled(_ fill: SchemaFit.TableFill, at location: SourceLocation) {
        guard let table = schema.table(named: fill.table) else { return }
        var counts: [String: Int] = [:]
        for column in fill.fills { counts[column.column.lowercased(), default: 0] += 1 }
        let twice = table.columns.map(\.name).filter { (counts[$0.lowercased()] ?? 0) > 1 }
        if !twice.isEmpty {
            error(
                "more than one attribute or relationship fills \(quotedList(twice)) of table '\(table.name)'; "
                    + "name the column of each with 'column:'", at: location)
        }
        let filled = Set(fill.fills.map { $0.column.lowercased() })
        let unfilled = table.columns.filter { column in
            column.notNull && !column.hasDefault && !filled.contains(column.name.lowercased())
                && column.name.caseInsensitiveCompare(table.rowidColumn ?? "") != .orderedSame
        }
        guard !unfilled.isEmpty else { return }
        error(
            "table '\(table.name)' has \(unfilled.count == 1 ? "a NOT NULL column" : "NOT NULL columns") without a default that nothing fills: "
                + "\(quotedList(unfilled.map(\.name))); map an attribute onto \(unfilled.count == 1 ? "it" : "each")", at: location)
    }

    /// Reports tables seeder fills that already hold rows, and tables two things fill.
    func checkEmpty(_ fills: [SchemaFit.TableFill]) {
        var seen = Set<String>()
        for fill in fills where !seen.insert(fill.table.lowercased()).inserted {
            let sharing = fills.filter { $0.table.caseInsensitiveCompare(fill.table) == .orderedSame }
            let owners = sharing.map { owner in
                let entity = mapping.entities[owner.entity]
                guard owner.builtTable != entity.table else { return "entity '\(entity.name)'" }
                let relationship = entity.relationships.first {
                    $0.storage.joinTable?.name == owner.builtTable
                }
                return "the join table of '\(entity.name).\(relationship?.name ?? owner.builtTable)'"
            }
            let named = owners.dropLast().joined(separator: ", ") + " and " + owners.last!
            let advice =
                sharing.allSatisfy { $0.builtTable != mapping.entities[$0.entity].table }
                ? "map one side of a many-to-many only" : "each needs a table of its own"
            error("\(named) fill one table '\(fill.table)' of the app's schema; \(advice)", at: location)
        }
        seen = []
        for fill in fills where seen.insert(fill.table.lowercased()).inserted {
            guard let table = schema.table(named: fill.table), table.rows > 0 else { continue }
            error(
                "the app's schema holds \(Wording.count(table.rows, "row")) in table '\(table.name)', which seeder "
                    + "fills: give an empty database, made by the app before it stores anything", at: location)
        }
    }

    /// The app's full-text tables with a content table that seeder fills: rebuilt from it.
    func rebuilt(filling fills: [SchemaFit.TableFill]) -> [String] {
        let filled = Set(fills.map { $0.table.lowercased() })
        return schema.tables.compactMap { table in
            guard let content = table.contentTable, !content.isEmpty, filled.contains(content.lowercased()),
                !filled.contains(table.name.lowercased())
            else { return nil }
            return table.name
        }
    }

    /// The mapping renamed to the app's tables and columns.
    func described(_ fills: [SchemaFit.TableFill], fits: [EntityFit]) -> Mapping {
        var described = mapping
        described.schemaVersion = schema.userVersion
        for (index, fit) in fits.enumerated() {
            let fill = fills.first { $0.entity == index && $0.builtTable == mapping.entities[index].table }
            let renamed = Self.appNames(fill?.fills ?? [])
            described.entities[index].table = fit.table.name
            for attribute in described.entities[index].attributes.indices {
                described.entities[index].attributes[attribute].column = fit.attributeColumns[attribute] ?? ""
            }
            for relationship in described.entities[index].relationships.indices {
                let storage = described.entities[index].relationships[relationship].storage
                switch storage {
                case let .foreignKey(columns):
                    described.entities[index].relationships[relationship].storage = .foreignKey(columns: columns.map { renamed[$0] ?? $0 })
                case let .joinTable(join):
                    guard let joinFill = fills.first(where: { $0.builtTable == join.name && $0.entity == index }) else { continue }
                    let names = Self.appNames(joinFill.fills)
                    var renamedJoin = join
                    renamedJoin.name = joinFill.table
                    renamedJoin.ownerColumns = join.ownerColumns.map { names[$0] ?? $0 }
                    renamedJoin.targetColumns = join.targetColumns.map { names[$0] ?? $0 }
                    renamedJoin.positionColumn = join.positionColumn.map { names[$0] ?? $0 }
                    described.entities[index].relationships[relationship].storage = .joinTable(renamedJoin)
                case .inverse:
                    // Described as the mapping has it.
                    break
                }
            }
        }
        return described
    }

    /// The app's column of each built column that a fill reads, by the built column's name.
    static func appNames(_ fills: [SchemaFit.Fill]) -> [String: String] {
        Dictionary(fills.compactMap { fill in fill.value.builtColumn.map { ($0, fill.column) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The app's columns that hold another entity's row number, by table, with that entity's
    /// app table.
    func rowNumberReferences(_ fills: [SchemaFit.TableFill], fits: [EntityFit]) -> [String: [String: String]] {
        var references: [String: [String: String]] = [:]
        for fill in fills {
            for column in fill.fills {
                guard case let .rowNumberOf(entity, _) = column.value else { continue }
                references[fill.table, default: [:]][column.column] = fits[entity].table.name
            }
        }
        return references
    }
}
