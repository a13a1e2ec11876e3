import SeederCore
import SeederFiles

/// Matches a mapping against the app's own schema (docs/mapping.md, Fitting the app's own
/// schema): each entity onto a table, each attribute and to-one onto columns, each many-to-many
/// onto a join table, and reports at the mapping's nodes, listing what the app's schema has,
/// everything that does not fit. The result is a `SchemaFit`, or `nil` after errors.
struct SchemaFitter {
    let mapping: Mapping
    let schema: AppSchema
    let mode: SchemaFit.Mode
    /// Where the mapping names the schema.
    let location: SourceLocation
    let diagnostics: DiagnosticSink

    /// What the fitter learns of one entity.
    struct EntityFit {
        var table: AppSchema.Table
        var fills: [SchemaFit.Fill] = []
        /// The app's column of each attribute, by attribute index.
        var attributeColumns: [String?] = []
        /// Core Data's `Z_ENT`.
        var coreDataNumber: Int?
        /// The attributes and to-ones, by index, that the table's `NOT NULL` columns make
        /// required, with the column that does.
        var requiredAttributes: [Int: String] = [:]
        var requiredRelationships: [Int: String] = [:]
        /// The attributes whose column has a default.
        var defaultedAttributes: [Int] = []
    }

    /// The fit of `mapping` onto `schema`, whose empty database is `bytes`.
    func fit(bytes: [UInt8]) -> SchemaFit? {
        let errors = diagnostics.errorCount
        // A seed given as the template: one error, not one per table it fills.
        if let name = ["seed_metadata", "seed_source"].first(where: { schema.names.contains($0) }) {
            error("the app's schema already has a table '\(name)': it is a seed, not an empty schema; seeder adds its own", at: location)
            return nil
        }
        var fits: [EntityFit?] = mapping.entities.indices.map { entityFit($0) }
        var numbered = Set<Int>()
        for index in fits.indices {
            guard var fit = fits[index] else { continue }
            fillAttributes(of: index, into: &fit, numbered: &numbered)
            fits[index] = fit
        }
        var joins: [(fill: SchemaFit.TableFill, at: SourceLocation)] = []
        for (owner, entity) in mapping.entities.enumerated() {
            for (relationshipIndex, relationship) in entity.relationships.enumerated() {
                guard fits[owner] != nil, relationship.targets.allSatisfy({ fits[$0] != nil }) else { continue }
                switch relationship.storage {
                case let .foreignKey(columns):
                    if let fills = toOne(relationship, of: owner, builtColumns: columns, fits: fits, numbered: &numbered),
                        let table = fits[owner]?.table
                    {
                        fits[owner]?.requiredRelationships[relationshipIndex] = checkToOne(fills, relationship, in: table)
                        fits[owner]?.fills += fills
                    }
                case .inverse(_?) where mode == .coreData:
                    error(
                        "seeder cannot fill Core Data's ordered relationships; leave out 'ordered' on '\(entity.name).\(relationship.name)'",
                        at: relationship.location)
                case let .inverse(position?):
                    for target in relationship.targets {
                        guard let table = fits[target]?.table else { continue }
                        if let column = positionColumn(position, relationship, target: target, in: table) {
                            fits[target]?.fills.append(SchemaFit.Fill(column: column.name, value: .column(position)))
                        } else {
                            missing(
                                "column '\(position)' for the order of '\(entity.name).\(relationship.name)'", in: table,
                                at: relationship.location, near: position,
                                advice:
                                    "seeder looks for \(quotedList(positionNames(position, relationship, target: target), conjunction: "or"))"
                            )
                        }
                    }
                case let .joinTable(join):
                    if let fill = joinTable(join, relationship, of: owner, fits: fits, numbered: &numbered) {
                        joins.append((fill, relationship.location))
                    }
                case .inverse(nil):
                    // Stored as the inverse's foreign key, which its to-one fills.
                    break
                }
            }
        }
        var tables: [SchemaFit.TableFill] = []
        for (index, fit) in fits.enumerated() {
            guard let fit else { continue }
            let fill = SchemaFit.TableFill(
                entity: index, builtTable: mapping.entities[index].table, table: fit.table.name, fills: fit.fills)
            checkFilled(fill, at: mapping.entities[index].location)
            tables.append(fill)
        }
        for (fill, at) in joins { checkFilled(fill, at: at) }
        let all = tables + joins.map(\.fill)
        checkEmpty(all)
        guard diagnostics.errorCount == errors else { return nil }
        return SchemaFit(
            mode: mode, location: location, bytes: bytes, tables: all, keyColumns: mapping.entities.map(\.primaryKeyColumns),
            numbered: numbered.sorted(),
            rebuilt: rebuilt(filling: all),
            coreDataNumbers: Dictionary(
                uniqueKeysWithValues: fits.enumerated().compactMap { index, fit in fit?.coreDataNumber.map { (index, $0) } }),
            described: described(all, fits: fits.map { $0! }),
            rowNumberColumns: Dictionary(
                tables.compactMap { table in table.fills.first { $0.value == .rowNumber }.map { (table.table, $0.column) } },
                uniquingKeysWith: { first, _ in first }),
            rowNumberReferences: rowNumberReferences(all, fits: fits.map { $0! }),
            requirements: fits.enumerated().flatMap { entity, fit in
                fit!.requiredAttributes.map { SchemaFit.Requirement(entity: entity, attribute: $0.key, reason: $0.value) }
                    + fit!.requiredRelationships.map { SchemaFit.Requirement(entity: entity, relationship: $0.key, reason: $0.value) }
                    + fit!.defaultedAttributes.map { SchemaFit.Requirement(entity: entity, defaultedAttribute: $0) }
            })
    }

    // MARK: Entities and attributes

    /// The app's table of entity `index` (and its Core Data entity), or `nil` after an error.
    private func entityFit(_ index: Int) -> EntityFit? {
        let entity = mapping.entities[index]
        if let coreData = schema.coreData {
            guard let found = coreData.first(where: { $0.name == entity.name }) else {
                let names = coreData.map(\.name)
                error(
                    "entity '\(entity.name)' is not an entity of the Core Data store\(Wording.didYouMean(entity.name, among: names)); "
                        + "its entities: \(quotedList(names))", at: entity.location)
                return nil
            }
            if found.superNumber != 0 || coreData.contains(where: { $0.superNumber == found.number }) {
                let family = coreData.filter { $0.superNumber == found.number || $0.number == found.superNumber }.map(\.name)
                error(
                    "entity '\(entity.name)' is part of an entity hierarchy in the Core Data store (with \(quotedList(family))); "
                        + "seeder cannot fill subentities, which share their root's table", at: entity.location)
                return nil
            }
            let named = entity.namedTable != nil ? schema.table(named: entity.table) : nil
            guard let table = named ?? schema.table(named: "Z" + found.name.uppercased()) else {
                error("the Core Data store has no table 'Z\(found.name.uppercased())' for entity '\(entity.name)'", at: entity.location)
                return nil
            }
            return EntityFit(table: table, coreDataNumber: found.number)
        }
        // A table the mapping names is the one; else the names seeder tries (docs/mapping.md).
        let candidates = entity.namedTable != nil ? [entity.table] : [entity.table, entity.name, Naming.snakeCase(entity.name)]
        guard let table = candidates.lazy.compactMap({ schema.table(named: $0) }).first else {
            let names = schema.tables.map(\.name)
            error(
                "entity '\(entity.name)' has no table\(entity.namedTable != nil ? " '\(entity.table)'" : "") in the app's schema"
                    + "\(Wording.didYouMean(entity.table, among: names)); \(entity.namedTable != nil ? "correct" : "name it with") 'table:'; "
                    + "the schema's tables: \(quotedList(names))", at: entity.namedTable ?? entity.location)
            return nil
        }
        return EntityFit(table: table)
    }

    private func fillAttributes(of index: Int, into fit: inout EntityFit, numbered: inout Set<Int>) {
        let entity = mapping.entities[index]
        let table = fit.table
        if let number = fit.coreDataNumber {
            fit.fills += [
                SchemaFit.Fill(column: "Z_PK", value: .rowNumber), SchemaFit.Fill(column: "Z_ENT", value: .constant(number)),
                SchemaFit.Fill(column: "Z_OPT", value: .constant(1)),
            ]
            numbered.insert(index)
        }
        let identity = Set(entity.identityAttributes)
        for (attributeIndex, attribute) in entity.attributes.enumerated() {
            var candidates = [attribute.column, attribute.name, Naming.snakeCase(attribute.name)]
            if mode == .coreData { candidates.insert("Z" + attribute.name.uppercased(), at: 1) }
            if attribute.namedColumn != nil { candidates = [attribute.column] }
            guard let column = candidates.lazy.compactMap({ table.column(named: $0) }).first else {
                if let named = attribute.namedColumn {
                    missing(
                        "column '\(attribute.column)' for attribute '\(attribute.name)'", in: table, at: named, near: attribute.column,
                        advice: "correct its 'column:'")
                } else {
                    missing("column for attribute '\(attribute.name)'", in: table, at: attribute.location, near: attribute.column)
                }
                fit.attributeColumns.append(nil)
                continue
            }
            fit.attributeColumns.append(column.name)
            if mode == .coreData, attribute.type == .date {
                fit.fills.append(SchemaFit.Fill(column: column.name, value: .coreDataDate(attribute.column, attribute.dateStorage)))
            } else if mode == .coreData, attribute.type == .uuid, column.affinity == .blob {
                fit.fills.append(SchemaFit.Fill(column: column.name, value: .coreDataUUID(attribute.column)))
            } else {
                checkSuits(
                    attribute.columnType, "attribute '\(attribute.name)'", attribute: attribute, column: column, of: table,
                    at: attribute.location)
                let optional = !attribute.isRequired && !identity.contains(attributeIndex)
                let value: SchemaFit.Value =
                    column.notNull && optional
                    ? column.defaultValue.map { .columnOrDefault(attribute.column, $0) } ?? .column(attribute.column)
                    : .column(attribute.column)
                fit.fills.append(SchemaFit.Fill(column: column.name, value: value))
            }
            // The app's schema says the value is required; the mapping need not say it again
            // (docs/mapping.md, Fitting the app's own schema).
            if column.notNull, !column.hasDefault, !attribute.isRequired, !identity.contains(attributeIndex) {
                fit.requiredAttributes[attributeIndex] = "column '\(column.name)' of table '\(table.name)' is NOT NULL"
            }
            if column.hasDefault { fit.defaultedAttributes.append(attributeIndex) }
        }
        // The app's rows point at its rowid: numbered unless an identity is the rowid.
        if let rowid = table.rowidColumn, !fit.fills.contains(where: { $0.column.caseInsensitiveCompare(rowid) == .orderedSame }) {
            fit.fills.append(SchemaFit.Fill(column: rowid, value: .rowNumber))
            numbered.insert(index)
        }
    }

    // MARK: Relationships

    /// The app's column for the order of an ordered one-to-many, on its children: seeder's name
    /// for it, or the inverse's name with `_position` or `Position`.
    private func positionColumn(_ position: String, _ relationship: Relationship, target: Int, in table: AppSchema.Table) -> AppSchema
        .Column?
    {
        positionNames(position, relationship, target: target).lazy.compactMap { table.column(named: $0) }.first
    }

    private func positionNames(_ position: String, _ relationship: Relationship, target: Int) -> [String] {
        guard let inverse = relationship.inverse(on: target) else { return [position] }
        let name = mapping.entities[target].relationships[inverse].name
        var names: [String] = []
        for candidate in [position, Naming.snakeCase(name) + "_position", name + "Position"] where !names.contains(candidate) {
            names.append(candidate)
        }
        return names
    }

    /// The fills of a to-one's columns, or `nil` after an error.
    private func toOne(
        _ relationship: Relationship, of owner: Int, builtColumns: [String], fits: [EntityFit?], numbered: inout Set<Int>
    ) -> [SchemaFit.Fill]? {
        let entity = mapping.entities[owner]
        guard let table = fits[owner]?.table else { return nil }
        let name = relationship.name
        if relationship.selector != nil {
            guard mode != .coreData else {
                error("Core Data has no polymorphic relationships: '\(entity.name).\(name)' cannot be stored", at: relationship.location)
                return nil
            }
            return columns(builtColumns, in: table, what: "relationship '\(name)'", at: relationship.location)
        }
        let target = relationship.target
        var candidates = builtColumns.count == 1 ? [builtColumns[0], name, Naming.snakeCase(name), name + "Id", name + "ID"] : []
        candidates.append(Naming.snakeCase(name) + "_id")
        if relationship.namedColumn != nil { candidates = builtColumns.count == 1 ? [builtColumns[0]] : [] }
        if mode == .coreData {
            let names = relationship.namedColumn != nil ? candidates : ["Z" + name.uppercased()] + candidates
            guard let column = names.lazy.compactMap({ table.column(named: $0) }).first else {
                if let named = relationship.namedColumn {
                    missing(
                        "column '\(builtColumns.first ?? name)' for relationship '\(name)'", in: table, at: named,
                        near: builtColumns.first ?? name,
                        advice: "correct its 'column:'")
                } else {
                    missing("column for relationship '\(name)'", in: table, at: relationship.location, near: "Z" + name.uppercased())
                }
                return nil
            }
            numbered.insert(target)
            return [SchemaFit.Fill(column: column.name, value: .rowNumberOf(entity: target, columns: builtColumns))]
        }
        guard let targetFit = fits[target] else { return nil }
        let keys = table.foreignKeys.filter { $0.table.caseInsensitiveCompare(targetFit.table.name) == .orderedSame }
        // The key whose column comes first among the names, not the first key declared.
        let byName = candidates.lazy.compactMap { candidate in
            keys.first { $0.from.count == 1 && $0.from[0].caseInsensitiveCompare(candidate) == .orderedSame }
        }.first
        let toOnes = entity.relationships.filter { !$0.isToMany && $0.selector == nil && $0.target == target }
        let only = keys.count == 1 && toOnes.count == 1 && relationship.namedColumn == nil ? keys[0] : nil
        guard let key = byName ?? only else {
            if let named = relationship.namedColumn, builtColumns.count == 1 {
                guard let column = table.column(named: builtColumns[0]) else {
                    missing(
                        "column '\(builtColumns[0])' for relationship '\(name)'", in: table, at: named, near: builtColumns[0],
                        advice: "correct its 'column:'")
                    return nil
                }
                // A column the mapping names that declares no key holds the target's identity.
                return [SchemaFit.Fill(column: column.name, value: .column(builtColumns[0]))]
            }
            guard keys.isEmpty else {
                let declared = keys.map { "(" + $0.from.joined(separator: ", ") + ")" }.joined(separator: ", ")
                error(
                    "relationship '\(name)' matches none of the foreign keys of table '\(table.name)' to '\(targetFit.table.name)', "
                        + "on \(declared); name its column with 'column:'", at: relationship.location)
                return nil
            }
            return columns(
                builtColumns.count == 1 ? candidates : builtColumns, in: table, what: "relationship '\(name)'", at: relationship.location,
                single: builtColumns.count == 1, builtColumns: builtColumns)
        }
        let parentColumns =
            key.to.isEmpty
            ? targetFit.table.columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(
                \.name)
            : key.to
        let identityColumns = mapping.entities[target].identityAttributes.map { targetFit.attributeColumns[$0] ?? "" }
        if same(parentColumns, identityColumns), key.from.count == builtColumns.count {
            return zip(key.from, builtColumns).map { SchemaFit.Fill(column: $0, value: .column($1)) }
        }
        if parentColumns.count == 1, let rowid = targetFit.table.rowidColumn, same(parentColumns, [rowid]), key.from.count == 1,
            targetFit.fills.contains(where: { $0.column == rowid && $0.value == .rowNumber })
        {
            numbered.insert(target)
            return [SchemaFit.Fill(column: key.from[0], value: .rowNumberOf(entity: target, columns: builtColumns))]
        }
        error(
            "the foreign key (\(key.from.joined(separator: ", "))) of table '\(table.name)' references "
                + "\(targetFit.table.name)(\(parentColumns.joined(separator: ", "))), which is neither the identity of entity "
                + "'\(mapping.entities[target].name)' (\(identityColumns.joined(separator: ", "))) nor its table's rowid",
            at: relationship.location)
        return nil
    }

    /// The fills of a many-to-many's join table, or `nil` after an error.
    private func joinTable(
        _ join: JoinTable, _ relationship: Relationship, of owner: Int, fits: [EntityFit?], numbered: inout Set<Int>
    ) -> SchemaFit.TableFill? {
        let entity = mapping.entities[owner]
        let what = "'\(entity.name).\(relationship.name)'"
        if mode == .coreData {
            return coreDataJoinTable(join, relationship, of: owner, fits: fits, numbered: &numbered)
        }
        guard let table = schema.table(named: join.name) else {
            let names = schema.tables.map(\.name)
            error(
                "the many-to-many \(what) has no join table '\(join.name)' in the app's schema\(Wording.didYouMean(join.name, among: names)); "
                    + "\(relationship.namedTable != nil ? "correct" : "name it with") 'table:'; the schema's tables: \(quotedList(names))",
                at: relationship.namedTable ?? relationship.location)
            return nil
        }
        var fills: [SchemaFit.Fill] = []
        let sides: [(entity: Int, built: [String], names: [String])] = [
            (owner, join.ownerColumns, [Naming.snakeCase(entity.name) + "_id", lowerFirst(entity.name) + "Id"]),
            (
                relationship.target, join.targetColumns,
                [
                    Naming.singular(Naming.snakeCase(relationship.name)) + "_id",
                    Naming.snakeCase(mapping.entities[relationship.target].name) + "_id",
                ]
            ),
        ]
        let selfJoin = owner == relationship.target
        for side in sides {
            guard let sideFit = fits[side.entity] else { return nil }
            let key = selfJoin ? nil : table.foreignKeys.first { $0.table.caseInsensitiveCompare(sideFit.table.name) == .orderedSame }
            if let key, key.from.count == 1, let rowid = sideFit.table.rowidColumn,
                sideFit.fills.contains(where: { $0.column == rowid && $0.value == .rowNumber }), relationship.selector == nil
            {
                numbered.insert(side.entity)
                fills.append(SchemaFit.Fill(column: key.from[0], value: .rowNumberOf(entity: side.entity, columns: side.built)))
            } else if let key, key.from.count == side.built.count {
                fills += zip(key.from, side.built).map { SchemaFit.Fill(column: $0, value: .column($1)) }
            } else {
                let keyColumns = relationship.selector == nil || side.entity == owner ? side.built : Array(side.built.dropLast())
                let names = keyColumns.count == 1 ? [keyColumns[0]] + side.names : keyColumns
                guard
                    let found = columns(
                        names, in: table, what: what, at: relationship.location, single: keyColumns.count == 1, builtColumns: keyColumns,
                        advice: "declare its foreign keys to the owner's and the target's tables, or name the columns as seeder does")
                else { return nil }
                fills += found
            }
        }
        if relationship.selector != nil, let type = join.targetColumns.last {
            guard
                let found = columns(
                    [type], in: table, what: what, at: relationship.location, advice: "seeder stores the chosen entity's name in it")
            else { return nil }
            fills += found
        }
        if let position = join.positionColumn {
            guard
                let found = columns(
                    [position], in: table, what: "the order of \(what)", at: relationship.location,
                    advice: "seeder fills a column 'position'")
            else { return nil }
            fills += found
        }
        return SchemaFit.TableFill(entity: owner, builtTable: join.name, table: table.name, fills: fills)
    }

    /// Core Data's join table of a many-to-many: `Z_<n><NAME>`, its columns `Z_<n><NAME>` each
    /// holding one side's `Z_PK` (docs/guides/core-data.md).
    private func coreDataJoinTable(
        _ join: JoinTable, _ relationship: Relationship, of owner: Int, fits: [EntityFit?], numbered: inout Set<Int>
    ) -> SchemaFit.TableFill? {
        let what = "'\(mapping.entities[owner].name).\(relationship.name)'"
        guard !relationship.isOrdered else {
            error("seeder cannot fill Core Data's ordered relationships; leave out 'ordered' on \(what)", at: relationship.location)
            return nil
        }
        guard relationship.selector == nil else {
            error("Core Data has no polymorphic relationships: \(what) cannot be stored", at: relationship.location)
            return nil
        }
        guard let ownerNumber = fits[owner]?.coreDataNumber, let targetNumber = fits[relationship.target]?.coreDataNumber else {
            return nil
        }
        let targetColumn = "Z_\(targetNumber)\(relationship.name.uppercased())"
        let candidates = schema.tables.filter { table in
            table.name.uppercased().hasPrefix("Z_") && table.column(named: targetColumn) != nil
                && table.columns.contains { $0.name.uppercased().hasPrefix("Z_\(ownerNumber)") && $0.name.uppercased() != targetColumn }
        }
        let table = relationship.namedTable != nil ? schema.table(named: join.name) : (candidates.count == 1 ? candidates[0] : nil)
        guard let table, let target = table.column(named: targetColumn),
            let ownerColumn = table.columns.first(where: { $0.name.caseInsensitiveCompare(targetColumn) != .orderedSame })
        else {
            let joins = schema.tables.map(\.name).filter {
                $0.uppercased().hasPrefix("Z_") && !["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains($0.uppercased())
            }
            if let named = relationship.namedTable {
                error(
                    "'\(join.name)', which 'table:' names, is no join table of the many-to-many \(what) in the Core Data store "
                        + "(it has no column '\(targetColumn)' beside one of the owner's); its join tables: \(quotedList(joins))", at: named
                )
            } else {
                error(
                    "the Core Data store has no join table for the many-to-many \(what) (one with a column '\(targetColumn)'); "
                        + "its join tables: \(quotedList(joins)); name it with 'table:'", at: relationship.location)
            }
            return nil
        }
        numbered.formUnion([owner, relationship.target])
        return SchemaFit.TableFill(
            entity: owner, builtTable: join.name, table: table.name,
            fills: [
                SchemaFit.Fill(column: ownerColumn.name, value: .rowNumberOf(entity: owner, columns: join.ownerColumns)),
                SchemaFit.Fill(
                    column: target.name,
                    value: .rowNumberOf(entity: relationship.target, columns: join.targetColumns)),
            ])
    }
}
