import SeederFiles

/// The counts a build reports per entity (docs/commands.md: records read, rows written, occurrences
/// merged, conflicts resolved, references resolved, dropped, rows created).
package struct EntityCounts: Sendable, Hashable, Codable {
    /// Occurrences mapped, embedded ones included.
    package var recordsRead = 0
    /// Rows in the seed: those the load inserted and those the resolver created (none is ever
    /// deleted); 0 in the report of a run that writes none (`EntityTotals`).
    package var rowsWritten = 0
    /// Occurrences that merged into a row seen before.
    package var occurrencesMerged = 0
    /// Conflicts `onConflict: first|last` settled.
    package var conflictsResolved = 0
    /// References whose target was found.
    package var referencesResolved = 0
    /// References dropped by `onMissing: null`.
    package var referencesDropped = 0
    /// Rows `onMissing: create` made for identities that references named and no record provided
    /// (counted in `rowsWritten` too).
    package var rowsCreated = 0
    /// `null`s skipped where a record was expected.
    package var nullsSkipped = 0
    /// Elements skipped because they lack their source's key path.
    package var elementsSkipped = 0
}
