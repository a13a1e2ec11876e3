import Foundation
import SeederCore
import SeederStore

/// The `--report` and `--json` document: findings and summary, keys in a stable order.
enum ReportWriter {
    static func write(_ report: BuildReport, command: String, to path: String) throws {
        try Data((json(report, command: command) + "\n").utf8).write(to: URL(fileURLWithPath: path))
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
