import Foundation
import SeederCore
import SeederStore

/// The `--report` and `--json` document: findings and summary, keys in a stable order.
enum ReportWriter {
    /// Writes the document to `path` atomically (`AtomicFile`).
    static func write(_ report: BuildReport, command: String, to path: String) throws(OutputError) {
        try AtomicFile.write(Array((json(report, command: command) + "\n").utf8), to: path, willCreate: Interruption.removeOnInterrupt)
    }

    /// Writes the document to `path` if there is one and the build cleared it
    /// (`reportMayBeWritten`: it is no input, nor the output); a failure is told on standard error,
    /// with whether the seed was written (or the validation passed), and returned, for the command
    /// to exit with status 2 once its summary is out.
    static func write(_ report: BuildReport, command: String, toFile path: String?) -> OutputError? {
        guard let path, report.reportMayBeWritten else { return nil }
        do {
            try write(report, command: command, to: path)
            return nil
        } catch {
            // What the run did besides, so that the message and the summary read together.
            let outcome = command == "build"
                ? report.output.map { "; the seed was written to \($0)" } ?? "; no seed was written"
                : report.outcome == .success ? "; the mapping and the dumps are valid" : ""
            StandardError.write("error: \(error.message)\(outcome)\n")
            return error
        }
    }

    static func json(_ report: BuildReport, command: String) -> String {
        let string = JSONWriter.stringLiteral
        func location(_ location: SourceLocation?) -> String {
            guard let location else { return "null" }
            switch location.position {
            case .file: return "{\"file\":\(string(location.file))}"
            case let .lineColumn(line, column): return "{\"file\":\(string(location.file)),\"line\":\(line),\"column\":\(column)}"
            case let .offset(offset): return "{\"file\":\(string(location.file)),\"offset\":\(offset)}"
            }
        }
        let findings = report.diagnostics.map { diagnostic in
            "{\"severity\":\(string(diagnostic.severity.rawValue)),\"message\":\(string(diagnostic.message)),"
                + "\"location\":\(location(diagnostic.location)),\"related\":\(location(diagnostic.relatedLocation)),"
                + "\"jsonPath\":\(diagnostic.jsonPath.map(string) ?? "null"),\"text\":\(string(diagnostic.description))}"
        }
        let entities = report.entities.map { entity in
            let counts = entity.counts
            return "{\"name\":\(string(entity.name)),\"recordsRead\":\(counts.recordsRead),\"rowsWritten\":\(counts.rowsWritten),"
                + "\"occurrencesMerged\":\(counts.occurrencesMerged),\"conflictsResolved\":\(counts.conflictsResolved),"
                + "\"referencesResolved\":\(counts.referencesResolved),\"referencesDropped\":\(counts.referencesDropped),"
                + "\"nullsSkipped\":\(counts.nullsSkipped),\"unmappedKeys\":[\(entity.unmappedKeys.map(string).joined(separator: ","))]}"
        }
        let outcome = ["success", "invalid", "failed"][report.outcome.rawValue]
        return "{\"command\":\(string(command)),\"outcome\":\(string(outcome)),\"exitStatus\":\(report.outcome.rawValue),"
            + "\"output\":\(report.output.map(string) ?? "null"),\"inputs\":[\(report.inputs.map(string).joined(separator: ","))],"
            + "\"entities\":[\(entities.joined(separator: ","))],\"diagnostics\":[\(findings.joined(separator: ","))],"
            + "\"suppressedErrors\":\(report.suppressedErrors)}"
    }
}
