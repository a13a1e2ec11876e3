import Foundation
import GRDB
import SeederCore
import SeederFiles

/// What the resolver may see of a finished load (`RowStore`): the connection, the tables' layouts,
/// the dump files their rows came from, and each side table with every row in it. It never
/// reaches the load's statements; what it does it counts in the build's counts (`EntityTally`).
protocol LoadedTables {
    var db: Database { get }
    var mapping: Mapping { get }
    var layouts: [RowLayout] { get }
    /// Per entity, per relationship: the link table of a to-many.
    var links: [[LinkLayout?]] { get }
    /// Dump files by index, as `_file` columns store them.
    var files: [String] { get }

    /// The side table of `layout`, with every side row in it.
    func sideTable(of layout: RowLayout) throws -> String

    /// Whether a side row of `layout` may lack the presence bit of `slot`.
    func someSideRowMayLack(_ layout: RowLayout, slot: Int) -> Bool

    /// Notes that rows went into the side table of `entity` without the load (`onMissing:
    /// create`'s), so that `someSideRowMayLack` no longer answers from the load's rows alone.
    func noteSideRowsWentIn(of entity: Int)
}

extension RowStore: LoadedTables {}
