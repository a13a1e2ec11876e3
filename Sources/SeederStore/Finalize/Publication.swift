import Foundation
import SeederCore
import SeederFiles

/// How a build finishes its seed once the rows are final, decided once before the load: what is
/// added to the file, and whether it replaces the output (`build`) or stays a temporary file
/// (`validate`).
struct Publication {
    enum Finish {
        /// The seed as the mapping lays it out.
        case plain
        /// With search tables, filled once no rowid can move (`SearchIndexer`).
        case searchable(SearchIndexer)
        /// The app's own schema, filled from the rows (`SeedProjector`): its search tables are
        /// its own, rebuilt there.
        case fitted(SchemaFit)
    }

    let finish: Finish
    let writesOutput: Bool
    /// The seed's indexes (docs/seed.md) the rows' file gets are all of them in a seed that is
    /// published as it is or with search tables, none otherwise: a validation checks references
    /// without them, and rows copied into the app's schema are read once in row order, which no
    /// index serves: there they would only cost their build (bench/README.md, The app's own
    /// schema). The resolver builds some (`checkedIndexes`), the finish the rest
    /// (`finishedIndexes`).
    ///
    /// The indexes of to-ones' foreign keys, by table and columns: the resolver builds each
    /// before it checks a to-one's references (`ReferenceResolver.checkForeignKeys`), so that each
    /// distinct value is looked up once; it costs what it would have later.
    let checkedIndexes: [IndexedColumns: SeedSchema.Index]
    /// The indexes the finish builds (`SeedFinisher`): every other.
    let finishedIndexes: [SeedSchema.Index]
    /// The output's sync, begun once its rows are in, when the rows' file is the output.
    let earlySync: EarlySync?

    /// A table's columns, as an index has them.
    struct IndexedColumns: Hashable {
        let table: String
        let columns: [String]
    }

    init(layout: SeedLayout, fit: SchemaFit?, writesOutput: Bool) {
        let search = SearchIndexer(mapping: layout.mapping, schema: layout.schema)
        let finish: Finish = if let fit { .fitted(fit) } else if !search.tables.isEmpty { .searchable(search) } else { .plain }
        self.finish = finish
        self.writesOutput = writesOutput
        let indexes = writesOutput && fit == nil ? layout.schema.indexes : []
        // A to-one through a selector has columns no index of its own serves (`SeedSchema`).
        var foreignKeys: Set<IndexedColumns> = []
        for layout in layout.layouts {
            for (index, relationship) in layout.entity.relationships.enumerated()
            where !relationship.isToMany && relationship.selector == nil && !layout.foreignKeyColumns[index].isEmpty {
                foreignKeys.insert(IndexedColumns(table: layout.entity.table, columns: layout.foreignKeyColumns[index]))
            }
        }
        var checked: [IndexedColumns: SeedSchema.Index] = [:]
        var finished: [SeedSchema.Index] = []
        for index in indexes {
            let key = IndexedColumns(table: index.table, columns: index.columns)
            if !index.isUnique, foreignKeys.contains(key), checked[key] == nil {
                checked[key] = index
            } else {
                finished.append(index)
            }
        }
        checkedIndexes = checked
        finishedIndexes = finished
        // A build whose rows' file is the output (`rowsFileIsFinal`).
        earlySync = if writesOutput, case .plain = finish { EarlySync() } else { nil }
    }

    /// The app's schema the seed fills, if any.
    var fit: SchemaFit? {
        if case let .fitted(fit) = finish { return fit }
        return nil
    }

    /// Whether the run goes on past the load: a build does; a validation only to fill an app's
    /// schema, whose own `UNIQUE` or `CHECK` may refuse a row.
    var assembles: Bool {
        if case .fitted = finish { return true }
        return writesOutput
    }

    /// Whether the file the rows are finished in is the one published: then it is checked as it
    /// is compacted; otherwise the stage that writes it next checks it.
    var rowsFileIsFinal: Bool {
        if case .plain = finish { return true }
        return false
    }
}
