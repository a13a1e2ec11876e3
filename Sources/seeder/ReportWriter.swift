import Foundation
import SeederCore
import SeederFiles
import SeederStore

/// The `--report` and `--json` document: findings and summary, keys in a stable order.
enum ReportWriter {
    /// Writes the document to `path` atomically (`AtomicFile`).
    static func write(_ report: BuildReport, command: JSONDocumentKind, to path: String) throws(OutputError) {
        try AtomicFile.write(Array((json(report, command: command) + "\n").utf8), to: path, willCreate: Interruption.removeOnInterrupt)
    }

    /// Writes the document to `path` if there is one and the build cleared it
    /// (`reportMayBeWritten`: it is no input, nor the output); a failure is told on standard error,
    /// with whether the seed was written (or the validation passed), and returned, for the command
    /// to exit with status 2 once its summary is out.
    static func write(_ report: BuildReport, command: JSONDocumentKind, toFile path: String?) -> OutputError? {
        guard let path, report.reportMayBeWritten else { return nil }
        do {
            try write(report, command: command, to: path)
            return nil
        } catch {
            // What the run did besides, so that the message and the summary read together.
            let outcome =
                command == .build
                ? report.output.map { "; the seed was written to \($0)" } ?? "; no seed was written"
                : report.outcome == .success ? "; the mapping and the dumps are valid" : ""
            StandardError.write(line: "error: \(error.message)\(outcome)")
            return error
        }
    }

    /// The document (docs/json.md, build and validate).
    static func json(_ report: BuildReport, command: JSONDocumentKind) -> String {
        var json = JSONStreamWriter()
        json.object { json in
            command.writeHeader(to: &json)
            report.outcome.write(to: &json)
            json.member("output", report.output)
            json.member("inputs") { $0.array(report.inputs) }
            json.member("files") { json in
                json.array { json in
                    for file in report.files {
                        json.object { json in
                            json.member("path", file.path)
                            json.member("sha256", file.sha256)
                            json.member("bytes", file.bytes)
                            json.member("records", file.records)
                        }
                    }
                }
            }
            json.member("entities") { json in
                json.array { json in
                    for entity in report.entities { write(entity, to: &json) }
                }
            }
            json.member("diagnostics") { json in
                json.array { json in
                    for diagnostic in report.diagnostics { diagnostic.write(to: &json) }
                }
            }
            json.member("suppressedErrors", report.suppressedErrors)
        }
        return json.text
    }

    private static func write(_ entity: BuildReport.EntitySummary, to json: inout JSONStreamWriter) {
        let counts = entity.counts
        json.object { json in
            json.member("name", entity.name)
            json.member("recordsRead", counts.recordsRead)
            json.member("rowsWritten", counts.rowsWritten)
            json.member("occurrencesMerged", counts.occurrencesMerged)
            json.member("conflictsResolved", counts.conflictsResolved)
            json.member("referencesResolved", counts.referencesResolved)
            json.member("referencesDropped", counts.referencesDropped)
            json.member("rowsCreated", counts.rowsCreated)
            json.member("nullsSkipped", counts.nullsSkipped)
            json.member("elementsSkipped", counts.elementsSkipped)
            json.member("unmappedKeys") { $0.array(entity.unmappedKeys) }
        }
    }
}
