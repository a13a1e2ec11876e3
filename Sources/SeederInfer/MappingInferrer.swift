import Foundation
import SeederCore
import SeederFiles

/// What `seeder infer` is asked to do.
public struct InferOptions: Sendable {
    /// The directory holding the dump files.
    public var dumps: String
    /// `--key-path`: where the records are in every file, instead of finding them.
    public var keyPath: [String]?
    /// Called now and then while the dumps are read.
    public var progress: (@Sendable (BuildProgress) -> Void)?
    /// The largest object-root file parsed whole rather than streamed (tests set it lower).
    package var wholeFileLimit = DumpObservation.wholeFileLimit

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
    public var outcome: RunOutcome = .success
    /// Dump files read, and records seen in them (embedded ones not counted).
    public var files = 0
    public var records = 0
    /// The dump files read, for telling the output from an input (`OutputGuard.checkDraft`).
    public var inputs: [InputFile] = []
    /// Paths compared while grouping the files and handing each group its files: work that
    /// grows with the files, not with their square (`GroupingWork`).
    package var pathTests = 0

    /// A report of nothing yet: success, no draft.
    public init() {}
}

/// Drafts a mapping from a directory of dumps (docs/commands.md, `seeder infer`).
///
/// Stages: the dumps directory -> dump files (`InputPlanner`'s listing) -> `FileGroup`s, by the
/// grouping rules (`FileGroup.rules`: the files of one fetched source, the one-record files of
/// one folder, numbered files under one glob) -> each file's records, streamed (`JSONReader`; in a file whose root is an
/// object, `RecordLayout` finds them first) -> `ShapeObserver`s, one per
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
            diagnostics.error(.io, "cannot read the dumps directory: \(reason)", at: SourceLocation(file: options.dumps))
            report.diagnostics = diagnostics.takeAll()
            report.outcome = .failed
            return report
        }
        var failures: [WalkFailure] = []
        let paths = InputPlanner.dumpFiles(under: root, failures: &failures)
        for failure in failures { failure.report(to: diagnostics, planner: planner) }
        guard failures.isEmpty else {
            report.diagnostics = diagnostics.takeAll()
            report.outcome = .failed
            return report
        }
        let work = GroupingWork()
        let groups = FileGroup.groups(
            of: paths.filter { Source.format(ofFile: $0) != nil }, among: paths, fetched: FetchedSources.read(root: root), work: work
        ) { path in recordKeys(of: path, root: root, planner: planner) }
        report.pathTests = work.pathTests
        var files: [InputFile] = []
        for path in paths where Source.format(ofFile: path) == nil && InputPlanner.looksCompressed(path) {
            diagnostics.warning(
                .unreadFile, "this dump is compressed in a way seeder does not read (it reads .gz and .zst); it is left out",
                at: SourceLocation(file: planner.display(path)))
        }
        guard !groups.isEmpty else {
            // Nothing to draft from: said as such, not as a draft that does not load.
            diagnostics.error(
                .noFile, "found no dump files under \(options.dumps) (infer reads .json, .jsonl and .ndjson files, each also .gz or .zst)",
                at: SourceLocation(file: options.dumps))
            report.diagnostics = diagnostics.takeAll()
            report.outcome = .failed
            return report
        }
        let catalog = ShapeCatalog()
        var reader = DumpObservation(catalog: catalog, keyPath: options.keyPath, progress: options.progress)
        reader.wholeFileLimit = options.wholeFileLimit
        reader.totalBytes = 0
        var observed: [MappingInference.ObservedSource] = []
        var resourceSources: [JSONAPIDrafting.ObservedSource] = []
        var notes: [String] = []
        var unreadable = false
        for group in groups {
            var readings: [DumpObservation.FileRecords] = []
            // The group's files as they are planned: never looked up again in the group's list,
            // which for a folder of 8,000 records was 32 million comparisons.
            var groupFiles: [InputFile] = []
            for path in group.paths {
                guard
                    let file = planner.inputFile(
                        path, root: root, entity: 0, keyPath: [], diagnostics: diagnostics, unreadable: &unreadable)
                else { continue }
                groupFiles.append(file)
                reader.totalBytes += file.size
            }
            files += groupFiles
            for file in groupFiles {
                readings.append(reader.read(file, named: group.name, diagnostics: diagnostics))
            }
            if diagnostics.hasErrors { continue }
            resolveEmptyPages(&readings, files: groupFiles, group: group, reader: &reader)
            observed += sources(of: group, readings: readings, reader: reader, notes: &notes)
            resourceSources += self.resourceSources(of: group, readings: readings, notes: &notes)
        }
        report.files = files.count
        report.inputs = files
        report.records = reader.records
        // Every diagnostic of the reading placed at its line and column, whatever the outcome.
        diagnostics.resolveOffsets { name in
            files.first { $0.path == name }.flatMap { try? $0.openBytes() }
        }
        if unreadable || reader.unreadable || diagnostics.hasErrors {
            report.diagnostics = diagnostics.takeAll()
            report.outcome = unreadable || reader.unreadable ? .failed : .invalid
            return report
        }
        var mapping = MappingInference(catalog: catalog, sources: observed).mapping()
        if !reader.resources.isEmpty {
            let taken = Set(mapping.entities.map(\.name))
            let (entities, sources) = JSONAPIDrafting(observation: reader.resources, sources: resourceSources, taken: taken).draft()
            mapping.entities += entities
            mapping.sources += sources
        }
        mapping.notes = notes + mapping.notes
        guard !mapping.entities.isEmpty else {
            // Dump files that hold no record (`[]`, `{}`, nothing) draft no entity: said as such.
            // Records that hold no key are data, not a failure to read: said as such, status 1.
            let inFiles = "in the \(Wording.count(files.count, "dump file")) under \(options.dumps)"
            let why =
                reader.records > 0
                ? "the \(Wording.count(reader.records, "record")) \(inFiles) hold no key"
                : reader.notRecords > 0
                    ? "the \(Wording.count(reader.notRecords, "value")) \(inFiles) are not objects, and infer drafts records from objects"
                    : "found no records \(inFiles)"
            diagnostics.error(.noRecord, why + ": nothing to draft a mapping from", at: SourceLocation(file: options.dumps))
            report.diagnostics = diagnostics.takeAll()
            report.outcome = reader.records == 0 && reader.notRecords == 0 ? .failed : .invalid
            return report
        }
        let header = [
            "Drafted by seeder infer from \(Wording.count(files.count, "dump file")) in \(options.dumps), "
                + "\(Wording.count(reader.records, "record")).",
            "Every type, identity and relationship below is a guess from those dumps: the comments give the evidence.",
        ]
        let text = MappingDraftWriter().text(of: mapping, header: header)
        let check = DiagnosticSink()
        if MappingLoader().load(yaml: text, file: "<draft>", diagnostics: check) == nil {
            // A draft that does not load is seeder's failure, not the dumps'.
            diagnostics.error(.internal, "the draft mapping does not load; this is a bug of seeder infer:")
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

    /// The keys of the one record a dump file holds (a root object with an `id`, or holding no
    /// array of records), read with the layout's bounded scan; `nil` for anything else or a
    /// file that cannot be read (reading it again reports why).
    private static func recordKeys(of path: String, root: String, planner: InputPlanner) -> Set<String>? {
        var unreadable = false
        guard
            let file = planner.inputFile(path, root: root, entity: 0, keyPath: [], diagnostics: DiagnosticSink(), unreadable: &unreadable),
            file.format == .json, (try? JSONReader.firstByte(of: file.openBytes())) == UInt8(ascii: "{"),
            let layout = try? RecordLayout(reading: JSONReader(source: file.openBytes())),
            layout.isOneRecord, layout.rootKeys.count <= RecordLayout.maxKeys
        else { return nil }
        return Set(layout.rootKeys)
    }

    /// A root object with no records but empty arrays (`{"meta": {...}, "data": {"items": []}}`)
    /// is a last page with none when the group's other files hold their records at one of those
    /// arrays; else it is one record, observed now.
    private static func resolveEmptyPages(
        _ readings: inout [DumpObservation.FileRecords], files: [InputFile], group: FileGroup, reader: inout DumpObservation
    ) {
        let places = Set(
            readings.compactMap { reading -> [String]? in
                guard reading.emptyArrays == nil, let layout = reading.layout, layout.count == 1, !layout[0].keyed, layout[0].records > 0
                else { return nil }
                return layout[0].keyPath
            })
        for index in readings.indices {
            guard let empty = readings[index].emptyArrays else { continue }
            readings[index].emptyArrays = nil
            if places.count == 1, let place = places.first, empty.contains(place) {
                readings[index].layout = [RecordLayout.Collection(keyPath: place, keyed: false, records: 0)]
            } else {
                // Read once already: no error is left to meet.
                readings[index].layout = (try? reader.readRoot(files[index], named: group.name)) ?? []
            }
        }
    }

    /// The sources of one group of files: one per place holding records, with the group's glob
    /// when every file holds them in the same places, else one per file. A file that holds no
    /// JSON value is in none (nothing could read it), and so its group is listed file by file.
    private static func sources(
        of group: FileGroup, readings: [DumpObservation.FileRecords], reader: DumpObservation, notes: inout [String]
    ) -> [MappingInference.ObservedSource] {
        func places(_ reading: DumpObservation.FileRecords) -> [[String]: Bool]? {
            reading.layout.map { Dictionary($0.map { ($0.keyPath, $0.keyed) }, uniquingKeysWith: { first, _ in first }) }
        }
        let files = zip(group.paths, readings).filter { !$0.1.empty && $0.1.resources == nil }
        for (path, reading) in zip(group.paths, readings) where reading.empty {
            notes.append("\(path) holds no JSON value: it is left out")
        }
        for (path, reading) in zip(group.paths, readings) where !reading.leftOut.isEmpty {
            let places = reading.leftOut.map { place in
                let objects = Wording.count(place.records, "object")
                return "\(place.keyPath.joined(separator: ".")) (\(place.keyed ? "an object of " + objects : objects))"
            }
            notes.append("\(path) also holds objects not read: \(places.joined(separator: ", ")); a source each, if they are records")
        }
        guard let first = files.first?.1 else { return [] }
        let uniform = files.count == group.paths.count && files.allSatisfy { places($0.1) == places(first) }
        return sources(
            of: uniform ? [(group.pattern, files.map(\.1))] : files.map { ($0.0, [$0.1]) }, group: group, reader: reader, notes: &notes)
    }

    /// The sources of the JSON:API documents of one group of files: one per place of resource
    /// objects (`data`, `included`), with the group's glob when every file is a document with
    /// that place, else one per file that has it (a last page often includes nothing).
    private static func resourceSources(
        of group: FileGroup, readings: [DumpObservation.FileRecords], notes: inout [String]
    ) -> [JSONAPIDrafting.ObservedSource] {
        let documents = zip(group.paths, readings).compactMap { path, reading in reading.resources.map { (path, $0) } }
        var result: [JSONAPIDrafting.ObservedSource] = []
        for place in JSONAPIDocument.places {
            let holding = documents.compactMap { path, places in places.first { $0.place == place }.map { (path, $0) } }
            guard !holding.isEmpty else { continue }
            let units = holding.count == group.paths.count ? [(group.pattern, holding.map(\.1))] : holding.map { ($0.0, [$0.1]) }
            for (path, found) in units {
                var types: [String] = []
                for type in found.flatMap(\.types) where !types.contains(type) { types.append(type) }
                guard !types.isEmpty else {
                    if place == "data" { notes.append("\(path): its 'data' holds no resource object: no source reads it") }
                    continue
                }
                result.append(
                    .init(path: path, place: place, types: types, files: found.count, records: found.reduce(0) { $0 + $1.records }))
            }
        }
        return result
    }

    private static func sources(
        of units: [(String, [DumpObservation.FileRecords])], group: FileGroup, reader: DumpObservation, notes: inout [String]
    ) -> [MappingInference.ObservedSource] {
        var result: [MappingInference.ObservedSource] = []
        for (path, readings) in units {
            guard let layout = readings[0].layout else {
                result.append(
                    .init(
                        path: path, observer: group.name, keyPath: reader.keyPath ?? [], keyed: false, files: readings.count,
                        records: readings.reduce(0) { $0 + $1.records }))
                continue
            }
            if layout.isEmpty { notes.append("\(path) holds no records: it is left out") }
            for collection in layout {
                let records = readings.reduce(0) { total, reading in
                    total + (reading.layout?.first { $0.keyPath == collection.keyPath }?.records ?? 0)
                }
                result.append(
                    .init(
                        path: path, observer: DumpObservation.observerName(for: collection, group: group.name), keyPath: collection.keyPath,
                        keyed: collection.keyed, files: readings.count, records: records))
            }
        }
        return result
    }
}

extension Mapping {
    /// A mapping with no entities, for listing dump files without one.
    package static var empty: Mapping {
        MappingLoader().load(
            yaml: "seeder: 1\nentities:\n  Dump: { identity: none, attributes: { value: json } }\n", file: "<none>",
            diagnostics: DiagnosticSink())!
    }
}
