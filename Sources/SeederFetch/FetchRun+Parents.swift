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
        // Each folder and the record that named it first.
        var folders: [String: ParentRecord] = [:]
        // With `url: "{K}"`, each file name's URL and the record that gave it first.
        var detailURLs: [String: ParentRecord] = [:]
        let base = mapping.fetch.base.map { variables.expand($0) }
        for file in files {
            guard let bytes = DumpEncoder.decode(file: file.absolute, as: Source.compression(ofFile: file.relative)),
                let document = try? JSONDocument(parsing: bytes)
            else {
                throw FetchFailure(.io, "cannot read the parent source's file \(file.relative) as JSON", at: location, outcome: .failed)
            }
            var value = document.root
            for key in parent.keyPath { value = value[key] ?? value }
            let items: [JSONValue] =
                value.kind == .array ? Array(value.elements) : parent.keyedBy != nil ? value.members.map(\.value) : [value]
            let shown = StagingArea.shown(file.relative, in: dumpsShown)
            let positions = (try? LineLocator.locate(items.map(\.fileOffset), in: MemoryByteSource(bytes))) ?? [:]
            for item in items {
                var place = SourceLocation(file: shown)
                if case let .lineColumn(line, column)? = positions[item.fileOffset] {
                    place = SourceLocation(file: shown, line: line, column: column)
                }
                var values: [String: String] = [:]
                for field in fields {
                    var reached: JSONValue? = item
                    for key in field.keys { reached = reached?.kind == .object ? reached?[key] : nil }
                    guard let text = reached?.scalarText, !text.isEmpty else {
                        throw FetchFailure.data(
                            .shape,
                            "a record of '\(parent.path)' has no value for '{\(field)}' ("
                                + (reached?.string?.isEmpty == true
                                    ? "an empty string" : reached.map { describeKind($0.kind) } ?? "missing")
                                + "), which 'each' needs",
                            at: place, jsonPath: item.pointer.description)
                    }
                    values[field.description] = text
                }
                var record = ParentRecord(fields: values, folderName: "", file: file.relative, pointer: item.pointer.description)
                record.place = place
                if let field = spec.url.soleParentField {
                    let detail = try detailURL(values[field.description]!, field: field, base: base, parent: parent.path, at: record)
                    record.detail = detail
                    record.folderName = detail.fileName
                    if let first = detailURLs[detail.fileName] {
                        guard first.detail == detail else {
                            throw FetchFailure.data(
                                .shape,
                                "two records of '\(parent.path)' give URLs whose file would be '\(detail.fileName)': "
                                    + "\(variables.redact(first.detail!.url)) (\(first.place!)) and \(variables.redact(detail.url)); "
                                    + "one file cannot hold both: give the files a '*' of another key ('url: \"{K}\"' names them by the "
                                    + "URL's last segment)",
                                at: place, jsonPath: record.pointer)
                        }
                        continue  // the same URL, fetched once
                    }
                    detailURLs[detail.fileName] = record
                } else {
                    record.folderName = folderField.map { Self.folderName(values[$0.description]!) } ?? ""
                    if let first = folders[record.folderName] {
                        // The same values again (a record on two pages) are fetched once; other
                        // values in one folder would be one fetch's files overwritten by another's.
                        guard first.fields == values else {
                            let differing = fields.map(\.description).filter { first.fields[$0] != values[$0] }
                            throw FetchFailure.data(
                                .shape,
                                "two records of '\(parent.path)' give the folder '\(record.folderName)' (\(first.place!)) but differ in "
                                    + differing.map { "'{\($0)}'" }.joined(separator: ", ")
                                    + "; one folder cannot hold both fetches: make the URL's first '{K}' a key that tells the records apart",
                                at: place, jsonPath: record.pointer)
                        }
                        continue
                    }
                }
                guard folders.updateValue(record, forKey: record.folderName) == nil else { continue }
                records.append(record)
            }
        }
        return records
    }

    /// The URL a parent's `{K}` gives with `url: "{K}"`, or a failure at the record.
    private func detailURL(_ value: String, field: KeyPath, base: String?, parent: String, at record: ParentRecord)
        throws(FetchFailure) -> DetailURL
    {
        do {
            return try DetailURL(value, base: base)
        } catch {
            let shown = variables.redact(value)
            let why: String
            switch error {
            case .controlCharacter:
                why = "'\(shown)', a URL with a space or a control character, which fetch never sends"
            case .relativeWithoutBase:
                why = "'\(shown)', a relative URL, and the mapping's 'fetch:' has no 'base' to resolve it against"
            case let .scheme(scheme):
                why = "'\(shown)', \(scheme.isEmpty ? "a URL with no scheme" : "a '\(scheme):' URL"); fetch requests only http and https"
            case .noHost:
                why = "'\(shown)', which names no host fetch can request"
            case .userInfo:
                why = "'\(shown)', a URL with a user name or password, which fetch never sends from data"
            case .noSegment:
                why = "'\(shown)', whose path has no segment to name its file"
            }
            throw FetchFailure.data(
                .shape, "a record of '\(parent)' gives '{\(field)}' \(why)", at: record.place, jsonPath: record.pointer)
        }
    }

    static func templates(_ spec: FetchSpec) -> [FetchTemplate] {
        Fetcher.templates(of: [spec], defaults: FetchDefaults())
    }

    /// A value as a folder's name: `/`, `%`, a leading dot, and every character seeder escapes
    /// when it prints (control characters, C1 among them, the line separators and the
    /// bidirectional overrides: docs/commands.md, Printed text) percent-encoded, so that a name
    /// cannot move a terminal's cursor when `ls` or `git status` prints it.
    static func folderName(_ value: String) -> String {
        var result = ""
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            if scalar == "/" || scalar == "%" || scalar == "\\" || PrintedText.isEscaped(scalar) || (offset == 0 && scalar == ".") {
                for byte in String(scalar).utf8 { result += String(format: "%%%02X", byte) }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
