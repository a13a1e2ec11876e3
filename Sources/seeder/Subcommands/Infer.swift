import ArgumentParser
import Foundation
import SeederCore
import SeederStore

/// `seeder infer`: read every dump and draft a mapping that builds as it is.
struct Infer: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draft a mapping from a directory of JSON dumps.",
        discussion: """
            Reads every dump file (.json, .jsonl, .ndjson, each also .gz or .zst) and writes a mapping \
            that builds as it is on those dumps: entities, types, identities and relationships guessed \
            from every value, each guess commented with its evidence. Without -o the draft goes to \
            standard output; an existing file is replaced only when --force is given.
            """
    )

    @Argument(help: "The directory holding the JSON dump files.")
    var dumps: String

    @Option(help: ArgumentHelp("Where the records are in every file (a dotted key path), instead of finding them.", valueName: "path"))
    var keyPath: String?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the draft to this file, not standard output ('-': standard output).", valueName: "file"))
    var output: String?

    @Flag(help: "Replace an existing output file.")
    var force = false

    @Option(
        help:
            "Show progress: auto (a line on a terminal), always (plain lines when not on one), plain (a line every few seconds, for CI logs) or never."
    )
    var progress: ProgressMode = .auto

    @Option(
        help: "Also print each diagnostic as a GitHub Actions annotation (github); default: github when GITHUB_ACTIONS=true, else text.")
    var diagnostics: DiagnosticsFormat = .default()

    func run() throws {
        var options = InferOptions(
            dumps: dumps, keyPath: keyPath.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) })
        let console = Console()
        options.progress = console.progressReporter(progress)
        let output = self.output == "-" ? nil : self.output
        if let output {
            // Refused before the dumps are read: a long read must not end in a refusal.
            try MappingInferrer.checkOutput(output, inputs: [], force: force)
        }
        let report = MappingInferrer.infer(options)
        console.finishProgress()
        console.print(report.diagnostics, suppressed: 0, mapping: "")
        // Without -o the draft owns standard output.
        try console.annotate(report.diagnostics, diagnostics, toStandardError: output == nil)
        guard report.outcome == .success, let draft = report.draft else { throw ExitCode(Int32(report.outcome.rawValue)) }
        if let output {
            try MappingInferrer.checkOutput(output, inputs: report.inputs, force: force)
            try AtomicFile.write(Array(draft.utf8), to: output, willCreate: Interruption.removeOnInterrupt)
            let entities = report.mapping?.entities.count ?? 0
            StandardError.write(
                "drafted \(output): \(entities) \(entities == 1 ? "entity" : "entities") from "
                    + "\(MappingDraftWriter.counted(report.files, "dump file")), \(MappingDraftWriter.counted(report.records, "record"))\n")
        } else {
            try StandardOutput.write(draft)
        }
    }
}
