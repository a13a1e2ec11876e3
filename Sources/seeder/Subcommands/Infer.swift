import ArgumentParser
import Foundation
import SeederCore
import SeederFiles
import SeederInfer
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

    @OptionGroup var reporting: ReportingOptions

    @Flag(help: "Print one JSON document (the draft, the entities and sources found, the findings) on standard output.")
    var json = false

    func run() throws {
        var options = InferOptions(
            dumps: dumps, keyPath: keyPath.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) })
        let console = Console()
        options.progress = console.progressReporter(reporting.progress)
        let output = self.output == "-" ? nil : self.output
        var report = InferReport()
        var written: String?
        do {
            // Refused before the dumps are read: a long read must not end in a refusal.
            if let output { try MappingInferrer.checkOutput(output, inputs: [], force: force) }
            report = MappingInferrer.infer(options)
            console.finishProgress()
            if report.outcome == .success, let output, let draft = report.draft {
                try MappingInferrer.checkOutput(output, inputs: report.inputs, force: force)
                try AtomicFile.write(Array(draft.utf8), to: output, willCreate: Interruption.removeOnInterrupt)
                written = output
            }
        } catch {
            // Told as the run's other problems are, and in the document.
            report.diagnostics.append(.error(error.code, error.message))
            report.outcome = .failed
        }
        console.print(report.diagnostics, suppressed: 0, mapping: "")
        // The draft or the document on standard output keeps it: the workflow commands go to standard error.
        try console.annotate(report.diagnostics, reporting.diagnosticsFormat, toStandardError: json || written == nil)
        if let written {
            let entities = report.mapping?.entities.count ?? 0
            StandardError.write(
                line: "drafted \(written): \(Wording.count(entities, "entity", plural: "entities")) from "
                    + "\(Wording.count(report.files, "dump file")), \(Wording.count(report.records, "record"))")
        }
        if json {
            try StandardOutput.write(report.json(dumps: dumps, output: written) + "\n")
        } else if report.outcome == .success, written == nil, let draft = report.draft {
            try StandardOutput.write(draft)
        }
        try report.outcome.end()
    }
}
