import Foundation
import SeederCore

/// The records of an `each` source's parent, as the build reads them (docs/mapping.md, One fetch
/// per record of another source).
extension FetchRun {
    // MARK: Parents

    /// The parent source's records, as build reads them, with the values the child's `{K}`s take.
    func parentRecords(of parentIndex: Int, for spec: FetchSpec, location: SourceLocation, fetched: Bool) throws(FetchFailure)
        -> [ParentRecord]
    {
        let parent = mapping.sources![parentIndex]
        let fields = Self.templates(spec).flatMap(\.parentFields)
        let folderField = spec.url.parentFields.first ?? fields.first
        var files: [(relative: String, absolute: String)]
        if fetched {
            files = locked { entries.keys.filter { entries[$0]!.source == parent.path } }.sorted().map { relative in
                (relative, changed.contains(relative) ? staging.root + "/" + relative : staging.dumps + "/" + relative)
            }
        } else {
            files = Glob.files(matching: parent.path, in: staging.dumps).map { ($0, staging.dumps + "/" + $0) }
            guard !files.isEmpty else {
                throw FetchFailure.data(
                    .noFile,
                    "'each' reads the records of '\(parent.path)', which is not fetched in this run and has no file in \(dumpsShown): "
                        + "fetch it too, or check the dumps directory", at: location)
            }
        }
        var records: [ParentRecord] = []
        var folders: Set<String> = []
        for file in files {
            guard let bytes = DumpEncoder.decode(file: file.absolute, as: Source.compression(ofFile: file.relative)),
                let document = try? JSONDocument(parsing: bytes)
            else {
                throw FetchFailure(.io, "cannot read the parent source's file \(file.relative) as JSON", at: location, exitStatus: 2)
            }
            var value = document.root
            for key in parent.keyPath { value = value[key] ?? value }
            let items: [JSONValue] =
                value.kind == .array ? Array(value.elements) : parent.keyedBy != nil ? value.members.map(\.value) : [value]
            for item in items {
                var values: [String: String] = [:]
                for field in fields {
                    var reached: JSONValue? = item
                    for key in field.keys { reached = reached?.kind == .object ? reached?[key] : nil }
                    guard let text = reached?.scalarText, !text.isEmpty else {
                        let offset = item.fileOffset
                        let shown = dumpsShown + "/" + file.relative
                        var place = SourceLocation(file: shown)
                        if let located = try? LineLocator.locate([offset], in: MemoryByteSource(bytes)),
                            case let .lineColumn(line, column)? = located[offset]
                        {
                            place = SourceLocation(file: shown, line: line, column: column)
                        }
                        throw FetchFailure.data(
                            .shape,
                            "a record of '\(parent.path)' has no value for '{\(field)}' (\(reached.map { describeKind($0.kind) } ?? "missing")), which 'each' needs",
                            at: place, jsonPath: item.pointer.description)
                    }
                    values[field.description] = text
                }
                let folder = folderField.map { Self.folderName(values[$0.description]!) } ?? ""
                guard folders.insert(folder).inserted else { continue }
                records.append(ParentRecord(fields: values, folderName: folder, file: file.relative, pointer: item.pointer.description))
            }
        }
        return records
    }

    static func templates(_ spec: FetchSpec) -> [FetchTemplate] {
        Fetcher.templates(of: [spec], defaults: FetchDefaults())
    }

    /// A value as a folder's name: `/`, `%`, control characters and a leading dot percent-encoded.
    static func folderName(_ value: String) -> String {
        var result = ""
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            if scalar == "/" || scalar == "%" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
                || (offset == 0 && scalar == ".")
            {
                for byte in String(scalar).utf8 { result += String(format: "%%%02X", byte) }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
