import Foundation
import GRDB
import SeederCore
import SeederFiles

/// The stage after every input is read (docs/mapping.md, Relationships: "Order does not matter"),
/// run on what the load left in the tables and what it learnt (`LoadSummary`), in stages:
/// 0. created rows (`createMissingRows`): `onMissing: create` makes a row of each identity its
///    references name and no record provides;
/// 1. claims and positions (`restoreClaimsAndRenumberLinks`): claims children took at insert go
///    back into their link tables where another claim could change them, and ordered links of
///    merged owners are renumbered;
/// 2. inverse links (`applyInverseLinks`) set their children's foreign keys, and children with
///    `identity: none` are renumbered under their parents (`renumberChildren`);
/// 3. reference checks (`checkReferences`): every reference names a row that exists, or follows
///    `onMissing`;
/// 4. row finishing (`finishRows`), per entity: defaults, `required`;
/// 5. unique checks (`checkUnique`), per entity after its rows are finished.
/// Each reads a side table only through `LoadedTables.sideTable(of:)`, which puts its rows in
/// first, and adds what it does to the build's counts (`tally`).
struct ReferenceResolver {
    let tables: any LoadedTables
    /// What the load learnt about each relationship: which stages have work to do.
    let load: LoadSummary
    let diagnostics: DiagnosticSink
    var db: Database { tables.db }
    /// The build's counts, which the stages add to.
    let tally: EntityTally

    /// Finds the JSON Pointer of a row's record for a message.
    let pointers: PointerLocator
    /// The seed's indexes that to-ones' references are checked through, built here rather than
    /// by the finish (`checkForeignKeys`), by table and columns (`Publication.checkedIndexes`);
    /// empty when nothing is written.
    let indexes: [Publication.IndexedColumns: SeedSchema.Index]
    /// Messages about missing references, until their stage reports them (`reportMissing()`).
    let missingReferences = GatheredMessages()
    /// Told each stage's name as it begins, and how far a stage that has many parts is, for the
    /// progress line (docs/commands.md, Progress).
    let progress: (_ stage: String, _ parts: BuildProgress.Parts?) -> Void

    init(
        tables: any LoadedTables, load: LoadSummary, tally: EntityTally, diagnostics: DiagnosticSink, pointers: PointerLocator,
        indexes: [Publication.IndexedColumns: SeedSchema.Index] = [:],
        progress: @escaping (_ stage: String, _ parts: BuildProgress.Parts?) -> Void = { _, _ in }
    ) {
        self.tables = tables
        self.tally = tally
        self.load = load
        self.diagnostics = diagnostics
        self.pointers = pointers
        self.indexes = indexes
        self.progress = progress
    }

    /// Reports that `stage` begins.
    func beginning(_ stage: String) {
        progress(stage, nil)
    }

    /// Runs every stage.
    func resolve() throws {
        let links = tables.links.flatMap { $0 }.compactMap { $0 }
        // The links of a relationship to a selector, per entity it chose (`LinkLayout.cases`),
        // for every stage that reads the target's table.
        let views = links.flatMap { $0.cases(in: tables.mapping) }
        beginning("created rows")
        try createMissingRows(views)
        beginning("claims and positions")
        let linked = try restoreClaimsAndRenumberLinks(links)
        beginning("inverse links")
        try applyInverseLinks(linked.flatMap { $0.cases(in: tables.mapping) })
        // (A selector's children all have link rows, renumbered across its entities.)
        try renumberChildren(views.filter { !$0.isCaseView })
        try checkReferences(views)
        beginning("row finishing and unique checks")
        for layout in tables.layouts {
            try finishRows(layout)
            try checkUnique(layout)
        }
    }

    // MARK: Labels

    /// `Task 9` for a row, from its key values (`Note #3` with no identity).
    func label(_ layout: RowLayout, key: [DatabaseValue]) -> String {
        if layout.entity.identity == .none { return "\(layout.entity.name) #\(SQLValue(key[0]))" }
        return "\(layout.entity.name) \(IdentityKey(key.map(SQLValue.init)))"
    }

    func location(file: Int, offset: Int) -> SourceLocation {
        SourceLocation(file: tables.files[file], offset: offset)
    }

    /// Where a slot's value came from, in a row that selected `_fields, _file, _offset` from `column`.
    func origin(ofSlot slot: Int, in row: Row, from column: Int) -> SourceLocation {
        let fields: Data = row[column]
        let (file, offset) = RowLayout.origin(ofSlot: slot, in: Array(fields), rowFile: row[column + 1], rowOffset: row[column + 2])
        return location(file: file, offset: offset)
    }

    /// Reports a reference that no record provides, with its place and, once the stage reports
    /// what it found (`reportMissing()`), its JSON Pointer: one pass over each dump finds the
    /// pointers of all of a stage's references, not one per reference.
    func missing(
        _ owner: String, references target: String, _ key: [DatabaseValue], via relationship: Relationship, at location: SourceLocation
    ) {
        let key = IdentityKey(key.map(SQLValue.init))
        missingReferences.append("\(owner) references \(target) \(key) (\(relationship.name)), which no record provides", at: location)
    }

    /// Reports the messages about missing references gathered (by `missing`, and by
    /// `createMissingRows` of the rows it cannot make), in the order they were gathered, each
    /// with its JSON Pointer.
    func reportMissing() {
        let gathered = missingReferences.take()
        guard !gathered.isEmpty else { return }
        let places: [(file: String, offset: Int)] = gathered.map { message in
            if case let .offset(offset) = message.location.position { return (message.location.file, offset) }
            return (message.location.file, -1)
        }
        let pointers = self.pointers.pointers(places)
        for (message, pointer) in zip(gathered, pointers) {
            diagnostics.error(.dangling, message.text, at: message.location, jsonPath: pointer)
        }
    }

    // MARK: Links

    /// The child side of an inverse link: the child's layout, the inverse relationship, its
    /// foreign-key columns, its presence bit, and the position column when ordered.
    func inverseColumns(of link: LinkLayout)
        -> (child: RowLayout, inverse: Int, foreignKey: [String], maskColumn: String, bit: Int64, position: String?)
    {
        guard case let .claims(inverse) = link.kind else { preconditionFailure("a join table's links claim no child") }
        let child = tables.layouts[link.relationship.target]
        let (maskColumn, bit) = child.maskBit(child.slot(relationship: inverse))
        let position = child.positionIndex(owner: link.entityIndex, relationship: link.relationshipIndex)
            .map { child.positionColumns[$0].column }
        return (child, inverse, child.foreignKeyColumns[inverse], maskColumn, bit, position)
    }

    /// The owner's and the target's keys in a link-table row whose columns from `start` are
    /// `ownerColumns + targetColumns`.
    func keys(ofLink row: Row, _ link: LinkLayout, from start: Int = 0) -> (owner: [DatabaseValue], target: [DatabaseValue]) {
        let owner = link.ownerColumns.indices.map { row[start + $0] as DatabaseValue }
        let target = link.targetColumns.indices.map { row[start + link.ownerColumns.count + $0] as DatabaseValue }
        return (owner, target)
    }

    /// A link whose child no record provides: dropped under `onMissing: null`, else an error.
    func reportMissing(_ link: LinkLayout, owner ownerKey: [DatabaseValue], child childKey: [DatabaseValue], at location: SourceLocation) {
        if link.relationship.onMissing == .null {
            tally.counts[link.entityIndex].referencesDropped += 1
        } else {
            missing(
                label(tables.layouts[link.entityIndex], key: ownerKey), references: tables.layouts[link.relationship.target].entity.name,
                childKey, via: link.relationship, at: location)
        }
    }

}

/// Messages a stage gathers before it reports them (`ReferenceResolver.reportMissing()`). A class:
/// the resolver is a struct its stages share.
final class GatheredMessages {
    private(set) var messages: [(text: String, location: SourceLocation)] = []

    func append(_ text: String, at location: SourceLocation) {
        messages.append((text, location))
    }

    /// The messages, and none left.
    func take() -> [(text: String, location: SourceLocation)] {
        defer { messages.removeAll() }
        return messages
    }
}
