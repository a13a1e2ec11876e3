import Foundation
import SeederCore
import SeederFetch
import SeederFiles
import SeederStore

/// How a fetch's report is shown: the table, the failure line, the JSON document (docs/json.md,
/// fetch) and the step summary.
enum FetchSummary {
    static func table(_ report: FetchReport) -> String {
        // `missing` only when a child was skipped (docs/commands.md, fetch): the table of every
        // other fetch stays as it was.
        let missing = report.sources.contains { $0.missing > 0 }
        let header =
            ["source", "pages", "unchanged", "removed"] + (missing ? ["missing"] : []) + ["records", "bytes", "requests", "retries"]
        let rows = report.sources.map { source in
            [source.path, String(source.pagesFetched), String(source.pagesUnchanged), String(source.pagesRemoved)]
                + (missing ? [String(source.missing)] : [])
                + [String(source.records), String(source.bytes), String(source.requests), String(source.retries)]
        }
        var text = TextTable.render([header] + rows, rightAligned: Set(1..<header.count))
        let dumps = PrintedText.escaped(report.dumps)
        text += report.changedDumps ? "updated \(dumps)\n" : "\(dumps) is up to date: nothing was written\n"
        return text
    }

    static func failureLine(_ report: FetchReport) -> String {
        let errors = report.errorCount
        return "fetch failed: \(Wording.count(errors, "error")); \(PrintedText.escaped(report.dumps)) was not changed\n"
    }

    static func json(_ report: FetchReport) -> String {
        var json = JSONStreamWriter()
        json.object { json in
            JSONDocumentKind.fetch.writeHeader(to: &json)
            report.outcome.write(to: &json)
            json.member("dumps", report.dumps)
            json.member("changed", report.changedDumps)
            json.member("sources") { json in
                json.array { json in
                    for source in report.sources {
                        json.object { json in
                            json.member("path", source.path)
                            json.member("pagesFetched", source.pagesFetched)
                            json.member("pagesWritten", source.pagesWritten)
                            json.member("pagesUnchanged", source.pagesUnchanged)
                            json.member("pagesRemoved", source.pagesRemoved)
                            json.member("missing", source.missing)
                            json.member("records", source.records)
                            json.member("bytes", source.bytes)
                            json.member("requests", source.requests)
                            json.member("retries", source.retries)
                        }
                    }
                }
            }
            json.member("diagnostics") { json in
                json.array { json in
                    for diagnostic in report.diagnostics { diagnostic.write(to: &json) }
                }
            }
        }
        return json.text
    }

    /// The step summary's markdown.
    static func markdown(_ report: FetchReport) -> String {
        var text = "### seeder fetch\n\n"
        if report.outcome != .success {
            text += "**Failed** (\(Wording.count(report.errorCount, "error"))); the dumps were not changed.\n\n"
            for diagnostic in report.diagnostics.prefix(20) { text += "- \(PrintedText.codeSpan(diagnostic.description))\n" }
            return text
        }
        let missing = report.sources.contains { $0.missing > 0 }
        text += "| source | pages | unchanged | removed |\(missing ? " missing |" : "") records | bytes | requests | retries |\n"
        text += "|---|--:|--:|--:|\(missing ? "--:|" : "")--:|--:|--:|--:|\n"
        for source in report.sources {
            text +=
                "| \(PrintedText.codeSpan(source.path).replacingOccurrences(of: "|", with: "\\|")) | \(source.pagesFetched) | \(source.pagesUnchanged) | \(source.pagesRemoved) |"
                + (missing ? " \(source.missing) |" : "")
                + " \(source.records) | \(source.bytes) | \(source.requests) | \(source.retries) |\n"
        }
        text += report.changedDumps ? "\nThe dumps were updated.\n" : "\nThe dumps are up to date.\n"
        return text
    }
}

/// Progress of a fetch on standard error, as `build` shows its own (docs/commands.md, Progress).
final class FetchProgressDisplay: @unchecked Sendable {
    private let style: ProgressDisplay.Style
    private let lock = NSLock()
    private var lastLine = -Double.infinity
    private var shown = false
    private let started = ProcessInfo.processInfo.systemUptime
    private var requests = 0

    init?(mode: ProgressMode, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        guard let style = ProgressDisplay.style(for: mode, isTerminal: isTerminal) else { return nil }
        self.style = style
    }

    func update(_ progress: FetchProgress) {
        lock.lock()
        defer { lock.unlock() }
        requests += 1
        let now = ProcessInfo.processInfo.systemUptime
        let pages = progress.expectedPages.map { "\(progress.pages) of \($0) pages" } ?? Wording.count(progress.pages, "page")
        let rate = Double(requests) / max(now - started, 0.001)
        let text =
            "fetching \(PrintedText.escaped(progress.source)): \(pages), \(Wording.count(progress.records, "record")), \(progress.bytes / 1000) kB, "
            + String(format: "%.1f", rate) + " pages/s"
        switch style {
        case .line:
            shown = true
            StandardError.writeVerbatim("\r\u{1B}[K" + PrintedText.guarded(text))
        case .plain:
            guard now - lastLine >= ProgressDisplay.plainInterval else { return }
            lastLine = now
            StandardError.write(text + "\n")
        }
    }

    /// A line of its own, said as it happens (a retry), above the progress line.
    func note(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        StandardError.writeVerbatim((shown ? "\r\u{1B}[K" : "") + PrintedText.guarded("fetch: " + PrintedText.escaped(text) + "\n"))
        shown = false
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { StandardError.writeVerbatim("\r\u{1B}[K") }
    }

}
