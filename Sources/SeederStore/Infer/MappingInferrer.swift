import Foundation
import SeederCore

/// What `seeder infer` is asked to do.
public struct InferOptions: Sendable {
    /// The directory holding the dump files.
    public var dumps: String
    /// `--key-path`: where the records are in every file, instead of finding them.
    public var keyPath: [String]?
    /// Called now and then while the dumps are read.
    public var progress: (@Sendable (BuildProgress) -> Void)?

    public init(dumps: String, keyPath: [String]? = nil) {
        self.dumps = dumps
        self.keyPath = keyPath
    }
}

/// What `seeder infer` found: the draft, or why there is none.
public struct InferReport: Sendable {
    /// The draft's YAML text, loaded by `MappingLoader` before it is handed out.
    public var draft: String?
    public var mapping: InferredMapping?
    public var diagnostics: [Diagnostic] = []
    public var outcome: BuildReport.Outcome = .success
    /// Dump files read, and records seen in them (embedded ones not counted).
    public var files = 0
    public var records = 0
    /// The dump files read, for telling the output from an input (`OutputGuard.checkDraft`).
    public var inputs: [InputFile] = []
}

/// Drafts a mapping from a directory of dumps (docs/commands.md, `seeder infer`).
///
/// Stages: the dumps directory -> dump files (`InputPlanner`'s listing, numbered files grouped
/// under one glob) -> each file's records, streamed (`JSONReader`; a file whose root is an
/// object is read whole and its records found by `RecordLayout`) -> `ShapeObserver`s, one per
/// kind of record -> `MappingInference` -> `InferredMapping` -> `MappingDraftWriter` -> YAML
/// text -> `MappingLoader`, which must accept it.
///
///     let report = MappingInferrer.infer(InferOptions(dumps: "dumps"))
///     print(report.draft ?? "")
public enum MappingInferrer {
    /// Checks the file `infer -o` is to write (`OutputGuard.checkDraft`): a regular file or
    /// nothing, none of `inputs`, and nothing there unless `force`.
    public static func checkOutput(_ output: String, inputs: [InputFile], force: Bool) throws(OutputError) {
        try OutputGuard.checkDraft(output, dumps: inputs, force: force)
    }

    public static func infer(_ options: InferOptions) -> InferReport {
        var report = InferReport()
        let diagnostics = DiagnosticSink()
        let planner = InputPlanner(mapping: Mapping.empty, dumps: options.dumps)
        let root = URL(fileURLWithPath: options.dumps).standardizedFileURL.resolvingSymlinksInPath().path
        var status = stat()
        guard stat(root, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            let reason = stat(root, &status) == 0 ? "it is not a directory" : FileKind.reason(errno)
            diagnostics.error("cannot read the dumps directory: \(reason)", at: SourceLocation(file: options.dumps))
            report.diagnostics = diagnostics.takeAll()
            report.outcome = .failed
            return report
        }
        var failures: [(path: String, reason: String)] = []
        let paths = InputPlanner.dumpFiles(under: root, failures: &failures)
        for failure in failures {
            diagnostics.error(
                "cannot read \(failure.path.isEmpty ? "the dumps directory" : "this directory"): \(failure.reason)",
                at: SourceLocation(file: failure.path.isEmpty ? options.dumps : planner.display(failure.path)))
        }
        guard failures.isEmpty else {
            report.diagnostics = diagnostics.takeAll()
            report.outcome = .failed
            return report
        }
        let groups = FileGroup.groups(of: paths.filter { Source.format(ofFile: $0) != nil }, among: paths)
        var files: [InputFile] = []
        for path in paths where Source.format(ofFile: path) == nil && InputPlanner.looksCompressed(path) {
            diagnostics.warning(
                "this dump is compressed in a way seeder does not read (it reads .gz and .zst); it is left out",
                at: SourceLocation(file: planner.display(path)))
        }
        let catalog = ShapeCatalog()
        var reader = DumpObservation(catalog: catalog, keyPath: options.keyPath, progress: options.progress)
        reader.totalBytes = 0
        var observed: [MappingInference.ObservedSource] = []
        var notes: [String] = []
        var unreadable = false
        for group in groups {
            var layouts: [[RecordLayout.Collection]?] = []
            for path in group.paths {
                guard
                    let file = planner.inputFile(
                        path, root: root, entity: 0, keyPath: [], diagnostics: diagnostics, unreadable: &unreadable)
                else { continue }
                files.append(file)
                reader.totalBytes += file.size
            }
            for file in files.suffix(group.paths.count) where group.paths.contains(file.relativePath) {
                layouts.append(reader.read(file, named: group.name, diagnostics: diagnostics))
            }
            if diagnostics.hasErrors { continue }
            observed += sources(of: group, layouts: layouts, reader: reader, notes: &notes)
        }
        report.files = files.count
        report.inputs = files
        report.records = reader.records
        if unreadable || reader.unreadable || diagnostics.hasErrors {
            diagnostics.resolveOffsets { name in
                files.first { $0.path == name }.flatMap { try? $0.openBytes() }
            }
            report.diagnostics = diagnostics.takeAll()
            report.outcome = unreadable || reader.unreadable ? .failed : .invalid
            return report
        }
        var mapping = MappingInference(catalog: catalog, sources: observed).mapping()
        mapping.notes = notes + mapping.notes
        let header = [
            "Drafted by seeder infer from \(MappingDraftWriter.grouped(files.count)) dump \(files.count == 1 ? "file" : "files") in \(options.dumps), "
                + "\(MappingDraftWriter.grouped(reader.records)) records.",
            "Every type, identity and relationship below is a guess from those dumps: the comments give the evidence.",
        ]
        let text = MappingDraftWriter().text(of: mapping, header: header)
        let check = DiagnosticSink()
        if MappingLoader().load(yaml: text, file: "<draft>", diagnostics: check) == nil {
            // A draft that does not load is seeder's failure, not the dumps'.
            diagnostics.error("the draft mapping does not load; this is a bug of seeder infer:")
            for diagnostic in check.takeAll() { diagnostics.report(diagnostic) }
            report.diagnostics = diagnostics.takeAll()
            report.draft = text
            report.outcome = .failed
            return report
        }
        report.diagnostics = diagnostics.takeAll()
        report.mapping = mapping
        report.draft = text
        return report
    }

    /// The sources of one group of files: one per place holding records, with the group's glob
    /// when every file holds them in the same places, else one per file.
    private static func sources(
        of group: FileGroup, layouts: [[RecordLayout.Collection]?], reader: DumpObservation, notes: inout [String]
    ) -> [MappingInference.ObservedSource] {
        func places(_ layout: [RecordLayout.Collection]?) -> [[String]: Bool]? {
            layout.map { Dictionary($0.map { ($0.keyPath, $0.keyed) }, uniquingKeysWith: { first, _ in first }) }
        }
        let first = layouts.first ?? nil
        let uniform = layouts.allSatisfy { places($0) == places(first) }
        var result: [MappingInference.ObservedSource] = []
        let units: [(String, [RecordLayout.Collection]?, Int)] =
            uniform
            ? [(group.pattern, first, group.paths.count)]
            : zip(group.paths, layouts).map { ($0, $1, 1) }
        for (path, layout, files) in units {
            guard let layout else {
                result.append(.init(path: path, observer: group.name, keyPath: reader.keyPath ?? [], keyed: false, files: files))
                continue
            }
            if layout.isEmpty { notes.append("\(path) holds no records: it is left out") }
            for collection in layout {
                result.append(
                    .init(
                        path: path, observer: DumpObservation.observerName(for: collection, group: group.name), keyPath: collection.keyPath,
                        keyed: collection.keyed, files: files))
            }
        }
        return result
    }
}

extension Mapping {
    /// A mapping with no entities, for listing dump files without one.
    static var empty: Mapping {
        MappingLoader().load(
            yaml: "seeder: 1\nentities:\n  Dump: { identity: none, attributes: { value: json } }\n", file: "<none>",
            diagnostics: DiagnosticSink())!
    }
}
