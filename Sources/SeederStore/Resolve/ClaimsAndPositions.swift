import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The resolver's claims and positions, and the renumbering of children after the inverse links: claims
/// taken at insert back as link rows where anything else could change them, and the positions of
/// ordered to-manys made the owner's united, first-seen order (docs/mapping.md, Merging).
extension ReferenceResolver {
    /// Restores the claims that need it and renumbers the link tables that need it; returns the
    /// link tables that hold rows, which the inverse links apply.
    func restoreClaimsAndRenumberLinks(_ links: [LinkLayout]) throws -> [LinkLayout] {
        // Claims taken at insert go back into their link table when anything else could change
        // them: another link, or an owner whose occurrences' children are renumbered.
        // By name, a set: a big mapping has tens of thousands of links (bench/README.md).
        var withRows = Set(links.lazy.filter { load[link: $0].hasLinkRows }.map(\.number))
        for layout in links where load[link: layout].claimsAtInsert {
            guard load[link: layout].hasLinkRows || load[link: layout].needsRenumbering else { continue }
            try restoreClaims(layout)
            withRows.insert(layout.number)
        }
        for layout in links where load[link: layout].needsRenumbering {
            try renumberLinks(layout)
        }
        // In the order of `links`, as the inverse links apply them.
        return links.filter { withRows.contains($0.number) }
    }

    /// Renumbers the children with `identity: none` of the ordered one-to-manys that need it,
    /// once the inverse links have given every child its parent.
    func renumberChildren(_ links: [LinkLayout]) throws {
        for layout in links where load[link: layout].needsRenumbering {
            switch layout.kind {
            case .claims where tables.layouts[layout.relationship.target].entity.identity == .none:
                try renumberChildren(layout)
            // The others' positions are their link rows', renumbered before the links were
            // applied (`restoreClaimsAndRenumberLinks`).
            case .claims, .joinRows: continue
            }
        }
    }

    /// The claims children took as they were inserted inside their parent
    /// (`LoadSummary.Relationship.claimsAtInsert`), back as the link rows they stand for, with the children's
    /// presence bits cleared: the state `applyInverse` settles when every claim is a link.
    /// Where the same parent also made a link row (a child listed twice, or under a merged
    /// occurrence), the pair keeps whichever stands first in source order, with its position.
    func restoreClaims(_ link: LinkLayout) throws {
        let (child, inverse, foreignKey, maskColumn, bit, position) = inverseColumns(of: link)
        let side = try tables.sideTable(of: child)
        let mask = SQLText.quote(maskColumn)
        let slot = child.slot(relationship: inverse)
        db.add(
            function: DatabaseFunction("seeder_claimed_at_insert", argumentCount: 1, pure: true) { arguments in
                guard case let .blob(fields) = arguments[0].storage else { return false }
                return RowLayout.isRowOrigin(ofSlot: slot, in: Array(fields))
            })
        let claimed =
            "s.\(mask) & \(bit) != 0 AND " + foreignKey.map { "t.\(SQLText.quote($0)) IS NOT NULL" }.joined(separator: " AND ")
            + " AND seeder_claimed_at_insert(s.\"_fields\")"
        let selected =
            ["\(link.number)"] + (foreignKey + child.keyColumns).map { "t.\(SQLText.quote($0))" }
            + [position.map { "t.\(SQLText.quote($0))" } ?? "0", "s.\"_file\"", "s.\"_offset\""]
        try db.execute(
            sql: """
                INSERT INTO \(link.storedTable) (\(SQLText.list(link.stored.insertedColumns)))
                SELECT \(selected.joined(separator: ", ")) FROM \(child.joined(side)) WHERE \(claimed)
                ON CONFLICT (\(SQLText.list(link.stored.pairColumns))) DO UPDATE
                SET "_position" = excluded."_position", "_file" = excluded."_file", "_offset" = excluded."_offset"
                WHERE (excluded."_file", excluded."_offset") < ("_file", "_offset")
                """)
        try db.execute(
            sql: """
                UPDATE \(side) AS s SET \(mask) = \(mask) & ~\(bit) FROM \(child.table) AS t WHERE s."_row" = t."rowid" AND \(claimed)
                """)
    }

    /// An ordered to-many's positions, as the owner's links united in first-seen order
    /// (docs/mapping.md, Merging): a link keeps the index its occurrence gave it, which is that
    /// order unless the owner merged occurrences that list targets. Then, per owner, a link's
    /// position becomes its rank among the owner's distinct targets by first appearance (`_seq`).
    /// Only links whose position changes are written.
    func renumberLinks(_ link: LinkLayout) throws {
        let owner = SQLText.list(link.ownerColumns)
        try db.execute(
            sql: """
                UPDATE \(link.storedTable) AS l SET "_position" = r."p"
                FROM (SELECT "_seq" AS "seq", row_number() OVER (PARTITION BY \(owner) ORDER BY \(LinkLayout.sourceOrder)) - 1 AS "p"
                      FROM \(link.table)) AS r
                WHERE l."_seq" = r."seq" AND l."_position" != r."p"
                """)
    }

    /// The same for children with `identity: none`, which take their parent's key and position
    /// as they are inserted, with no link row: every occurrence's children are new rows, and
    /// rowid order is first-seen order, so each parent's positioned children are renumbered in
    /// it.
    func renumberChildren(_ link: LinkLayout) throws {
        let (child, _, foreignKey, _, _, position) = inverseColumns(of: link)
        guard let position else { return }
        let column = SQLText.quote(position)
        try db.execute(
            sql: """
                UPDATE \(child.table) AS c SET \(column) = r."p"
                FROM (SELECT "rowid" AS "id", row_number() OVER (PARTITION BY \(SQLText.list(foreignKey)) ORDER BY "rowid") - 1 AS "p"
                      FROM \(child.table) WHERE \(column) IS NOT NULL) AS r
                WHERE c."rowid" = r."id" AND c.\(column) != r."p"
                """)
    }
}
