import ArgumentParser
import Foundation
import SeederCore
import SeederFiles
import SeederStore

/// The terminal side of a run: diagnostics and progress on standard error, the summary on
/// standard output; colour only on a terminal and never with `NO_COLOR` set.
final class Console: @unchecked Sendable {
    private let colour: Bool
    private let lock = NSLock()
    private var progress: ProgressDisplay?

    init() {
        colour = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    private func style(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Prints diagnostics compiler style; for the mapping file, the source line and a caret.
    /// The same message over many records is printed a few times, then counted. Each line is
    /// guarded (`PrintedText.guarded`) before colour is added, as colour is the one escape code
    /// printed.
    func print(_ diagnostics: [Diagnostic], suppressed: Int, mapping: String) {
        // Read as the build read it: a regular file only, never blocking on a FIFO.
        let mappingLines = (try? FileByteSource(path: mapping).readAll(atMost: FileByteSource.wholeFileLimit)).map {
            String(decoding: $0, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        }
        var text = ""
        for folded in DiagnosticFolding.fold(diagnostics) {
            let diagnostic = folded.diagnostic
            var line = PrintedText.guarded(diagnostic.description)
            let severity = diagnostic.severity.rawValue + ":"
            if let range = line.range(of: severity) {
                line.replaceSubrange(range, with: style(severity, diagnostic.severity == .error ? "1;31" : "1;33"))
            }
            text += line + "\n"
            if let location = diagnostic.location, location.file == mapping, let mappingLines,
                case let .lineColumn(lineNumber, column) = location.position, lineNumber >= 1, lineNumber <= mappingLines.count
            {
                var source = mappingLines[lineNumber - 1]
                if source.hasSuffix("\r") { source = source.dropLast() }
                let quote = SourceQuote(line: source, column: column)
                text += PrintedText.guarded(quote.text) + "\n" + String(quote.caret.dropLast()) + style("^", "1;32") + "\n"
            }
            if let more = folded.moreText { text += more + "\n" }
        }
        if suppressed > 0 {
            text += "\(suppressed) more \(suppressed == 1 ? "error" : "errors") not shown (--max-errors)\n"
        }
        StandardError.writeVerbatim(text)
    }

    /// With `github`, the diagnostics also as workflow commands (`GitHubActions`), on standard
    /// output where the runner reads them, or standard error when a document owns standard output.
    func annotate(_ diagnostics: [Diagnostic], _ format: DiagnosticsFormat, toStandardError: Bool = false) throws(OutputError) {
        guard format == .github, !diagnostics.isEmpty else { return }
        let text = GitHubActions.annotations(diagnostics)
        if toStandardError {
            StandardError.writeVerbatim(text)
        } else {
            try StandardOutput.writeVerbatim(text)
        }
    }

    /// The per-entity summary (docs/commands.md: records read, rows written, occurrences merged,
    /// conflicts resolved, references resolved or dropped; rows created and records skipped when
    /// there were some), then the output. A failed run prints
    /// one line on standard error instead: counts of a build that wrote nothing would mislead.
    func printSummary(_ report: BuildReport, command: String) throws(OutputError) {
        guard report.outcome == .success else {
            let errors = report.diagnostics.filter { $0.severity == .error }.count + report.suppressedErrors
            let warnings = report.diagnostics.count(where: { $0.severity == .warning })
            let counts = "\(Wording.count(errors, "error")), \(Wording.count(warnings, "warning"))"
            let line = command == "build" ? "build failed: \(counts); nothing was written\n" : "validation failed: \(counts)\n"
            StandardError.write(line)
            return
        }
        guard !report.entities.isEmpty else { return }
        // Created rows (`onMissing: create`) and skipped records (`null`s and elements without
        // the key path): a column each only when there were some.
        let skipped = report.entities.map { $0.counts.nullsSkipped + $0.counts.elementsSkipped }
        let showsCreated = report.entities.contains { $0.counts.rowsCreated > 0 }
        let showsSkipped = skipped.contains { $0 > 0 }
        let header =
            ["entity", "records", "rows", "merged", "conflicts", "references", "dropped"] + (showsCreated ? ["created"] : [])
            + (showsSkipped ? ["skipped"] : [])
        let rows = report.entities.enumerated().map { index, entity in
            [
                entity.name, String(entity.counts.recordsRead), String(entity.counts.rowsWritten), String(entity.counts.occurrencesMerged),
                String(entity.counts.conflictsResolved), String(entity.counts.referencesResolved), String(entity.counts.referencesDropped),
            ] + (showsCreated ? [String(entity.counts.rowsCreated)] : []) + (showsSkipped ? [String(skipped[index])] : [])
        }
        var text = TextTable.render([header] + rows, rightAligned: Set(1..<header.count))
        if let output = report.output {
            text += "wrote \(PrintedText.escaped(output))\n"
        } else if report.outcome == .success {
            // A file read by several sources is one file.
            let files = Set(report.inputs).count
            text += "valid: \(files) dump \(files == 1 ? "file" : "files"), nothing written\n"
        }
        try StandardOutput.write(text)
    }

    // MARK: Progress

    /// A progress reporter for the mode (`ProgressDisplay`), or `nil` when none is shown.
    func progressReporter(_ mode: ProgressMode) -> (@Sendable (BuildProgress) -> Void)? {
        guard let display = ProgressDisplay(mode: mode) else { return nil }
        lock.lock()
        progress = display
        lock.unlock()
        return { display.update($0) }
    }

    /// Ends the progress line, if one was shown.
    func finishProgress() {
        lock.lock()
        progress?.finish()
        lock.unlock()
    }
}
