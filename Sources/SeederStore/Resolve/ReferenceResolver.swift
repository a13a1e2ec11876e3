import Foundation
import GRDB
import SeederCore

/// The stage after every input is read (docs/mapping.md, Relationships: "Order does not matter"):
/// inverse links set their children's foreign keys, every reference is checked against the rows
/// that exist and follows `onMissing`, then rows are finished (defaults, `required`) and unique
/// attributes checked.
struct ReferenceResolver {
    let store: RowStore
    let diagnostics: DiagnosticSink
    private var db: Database { store.db }
    private var mapping: Mapping { store.mapping }

    /// Finds the JSON Pointer of a row's record for a message.
    let pointers: PointerLocator
    /// The seed's indexes that references by identity are checked through, built here rather
    /// than by `SeedAssembler` (`checkForeignKey`); empty when nothing is written.
    let indexes: [SeedSchema.Index]

    init(store: RowStore, diagnostics: DiagnosticSink, pointers: PointerLocator, indexes: [SeedSchema.Index] = []) {
        self.store = store
        self.diagnostics = diagnostics
        self.pointers = pointers
        self.indexes = indexes
    }

    func resolve() throws {
        let links = store.links.flatMap { $0 }.compactMap { $0 }
        let renumbered = links.filter { store.mergedOrderedLinks[$0.entityIndex][$0.relationshipIndex] }
        // Claims taken at insert go back into their link table when anything else could change
        // them: another link, or an owner whose occurrences' children are renumbered.
        var withRows = links.filter { store.hasLinkRows[$0.entityIndex][$0.relationshipIndex] }
        for layout in links where store.claimsAtInsert[layout.entityIndex][layout.relationshipIndex] {
            guard store.hasLinkRows[layout.entityIndex][layout.relationshipIndex] || store.mergedOrderedLinks[layout.entityIndex][layout.relationshipIndex] else { continue }
            try restoreClaims(layout)
            if !withRows.contains(where: { $0.name == layout.name }) { withRows.append(layout) }
        }
        for layout in renumbered {
            try renumberLinks(layout)
        }
        // An empty link table sets nothing and misses nothing.
        let inverseLinks = links.filter { link in link.relationship.inverse != nil && withRows.contains { $0.name == link.name } }
        for (index, layout) in inverseLinks.enumerated() {
            // A child's presence bit for its parent tells a later link to the same inverse that
            // the child is taken; nothing after the last such link reads it.
            let isRead = inverseLinks[(index + 1)...].contains {
                $0.relationship.target == layout.relationship.target && $0.relationship.inverse == layout.relationship.inverse
            }
            try applyInverse(layout, marksChildren: isRead)
        }
        for layout in renumbered where layout.relationship.inverse != nil && store.layouts[layout.relationship.target].entity.identity == .none {
            try renumberChildren(layout)
        }
        for layout in store.layouts {
            for (index, relationship) in layout.entity.relationships.enumerated() where !relationship.isToMany {
                try checkForeignKey(layout, relationship: index)
            }
        }
        for layout in links where layout.relationship.inverse == nil {
            try checkJoinLinks(layout)
        }
        for layout in store.layouts {
            try finishRows(layout)
            try checkUnique(layout)
        }
    }

    // MARK: Labels

    /// `Task 9` for a row, from its key values (`Note #3` with no identity).
    private func label(_ layout: RowLayout, key: [DatabaseValue]) -> String {
        if layout.entity.identity == .none { return "\(layout.entity.name) #\(SQLValue(key[0]))" }
        return "\(layout.entity.name) \(IdentityKey(key.map(SQLValue.init)))"
    }

    private func location(file: Int, offset: Int) -> SourceLocation {
        SourceLocation(file: store.files[file], offset: offset)
    }

    /// Where a slot's value came from, in a row that selected `_fields, _file, _offset` from `column`.
    private func origin(ofSlot slot: Int, in row: Row, from column: Int) -> SourceLocation {
        let fields: Data = row[column]
        let (file, offset) = RowLayout.origin(ofSlot: slot, in: Array(fields), rowFile: row[column + 1], rowOffset: row[column + 2])
        return location(file: file, offset: offset)
    }

    private func missing(_ owner: String, references target: String, _ key: [DatabaseValue], via relationship: Relationship, at location: SourceLocation) {
        diagnostics.error("\(owner) references \(target) \(IdentityKey(key.map(SQLValue.init))) (\(relationship.name)), which no record provides", at: location)
    }

    // MARK: Positions

    /// An ordered to-many's positions, as the owner's links united in first-seen order
    /// (docs/mapping.md, Merging): a link keeps the index its occurrence gave it, which is that
    /// order unless the owner merged occurrences that list targets. Then, per owner, a link's
    /// position becomes its rank among the owner's distinct targets by first appearance (`_seq`).
    /// Only links whose position changes are written.
    private func renumberLinks(_ link: LinkLayout) throws {
        let owner = SQLText.list(link.ownerColumns)
        try db.execute(sql: """
            UPDATE \(link.table) AS l SET "_position" = r."p"
            FROM (SELECT "_seq" AS "seq", row_number() OVER (PARTITION BY \(owner) ORDER BY \(LinkLayout.sourceOrder)) - 1 AS "p" FROM \(link.table)) AS r
            WHERE l."_seq" = r."seq" AND l."_position" != r."p"
            """)
    }

    /// The same for children with `identity: none`, which take their parent's key and position
    /// as they are inserted, with no link row: every occurrence's children are new rows, and
    /// rowid order is first-seen order, so each parent's positioned children are renumbered in
    /// it.
    private func renumberChildren(_ link: LinkLayout) throws {
        let (child, _, foreignKey, _, _, position) = inverseColumns(of: link)
        guard let position else { return }
        let column = SQLText.quote(position)
        try db.execute(sql: """
            UPDATE \(child.table) AS c SET \(column) = r."p"
            FROM (SELECT "rowid" AS "id", row_number() OVER (PARTITION BY \(SQLText.list(foreignKey)) ORDER BY "rowid") - 1 AS "p"
                  FROM \(child.table) WHERE \(column) IS NOT NULL) AS r
            WHERE c."rowid" = r."id" AND c.\(column) != r."p"
            """)
    }

    // MARK: Inverse links

    /// The claims children took as they were inserted inside their parent
    /// (`RowStore.claimsAtInsert`), back as the link rows they stand for, with the children's
    /// presence bits cleared: the state `applyInverse` settles when every claim is a link.
    /// Where the same parent also made a link row (a child listed twice, or under a merged
    /// occurrence), the pair keeps whichever stands first in source order, with its position.
    private func restoreClaims(_ link: LinkLayout) throws {
        let (child, inverse, foreignKey, maskColumn, bit, position) = inverseColumns(of: link)
        let side = try store.sideTable(of: child)
        let mask = SQLText.quote(maskColumn)
        let slot = child.slot(relationship: inverse)
        db.add(function: DatabaseFunction("seeder_claimed_at_insert", argumentCount: 1, pure: true) { arguments in
            guard case let .blob(fields) = arguments[0].storage else { return false }
            return RowLayout.isRowOrigin(ofSlot: slot, in: Array(fields))
        })
        let claimed = "s.\(mask) & \(bit) != 0 AND " + foreignKey.map { "t.\(SQLText.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
            + " AND seeder_claimed_at_insert(s.\"_fields\")"
        let columns = link.ownerColumns + link.targetColumns + ["_position", "_file", "_offset"]
        let selected = (foreignKey + child.keyColumns).map { "t.\(SQLText.quote($0))" } + [position.map { "t.\(SQLText.quote($0))" } ?? "0", "s.\"_file\"", "s.\"_offset\""]
        try db.execute(sql: """
            INSERT INTO \(link.table) (\(SQLText.list(columns))) SELECT \(selected.joined(separator: ", ")) FROM \(child.joined(side)) WHERE \(claimed)
            ON CONFLICT (\(SQLText.list(link.targetColumns + link.ownerColumns))) DO UPDATE
            SET "_position" = excluded."_position", "_file" = excluded."_file", "_offset" = excluded."_offset"
            WHERE (excluded."_file", excluded."_offset") < ("_file", "_offset")
            """)
        try db.execute(sql: """
            UPDATE \(side) AS s SET \(mask) = \(mask) & ~\(bit) FROM \(child.table) AS t WHERE s."_row" = t."rowid" AND \(claimed)
            """)
    }

    /// A one-to-many with `inverse`: each link sets the child's foreign key to its parent (and
    /// its position when ordered). A child claimed by two parents is an identity conflict.
    ///
    /// Set-based when nothing conflicts, which is the usual case: one query looks for a child
    /// that a link's owner would take from another parent (its own record's, or another link's),
    /// and finding none, one `UPDATE ... FROM` sets every link. A conflict takes the links one by
    /// one, in dump order, as the rules are written. The check comes first because the working
    /// database runs with `journal_mode = OFF`, where a rollback cannot undo an update.
    /// `marksChildren` sets each linked child's presence bit for its parent, which only a later
    /// link to the same inverse reads.
    private func applyInverse(_ link: LinkLayout, marksChildren: Bool) throws {
        let (child, _, foreignKey, maskColumn, bit, position) = inverseColumns(of: link)
        let side = try store.sideTable(of: child)
        let mask = SQLText.quote(maskColumn)
        let joined = zip(child.keyColumns, link.targetColumns).map { "c.\(SQLText.quote($0)) = l.\(SQLText.quote($1))" }.joined(separator: " AND ")
        let claimed = zip(foreignKey, link.ownerColumns).map { "c.\(SQLText.quote($0)) IS l.\(SQLText.quote($1))" }.joined(separator: " AND ")
        let unset = foreignKey.map { "c.\(SQLText.quote($0)) IS NULL" }.joined(separator: " AND ")
        let sameTarget = link.targetColumns.map { "m.\(SQLText.quote($0)) = l.\(SQLText.quote($0))" }.joined(separator: " AND ")
        let sameOwner = link.ownerColumns.map { "m.\(SQLText.quote($0)) IS l.\(SQLText.quote($0))" }.joined(separator: " AND ")

        let conflicting = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM \(link.table) AS l JOIN \(child.table) AS c ON \(joined)
                           JOIN \(side) AS cs ON cs."_row" = c."rowid"
                           WHERE cs.\(mask) & \(bit) != 0 AND NOT (\(unset)) AND NOT (\(claimed)))
                OR EXISTS (SELECT 1 FROM \(link.table) AS l JOIN \(link.table) AS m ON \(sameTarget)
                           WHERE m."_seq" > l."_seq" AND NOT (\(sameOwner)))
            """) ?? false
        guard !conflicting else { return try applyInverseInOrder(link) }
        var assignments = zip(foreignKey, link.ownerColumns).map { "\(SQLText.quote($0)) = l.\(SQLText.quote($1))" }
        if let position { assignments.append("\(SQLText.quote(position)) = l.\"_position\"") }
        // Children inserted inside their parent already hold its key and position
        // (`RowEncoder.Parent`): only the others are written.
        let unchanged = [claimed] + (position.map { ["c.\(SQLText.quote($0)) IS l.\"_position\""] } ?? [])
        try db.execute(sql: """
            UPDATE \(child.table) AS c SET \(assignments.joined(separator: ", ")) FROM \(link.table) AS l
            WHERE \(joined) AND NOT (\(unchanged.joined(separator: " AND ")))
            """)
        if marksChildren {
            try db.execute(sql: """
                UPDATE \(side) SET \(mask) = \(mask) | \(bit)
                WHERE "_row" IN (SELECT c."rowid" FROM \(link.table) AS l JOIN \(child.table) AS c ON \(joined))
                """)
        }
        // Links to embedded children name rows inserted with them: only a link by identity can
        // miss its child.
        guard store.linksByIdentity[link.entityIndex][link.relationshipIndex] else { return }
        let missing = try Row.fetchCursor(db, sql: """
            SELECT \(SQLText.list(link.ownerColumns + link.targetColumns)), "_file", "_offset" FROM \(link.table) AS l
            WHERE NOT EXISTS (SELECT 1 FROM \(child.table) AS c WHERE \(joined)) ORDER BY "_seq"
            """)
        while let row = try missing.next() {
            let (ownerKey, childKey) = keys(ofLink: row, link)
            let base = link.ownerColumns.count + link.targetColumns.count
            reportMissing(link, owner: ownerKey, child: childKey, at: location(file: row[base], offset: row[base + 1]))
        }
    }

    /// The child side of an inverse link: the child's layout, the inverse relationship, its
    /// foreign-key columns, its presence bit, and the position column when ordered.
    private func inverseColumns(of link: LinkLayout)
        -> (child: RowLayout, inverse: Int, foreignKey: [String], maskColumn: String, bit: Int64, position: String?) {
        let child = store.layouts[link.relationship.target]
        let inverse = link.relationship.inverse!
        let (maskColumn, bit) = child.maskBit(child.slot(relationship: inverse))
        let position = child.positionIndex(owner: link.entityIndex, relationship: link.relationshipIndex).map { child.positionColumns[$0].column }
        return (child, inverse, child.foreignKeyColumns[inverse], maskColumn, bit, position)
    }

    /// The owner's and the target's keys in a link-table row whose columns from `start` are
    /// `ownerColumns + targetColumns`.
    private func keys(ofLink row: Row, _ link: LinkLayout, from start: Int = 0) -> (owner: [DatabaseValue], target: [DatabaseValue]) {
        let owner = link.ownerColumns.indices.map { row[start + $0] as DatabaseValue }
        let target = link.targetColumns.indices.map { row[start + link.ownerColumns.count + $0] as DatabaseValue }
        return (owner, target)
    }

    /// A link whose child no record provides: dropped under `onMissing: null`, else an error.
    private func reportMissing(_ link: LinkLayout, owner ownerKey: [DatabaseValue], child childKey: [DatabaseValue], at location: SourceLocation) {
        if link.relationship.onMissing == .null {
            store.counts[link.entityIndex].referencesDropped += 1
        } else {
            missing(label(store.layouts[link.entityIndex], key: ownerKey), references: store.layouts[link.relationship.target].entity.name,
                    childKey, via: link.relationship, at: location)
        }
    }

    /// `applyInverse` one link at a time, in dump order, settling each conflict by `onConflict`.
    private func applyInverseInOrder(_ link: LinkLayout) throws {
        let (child, inverse, foreignKey, maskColumn, bit, position) = inverseColumns(of: link)
        let side = try store.sideTable(of: child)
        // A cursor, not an array: the links of a large dump do not fit in flat memory.
        let links = try Row.fetchCursor(db, sql: "SELECT \(SQLText.list(link.ownerColumns + link.targetColumns)), \"_position\", \"_file\", \"_offset\" FROM \(link.table) ORDER BY \(LinkLayout.sourceOrder)")
        let select = try db.makeStatement(sql: """
            SELECT t."rowid", s.\(SQLText.quote(maskColumn)), \(foreignKey.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")), s."_fields", s."_file", s."_offset"
            FROM \(child.joined(side)) WHERE \(child.keyCondition("t"))
            """)
        var assignments = foreignKey.map { "\(SQLText.quote($0)) = ?" }
        if let position { assignments.append("\(SQLText.quote(position)) = ?") }
        let update = try db.makeStatement(sql: "UPDATE \(child.table) SET \(assignments.joined(separator: ", ")) WHERE \"rowid\" = ?")
        // The claim's place goes with it, for the message of a later claim.
        let mark = try db.makeStatement(sql: "UPDATE \(side) SET \(SQLText.quote(maskColumn)) = \(SQLText.quote(maskColumn)) | \(bit), \"_fields\" = ? WHERE \"_row\" = ?")
        let slot = child.slot(relationship: inverse)
        while let row = try links.next() {
            let (ownerKey, childKey) = keys(ofLink: row, link)
            let base = link.ownerColumns.count + link.targetColumns.count
            let linkLocation = location(file: row[base + 1], offset: row[base + 2])
            guard let current = try Row.fetchOne(select, arguments: StatementArguments(childKey)) else {
                reportMissing(link, owner: ownerKey, child: childKey, at: linkLocation)
                continue
            }
            let present = (current[1] as Int64) & bit != 0
            let existing = foreignKey.indices.map { current[2 + $0] as DatabaseValue }
            if present, !existing.allSatisfy({ $0 == .null }), existing != ownerKey {
                let policy = child.entity.onConflict
                if policy == .error {
                    var diagnostic = Diagnostic.error(
                        "\(label(child, key: childKey)): '\(child.entity.relationships[inverse].name)' conflicts: \(IdentityKey(ownerKey.map(SQLValue.init))) here, \(IdentityKey(existing.map(SQLValue.init)))",
                        at: linkLocation)
                    diagnostic.relatedLocation = origin(ofSlot: child.slot(relationship: inverse), in: current, from: 2 + foreignKey.count)
                    diagnostics.report(diagnostic)
                    continue
                }
                store.counts[child.entityIndex].conflictsResolved += 1
                if policy == .first { continue }
            }
            var arguments = ownerKey
            if position != nil { arguments.append(row[base] as DatabaseValue) }
            arguments.append(current[0] as DatabaseValue)
            try update.execute(arguments: StatementArguments(arguments))
            let origins = 2 + foreignKey.count
            let fields = RowLayout.replacingOrigin(ofSlot: slot, in: Array(current[origins] as Data), rowFile: current[origins + 1], rowOffset: current[origins + 2],
                                                   with: (row[base + 1], row[base + 2]))
            try mark.execute(arguments: [Data(fields), current[0] as DatabaseValue])
        }
    }

    // MARK: References

    /// A to-one's foreign keys must name rows that exist; others follow `onMissing`. Only one
    /// that a record names by identity can dangle (`RowStore.referencedByIdentity`): the others
    /// were set from rows the load inserted, and are only counted. (`SeedAssembler.check` still
    /// checks every key of the finished file.)
    ///
    /// The seed's index of the key is built now rather than after the load, when there is one
    /// (not in `validate`): the keys are counted from it, and each distinct value is looked up
    /// once (a graph's million tasks name 20,000 users): 0.3 s -> ~0.1 s for a million, and
    /// counting 0.08 s -> 0.025 s; the index costs what it would have later.
    private func checkForeignKey(_ layout: RowLayout, relationship index: Int) throws {
        let relationship = layout.entity.relationships[index]
        let target = store.layouts[relationship.target]
        let columns = layout.foreignKeyColumns[index]
        guard !columns.isEmpty else { return }
        let matches = zip(target.keyColumns, columns).map { "x.\(SQLText.quote($0)) = t.\(SQLText.quote($1))" }.joined(separator: " AND ")
        let present = columns.map { "t.\(SQLText.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
        let seedIndex = indexes.first { $0.table == layout.entity.table && $0.columns == columns && !$0.isUnique }
        if let seedIndex { try SeedAssembler.createIndexes([seedIndex], in: db) }
        let count = "SELECT COUNT(*) FROM \(layout.table) AS t WHERE \(present)"
        guard store.referencedByIdentity[layout.entityIndex][index] else {
            store.counts[layout.entityIndex].referencesResolved += try Int.fetchOne(db, sql: count) ?? 0
            return
        }
        let keys: Int
        let dangling: Int
        if seedIndex != nil {
            keys = try Int.fetchOne(db, sql: count) ?? 0
            dangling = try Int.fetchOne(db, sql: "SELECT COUNT(*) \(SQLText.danglingKeys(layout.table, columns, parent: target.table, target.keyColumns))") ?? 0
        } else {
            // One scan counts the keys and the dangling ones.
            let row = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), COALESCE(SUM(NOT EXISTS (SELECT 1 FROM \(target.table) AS x WHERE \(matches))), 0)
                FROM \(layout.table) AS t WHERE \(present)
                """)
            (keys, dangling) = (row?[0] ?? 0, row?[1] ?? 0)
        }
        // Only dangling keys need the rows' origins, and rows may share a dangling key.
        var dropped = 0
        if dangling > 0 { dropped = try settleDangling(layout, relationship: index, present: present, matches: matches) }
        store.counts[layout.entityIndex].referencesResolved += keys - dropped
    }

    /// The foreign keys of a to-one, `present` and not `matches`-ing a target row, in
    /// first-seen order: dropped under `onMissing: null`, else errors. Returns the keys dropped.
    private func settleDangling(_ layout: RowLayout, relationship index: Int, present: String, matches: String) throws -> Int {
        let relationship = layout.entity.relationships[index]
        let target = store.layouts[relationship.target]
        let columns = layout.foreignKeyColumns[index]
        let dangling = try Row.fetchAll(db, sql: """
            SELECT t."rowid", \(layout.keyColumns.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")), \(columns.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")), s."_fields", s."_file", s."_offset"
            FROM \(layout.joinedInRowOrder(try store.sideTable(of: layout)))
            WHERE \(present) AND NOT EXISTS (SELECT 1 FROM \(target.table) AS x WHERE \(matches))
            ORDER BY \(RowLayout.firstSeen)
            """)
        let keyCount = layout.keyColumns.count
        for row in dangling {
            let key = (0..<keyCount).map { row[1 + $0] as DatabaseValue }
            let reference = columns.indices.map { row[1 + keyCount + $0] as DatabaseValue }
            if relationship.onMissing == .null {
                store.counts[layout.entityIndex].referencesDropped += 1
                let assignments = columns.map { "\(SQLText.quote($0)) = NULL" }.joined(separator: ", ")
                try db.execute(sql: "UPDATE \(layout.table) SET \(assignments) WHERE \"rowid\" = ?", arguments: [row[0] as DatabaseValue])
            } else {
                missing(label(layout, key: key), references: target.entity.name, reference, via: relationship,
                        at: origin(ofSlot: layout.slot(relationship: index), in: row, from: 1 + keyCount + columns.count))
            }
        }
        return relationship.onMissing == .null ? dangling.count : 0
    }

    /// A many-to-many's links must name target rows that exist.
    private func checkJoinLinks(_ link: LinkLayout) throws {
        let owner = store.layouts[link.entityIndex]
        let target = store.layouts[link.relationship.target]
        let matches = zip(target.keyColumns, link.targetColumns).map { "t.\(SQLText.quote($0)) = l.\(SQLText.quote($1))" }.joined(separator: " AND ")
        let dangling = try Row.fetchAll(db, sql: """
            SELECT l."_seq", \(SQLText.list(link.ownerColumns + link.targetColumns)), l."_file", l."_offset"
            FROM \(link.table) AS l
            WHERE NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE \(matches))
            ORDER BY l."_seq"
            """)
        for row in dangling {
            let (ownerKey, targetKey) = keys(ofLink: row, link, from: 1)
            let base = 1 + link.ownerColumns.count + link.targetColumns.count
            if link.relationship.onMissing == .null {
                store.counts[link.entityIndex].referencesDropped += 1
                try db.execute(sql: "DELETE FROM \(link.table) WHERE \"_seq\" = ?", arguments: [row[0] as DatabaseValue])
            } else {
                missing(label(owner, key: ownerKey), references: target.entity.name, targetKey, via: link.relationship,
                        at: location(file: row[base], offset: row[base + 1]))
            }
        }
        store.counts[link.entityIndex].referencesResolved += try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(link.table)") ?? 0
    }

    // MARK: Finishing rows

    /// Defaults for attributes no occurrence had; errors for required ones still missing.
    private func finishRows(_ layout: RowLayout) throws {
        for (index, attribute) in layout.entity.attributes.enumerated() {
            // (Asked first: a query would put every side row in its table, `SideRowLog`.)
            guard store.someSideRowMayLack(layout, slot: layout.slot(attribute: index)) else { continue }
            let (mask, bit) = layout.maskBit(layout.slot(attribute: index))
            if let defaultValue = attribute.defaultValue {
                try db.execute(sql: """
                    UPDATE \(layout.table) SET \(SQLText.quote(layout.attributeColumns[index])) = ?
                    WHERE "rowid" IN (SELECT "_row" FROM \(try store.sideTable(of: layout)) WHERE \(SQLText.quote(mask)) & \(bit) = 0)
                    """, arguments: [defaultValue.databaseValue])
            } else if attribute.isRequired, !layout.entity.identityAttributes.contains(index) {
                // (An identity attribute is on every row: a record without its identity makes
                // none. Looking was a scan of every row and its side row, 0.05 s a million.)
                try reportMissing(layout, condition: "s.\(SQLText.quote(mask)) & \(bit) = 0", what: "'\(attribute.name)' is required, but no occurrence has it")
            }
        }
        for (index, relationship) in layout.entity.relationships.enumerated() where relationship.isRequired && !relationship.isToMany {
            let columns = layout.foreignKeyColumns[index]
            let condition = columns.map { "t.\(SQLText.quote($0)) IS NULL" }.joined(separator: " OR ")
            try reportMissing(layout, condition: condition, what: "'\(relationship.name)' is required, but no occurrence has it")
        }
    }

    private func reportMissing(_ layout: RowLayout, condition: String, what: String) throws {
        let keys = layout.keyColumns.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(keys), s."_file", s."_offset" FROM \(layout.joinedInRowOrder(try store.sideTable(of: layout))) WHERE \(condition) ORDER BY \(RowLayout.firstSeen)
            """)
        let count = layout.keyColumns.count
        let origins: [(file: Int, offset: Int)] = rows.map { ($0[count], $0[count + 1]) }
        let pointers = self.pointers.pointers(origins.map { (store.files[$0.file], $0.offset) })
        for (index, row) in rows.enumerated() {
            let key = (0..<count).map { row[$0] as DatabaseValue }
            diagnostics.error("\(label(layout, key: key)): \(what)", at: location(file: origins[index].file, offset: origins[index].offset),
                              jsonPath: pointers[index])
        }
    }

    /// `unique` attributes: each value on one row at most.
    private func checkUnique(_ layout: RowLayout) throws {
        for (index, attribute) in layout.entity.attributes.enumerated() where attribute.isUnique {
            let column = SQLText.quote(layout.attributeColumns[index])
            let rows = try Row.fetchAll(db, sql: """
                SELECT t.\(column), \(layout.keyColumns.map { "t.\(SQLText.quote($0))" }.joined(separator: ", ")), s."_fields", s."_file", s."_offset"
                FROM \(layout.joinedInRowOrder(try store.sideTable(of: layout)))
                WHERE t.\(column) IS NOT NULL AND t.\(column) IN (
                    SELECT \(column) FROM \(layout.table) WHERE \(column) IS NOT NULL GROUP BY \(column) HAVING COUNT(*) > 1)
                ORDER BY t.\(column), \(RowLayout.firstSeen)
                """)
            var first: [DatabaseValue: (String, SourceLocation)] = [:]
            for row in rows {
                let value = row[0] as DatabaseValue
                let key = layout.keyColumns.indices.map { row[1 + $0] as DatabaseValue }
                let here = origin(ofSlot: layout.slot(attribute: index), in: row, from: 1 + layout.keyColumns.count)
                if let (other, otherLocation) = first[value] {
                    var diagnostic = Diagnostic.error("\(label(layout, key: key)): '\(attribute.name)' \(SQLValue(value)) is not unique; \(other) has it too", at: here)
                    diagnostic.relatedLocation = otherLocation
                    diagnostics.report(diagnostic)
                } else {
                    first[value] = (label(layout, key: key), here)
                }
            }
        }
    }
}
