import ArgumentParser
import Foundation
import SeederCore
import SeederFiles
import SeederStore

extension DiffFormat: ExpressibleByArgument {}

/// `seeder diff`: what changed between two seeds, record by record, keyed by identity.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two seeds record by record, keyed by identity.",
        discussion: """
            Reports schema changes, per-entity counts, then every changed record with its changed \
            fields, every added and removed record and every join-table link added or removed, then a \
            line per source whose files changed and the metadata changes. Any SQLite file can be compared: tables are then keyed by their primary key. \
            Exit status: 0 the seeds hold the same records, 1 they differ, 2 they could not be compared.
            """
    )

    @Argument(help: "The seed released before.")
    var old: String

    @Argument(help: "The seed to compare with it.")
    var new: String

    @Option(help: "How to print the diff: text (the default), json or markdown.")
    var format: DiffFormat?

    @Flag(help: "Print one JSON document on standard output and nothing else there (--format json).")
    var json = false

    @Option(help: ArgumentHelp("Compare only this entity (or table); repeatable. Its join tables come with it.", valueName: "name"))
    var entity: [String] = []

    // `.unconditional` (both counts): `--limit -1` is a value to refuse with its reason, not a
    // missing one.
    @Option(
        parsing: .unconditional,
        help:
            "List at most this many items of each list (records per entity, sources, schema and metadata changes), then a count of the rest."
    )
    var limit: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --format markdown: write at most this many bytes (60000 by default, at least \(SeedDiffWriter.minimumBytes)), cutting lists to fit.",
            valueName: "n"))
    var maxBytes: Int?

    @Option(
        help: ArgumentHelp(
            "Also write the difference as a SQLite session changeset, which patches an installed copy of OLD into NEW.",
            valueName: "file"))
    var changeset: String?

    func validate() throws {
        if changeset == "" { throw ValidationError("--changeset needs a file name.") }
        if changeset != nil, !entity.isEmpty {
            throw ValidationError("--changeset covers the whole seed; it cannot go with --entity.")
        }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit).") }
        if json, let format, format != .json { throw ValidationError("--json prints JSON; it cannot go with --format \(format).") }
        if let maxBytes {
            if maxBytes < SeedDiffWriter.minimumBytes {
                throw ValidationError("--max-bytes must be at least \(SeedDiffWriter.minimumBytes), not \(maxBytes).")
            }
            if json || (format ?? .text) != .markdown { throw ValidationError("--max-bytes bounds --format markdown only.") }
        }
    }

    func run() throws {
        let run = SeedDiffRun(old: old, new: new, entities: entity, changeset: changeset)
        var report = run.writeChangeset(willCreate: Interruption.removeOnInterrupt)
        if let (path, written) = report.changeset { StandardError.write(Self.describe(written, path: path)) }
        if report.failure == nil { report = try compare(run, after: report) }
        if let failure = report.failure { StandardError.write(line: failure.message) }
        try report.outcome.end()
    }

    /// Runs the comparison, printing the diff as it goes, and its step summary in a GitHub Actions
    /// step.
    private func compare(_ run: SeedDiffRun, after report: DiffReport) throws -> DiffReport {
        let writer = try SeedDiffWriter(format: json ? .json : format ?? .text, limit: limit, maxBytes: maxBytes)
        writer.changeset = report.changeset
        // The markdown for a GitHub Actions step summary, when the run has one (docs/ci.md):
        // written to a scratch file first, so that what is appended can be cut to GitHub's size.
        let summaryFile = GitHubActions.openStepSummary()
        let scratch = summaryFile == nil ? nil : GitHubActions.scratchFile()
        defer {
            summaryFile.map { _ = close($0) }
            scratch.map { _ = close($0) }
        }
        var summary = try scratch.map {
            // The summary's own budget, so that a cut falls between two items, not inside one.
            let writer = try SeedDiffWriter(
                format: .markdown, limit: limit ?? GitHubActions.diffSummaryLimit, maxBytes: GitHubActions.summaryBytes, descriptor: $0)
            writer.shortenedNote = GitHubActions.diffCutNote
            return writer
        }
        let report = run.compare(after: report) { table, change in
            try writer.add(table, change)
            do {
                try summary?.add(table, change)
            } catch {
                StandardError.write(line: "warning: cannot write the step summary: \(error)")
                summary = nil
            }
        }
        guard let diff = report.diff else { return report }
        try writer.finish(diff)
        do {
            try summary?.finish(diff)
            if summary != nil, let scratch, let summaryFile { GitHubActions.appendCut(scratch, to: summaryFile) }
        } catch {
            StandardError.write(line: "warning: cannot write the step summary: \(error)")
        }
        return report
    }

    /// What the `--changeset` file holds (docs/commands.md, diff), for standard error.
    private static func describe(_ written: SeedChangeset, path: String) -> String {
        func rows(_ count: Int) -> String { Wording.count(count, "row") }
        let metadata = written.tables.filter { SeedCatalog.metadataTables.contains($0.table) }.reduce(0) { $0 + $1.changes }
        var parts = written.tables.filter { !SeedCatalog.metadataTables.contains($0.table) }.map { "\(rows($0.changes)) of \($0.table)" }
        if metadata > 0 { parts.append("\(rows(metadata)) of metadata") }
        var line = "wrote \(path) (\(written.bytes) bytes): " + (parts.isEmpty ? "no changes" : parts.joined(separator: ", "))
        for table in written.searchTablesToRebuild {
            line += "; then rebuild \(table): INSERT INTO \(table)(\(table)) VALUES ('rebuild')"
        }
        var text = PrintedText.escaped(line) + "\n"
        for table in written.tablesKeyedByRowNumber {
            text +=
                "warning: \(PrintedText.escaped(table)) is keyed by row numbers, not by its records' identity: the changeset rewrites "
                + "its rows by number, so rows an app wrote to it are lost or taken over when it is applied\n"
        }
        return text
    }
}
