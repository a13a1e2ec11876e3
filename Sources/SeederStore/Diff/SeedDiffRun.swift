import SeederFiles

/// One `seeder diff` (docs/commands.md, diff): the `--changeset` written first, so that a
/// difference no changeset can hold is refused before any output, then the seeds compared, each
/// record that differs handed to the caller as it is found, so that the diff is printed as it
/// goes and never held. What each failure means for the exit status is decided here.
///
/// ```swift
/// let run = SeedDiffRun(old: "release.sqlite", new: "seed.sqlite", changeset: "release.changeset")
/// var report = run.writeChangeset()
/// if report.failure == nil { report = run.compare(after: report, writer.add) }
/// exit(report.outcome.exitStatus)
/// ```
package struct SeedDiffRun: Sendable {
    package var differ: SeedDiffer
    /// `--changeset`: where to write the changeset, if anywhere.
    package var changesetPath: String?

    package init(old: String, new: String, entities: [String] = [], changeset: String? = nil) {
        differ = SeedDiffer(old: old, new: new, entities: entities)
        changesetPath = changeset
    }

    /// Writes the changeset, when one is asked for (`SeedChangeset.write`); `willCreate` is
    /// called with the temporary file's path first. A seed that cannot be read, a difference no
    /// changeset can hold, a file that may not be written and any other error (a database
    /// failure mid-read) are the report's failure: never status 1, "they differ".
    package func writeChangeset(willCreate: ([String]) -> Void = { _ in }) -> DiffReport {
        var report = DiffReport()
        guard let path = changesetPath else { return report }
        do {
            report.changeset = (path, try SeedChangeset.write(old: differ.oldPath, new: differ.newPath, to: path, willCreate: willCreate))
        } catch let error as SeedFileError {
            report.failure = DiffReport.Failure(outcome: .failed, message: "\(error)")
        } catch {
            // SeedChangesetError, OutputError, and whatever SQLite says.
            report.failure = DiffReport.Failure(outcome: .failed, message: "error: \(error)")
        }
        return report
    }

    /// Compares the seeds, handing `onChange` every record added, removed or changed
    /// (`SeedDiffer.diff`); `report` is `writeChangeset`'s. An error `onChange` throws (the
    /// output could not be written) is a failure as the differ's own are.
    package func compare(after report: DiffReport, _ onChange: (TableDiff, RecordChange) throws -> Void) -> DiffReport {
        var report = report
        do {
            report.diff = try differ.diff(onChange)
        } catch let error as SeedFileError {
            report.failure = DiffReport.Failure(outcome: .failed, message: "\(error)")
        } catch let error as SeedDiffError {
            report.failure = DiffReport.Failure(outcome: .badUsage, message: "error: \(error)")
        } catch {
            // Anything else means the seeds could not be compared: never status 1, "they differ".
            report.failure = DiffReport.Failure(outcome: .failed, message: "error: \(error)")
        }
        return report
    }
}
