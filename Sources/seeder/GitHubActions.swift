import ArgumentParser
import Foundation
import SeederCore
import SeederFiles
import SeederStore

/// How diagnostics are printed besides the compiler-style lines (docs/ci.md).
enum DiagnosticsFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    /// Each diagnostic also as a GitHub Actions workflow command, an annotation on its line.
    case github

    /// `github` when the run is a GitHub Actions step (`GITHUB_ACTIONS=true`), else `text`.
    static func `default`(environment: [String: String] = ProcessInfo.processInfo.environment) -> DiagnosticsFormat {
        environment["GITHUB_ACTIONS"] == "true" ? .github : .text
    }
}

/// GitHub Actions' side of a run (docs/ci.md): workflow commands that annotate a pull request's
/// lines, and the step summary.
enum GitHubActions {
    /// `::error file=dumps/users.json,line=1,col=20,title=seeder conflict::User 3: ...`: one
    /// diagnostic as a workflow command. A path under `GITHUB_WORKSPACE` is made relative to it,
    /// as GitHub places annotations by the repository's paths.
    static func annotation(
        _ diagnostic: Diagnostic, more: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let workspace = environment["GITHUB_WORKSPACE"]
        var properties: [String] = []
        if let location = diagnostic.location {
            properties.append("file=" + escapeProperty(repositoryPath(location.file, workspace: workspace)))
            if case let .lineColumn(line, column) = location.position {
                properties.append("line=\(line)")
                properties.append("col=\(column)")
            }
        }
        properties.append("title=" + escapeProperty("seeder \(diagnostic.code)"))
        var message = diagnostic.message
        if var related = diagnostic.relatedLocation {
            related.file = repositoryPath(related.file, workspace: workspace)
            message += " at \(related)"
        }
        if let path = diagnostic.jsonPath { message += "  [\(path.isEmpty ? "/" : path)]" }
        // Data's line feeds escaped first: only seeder's own line (`more`) breaks the annotation.
        message = PrintedText.escaped(message)
        if let more { message += "\n" + more }
        // GitHub's command for a note is `notice`.
        let command = diagnostic.severity == .note ? "notice" : diagnostic.severity.rawValue
        return "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))"
    }

    /// The workflow commands of `diagnostics`, folded as the text lines are.
    static func annotations(_ diagnostics: [Diagnostic]) -> String {
        DiagnosticFolding.fold(diagnostics).map { annotation($0.diagnostic, more: $0.moreText) + "\n" }.joined()
    }

    /// `path` relative to the workspace, when it is under it: a relative path is the current
    /// directory's (a step's `working-directory:`), and links are resolved on both sides.
    static func repositoryPath(_ path: String, workspace: String?) -> String {
        guard let workspace, !workspace.isEmpty else { return path }
        func real(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        let root = real(workspace)
        let full = real(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        if full == root { return "." }
        return full.hasPrefix(root + "/") ? String(full.dropFirst(root.count + 1)) : path
    }

    /// A command's message: `%`, CR and LF escaped, as the runner unescapes them.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property's value: control characters as `PrintedText` shows them, the message's
    /// escapes, and `:` and `,`, which end a property.
    static func escapeProperty(_ text: String) -> String {
        escapeData(PrintedText.escaped(text)).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    // MARK: The step summary

    /// Records listed per entity in a diff's step summary without `--limit`: GitHub takes at
    /// most 1 MiB of summary a step (`summaryBytes`).
    static let diffSummaryLimit = 100

    /// The step summary file (`GITHUB_STEP_SUMMARY`), opened for appending; `nil` when the run
    /// has none. A path that cannot be opened, or is no regular file, is told on standard error
    /// and the run goes on: the summary is a courtesy, not the work.
    static func openStepSummary(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32? {
        guard let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty else { return nil }
        // O_NONBLOCK: a FIFO there must not hang the run; it is refused below.
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            StandardError.write(line: "warning: cannot write the step summary \(path): \(String(cString: strerror(errno)))")
            return nil
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            StandardError.write(line: "warning: cannot write the step summary \(path): it is not a regular file")
            return nil
        }
        return descriptor
    }

    /// The last line of a diff cut to fit the step summary.
    static let diffCutNote = "The diff is cut here: GitHub takes at most 1 MiB of summary a step. `seeder diff` prints it whole."

    /// The most a command appends to the step summary, the note of a cut included: GitHub takes
    /// 1 MiB a step, and rejects a larger summary whole.
    static let summaryBytes = 900_000

    /// `bytes`, the first of `total`, as appended to the summary: whole when `total` is within
    /// `limit`, else cut at the end of a line (so never inside a character) and ended with `note`,
    /// the whole at most `limit` bytes. The one cut of every summary: `diff`'s and the others'.
    static func cut(_ bytes: [UInt8], total: Int, limit: Int = summaryBytes, note: String) -> [UInt8] {
        guard total > limit else { return bytes }
        let said = Array("\n*\(note)*\n".utf8)
        var kept = Array(bytes.prefix(max(0, limit - said.count)))
        if let end = kept.lastIndex(of: UInt8(ascii: "\n")) { kept.removeSubrange((end + 1)...) } else { kept = [] }
        return kept + said
    }

    /// An unlinked scratch file in the temporary directory, for a summary written before it is
    /// cut; `nil` when none can be made (the summary is then left out).
    static func scratchFile() -> Int32? {
        var template = Array((NSTemporaryDirectory() + "/seeder-summary.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }

    /// Appends what `scratch` holds to the summary, at most `limit` bytes, cut at a line's end
    /// and said so (`cut`).
    static func appendCut(_ scratch: Int32, to summary: Int32, limit: Int = summaryBytes) {
        let size = Int(lseek(scratch, 0, SEEK_END))
        lseek(scratch, 0, SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: min(size, limit))
        var read = 0
        while read < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(scratch, $0.baseAddress! + read, $0.count - read) }
            guard count > 0 else { break }
            read += count
        }
        bytes.removeSubrange(read...)
        bytes = cut(
            bytes, total: size, limit: limit,
            note: diffCutNote)
        let failure = bytes.withUnsafeBytes { writeAll(summary, $0) }
        if failure != 0 { StandardError.write("warning: cannot write the step summary: \(String(cString: strerror(failure)))\n") }
    }

    /// Appends `markdown` to the step summary, if the run has one: at most `limit` bytes, cut at a
    /// line's end and said so (`cut`).
    static func appendStepSummary(
        _ markdown: String, limit: Int = summaryBytes, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        guard let descriptor = openStepSummary(environment: environment) else { return }
        defer { close(descriptor) }
        let bytes = cut(
            Array(markdown.utf8), total: markdown.utf8.count, limit: limit,
            note: "The summary is cut here: GitHub takes at most 1 MiB of summary a step. The run's log holds every diagnostic.")
        let failure = bytes.withUnsafeBytes { writeAll(descriptor, $0) }
        if failure != 0 {
            StandardError.write(
                line: "warning: cannot write the step summary \(environment["GITHUB_STEP_SUMMARY"]!): \(String(cString: strerror(failure)))"
            )
        }
    }

    /// A build's or a validation's summary as markdown: the outcome, the table of entities, and
    /// the diagnostics (folded, at most `shown` lines).
    static func summary(_ report: BuildReport, command: String, shown: Int = 50) -> String {
        let errors = report.diagnostics.count { $0.severity == .error } + report.suppressedErrors
        let warnings = report.diagnostics.count { $0.severity == .warning }
        let counts = "\(Wording.count(errors, "error")), \(Wording.count(warnings, "warning"))"
        var text: String
        switch (report.outcome, command) {
        case (.success, "build"): text = "### seeder build: wrote \(PrintedText.codeSpan(report.output ?? ""))\n\n"
        case (.success, _): text = "### seeder validate: valid\n\n"
        case (_, "build"): text = "### seeder build failed: \(counts); nothing was written\n\n"
        default: text = "### seeder validate failed: \(counts)\n\n"
        }
        if report.outcome == .success, !report.entities.isEmpty {
            text += "| entity | records | rows | merged | conflicts | references | dropped |\n|---|--:|--:|--:|--:|--:|--:|\n"
            for entity in report.entities {
                let counts = entity.counts
                let cells = [
                    counts.recordsRead, counts.rowsWritten, counts.occurrencesMerged, counts.conflictsResolved,
                    counts.referencesResolved, counts.referencesDropped,
                ]
                text += "| \(PrintedText.cell(entity.name)) | " + cells.map(String.init).joined(separator: " | ") + " |\n"
            }
            text += "\n"
        }
        let folded = DiagnosticFolding.fold(report.diagnostics)
        if !folded.isEmpty {
            // Fenced longer than any run of backticks in them: no key or value closes the block.
            var lines: [String] = []
            for line in folded.prefix(shown) {
                lines.append(shortened(line.diagnostic.description))
                if let more = line.moreText { lines.append(more) }
            }
            if folded.count > shown { lines.append("... \(folded.count - shown) more not shown here") }
            text += PrintedText.fenced(lines) + "\n"
        }
        return text
    }

    /// The most of one diagnostic a summary shows: 2,000 bytes, so that one holding much data (a
    /// key of megabytes) leaves room for the others.
    static let diagnosticBytes = 2_000

    /// `line`, or its first characters within `diagnosticBytes` (never part of one) and how many
    /// bytes more it held.
    static func shortened(_ line: String, limit: Int = diagnosticBytes) -> String {
        let utf8 = line.utf8
        guard utf8.count > limit else { return line }
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { utf8.formIndex(before: &end) }
        let kept = String(decoding: utf8[..<end], as: UTF8.self)
        return kept + " ... (\(utf8.count - kept.utf8.count) bytes more)"
    }
}
