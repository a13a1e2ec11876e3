/// What a build counted per entity once the load is over (`EntityTally`), with the keys nothing
/// mapped: the report's summary is taken from it once, when the run's outcome is known.
struct EntityTotals {
    var names: [String] = []
    var counts: [EntityCounts] = []
    var unmappedKeys: [[String]] = []

    /// The report's summary (docs/commands.md, `seeder build`) of a run that ended with
    /// `outcome`: rows are written only by a run that succeeds (a validation, into its temporary
    /// seed: the rows the seed would hold), so any other reports none.
    func summaries(for outcome: BuildReport.Outcome) -> [BuildReport.EntitySummary] {
        names.indices.map { index in
            var counts = counts[index]
            if outcome != .success { counts.rowsWritten = 0 }
            return BuildReport.EntitySummary(name: names[index], counts: counts, unmappedKeys: unmappedKeys[index])
        }
    }
}
