import Foundation
import SeederCore
import SeederFiles

/// Reads dump files into a `ShapeCatalog`, one record at a time (docs/commands.md,
/// `seeder infer`): an array's elements and JSON Lines' lines stream through `JSONReader`; a
/// file whose root is an object is read once for where its records are (`RecordLayout`, from
/// its outer levels) and once more for each place that holds them, streamed as well.
package struct DumpObservation {
    /// Where one file's records were, and how many.
    package struct FileRecords {
        /// The places in a root object; `nil` for a file of records (an array, JSON Lines, or
        /// `--key-path`).
        package var layout: [RecordLayout.Collection]?
        package var records = 0
        /// The file holds no JSON value at all: left out, as nothing could read it.
        package var empty = false
        /// Arrays of objects in a root object that were not read (`RecordLayout.leftOut`).
        package var leftOut: [RecordLayout.Collection] = []
        /// A root object with no records but empty arrays: a last page with none, or one record;
        /// its group's other pages tell (`MappingInferrer`), and it is not observed until then.
        package var emptyArrays: [[String]]?
        /// A JSON:API document: its places of resource objects (`JSONAPIObservation`).
        package var resources: [ResourcePlace]?
    }

    /// The resource objects at one place of a JSON:API document (`data`, `included`).
    package struct ResourcePlace: Equatable {
        package var place: String
        /// Their types, in first-seen order.
        package var types: [String] = []
        package var records = 0
    }

    /// What a file whose root is an object holds: records where its layout says, or resources.
    private enum ObjectReading {
        case layout(RecordLayout)
        case resources([ResourcePlace])
    }

    package let catalog: ShapeCatalog
    /// Where the resource objects of JSON:API documents go.
    package let resources = JSONAPIObservation()
    /// `--key-path`: the records' place in every file.
    package let keyPath: [String]?
    package let progress: (@Sendable (BuildProgress) -> Void)?
    package var totalBytes = 0
    private(set) var bytesRead = 0
    /// Records read from sources (embedded ones not counted).
    private(set) var records = 0
    /// Values read where records were expected that are no object (`[1, 2, 3]`).
    private(set) var notRecords = 0
    /// Whether a file could not be read (an I/O failure, exit 2).
    private(set) var unreadable = false
    /// The largest object-root file parsed whole (`wholeFileLimit`; tests stream smaller ones).
    package var wholeFileLimit = Self.wholeFileLimit

    package init(catalog: ShapeCatalog, keyPath: [String]?, progress: (@Sendable (BuildProgress) -> Void)?) {
        self.catalog = catalog
        self.keyPath = keyPath
        self.progress = progress
    }

    /// The observer of a collection of a file of the group named `group`: an object keyed by
    /// its records under a key, or one of several arrays side by side, is named by the key
    /// (`users` -> `User`), else by the file.
    package static func observerName(for collection: RecordLayout.Collection, group: String) -> String {
        guard collection.keyed || collection.namedByKey, let key = collection.keyPath.last else { return group }
        let name = DraftNaming.entityName(fromWords: DraftNaming.words(of: key))
        return name == "Record" ? group : name
    }

    /// Reads `file`, its records going to the observer `name` (or, for a root object, to
    /// those its layout names).
    package mutating func read(_ file: InputFile, named name: String, diagnostics: DiagnosticSink) -> FileRecords {
        let counter = CountingByteSource()
        var result = FileRecords()
        do {
            if keyPath == nil, file.format == .json {
                switch try JSONReader.firstByte(of: file.openBytes()) {
                case nil:
                    diagnostics.warning(
                        .unreadFile, "this dump holds no JSON value (build would stop at it); it is left out",
                        at: SourceLocation(file: file.path))
                    result.empty = true
                case UInt8(ascii: "{"):
                    let layout: RecordLayout
                    switch try readObject(file, named: name, counter: counter) {
                    case let .layout(found): layout = found
                    case let .resources(places):
                        result.resources = places
                        result.records = places.reduce(0) { $0 + $1.records }
                        bytesRead += file.size
                        report(records: records)
                        return result
                    }
                    if layout.isEmptyPage {
                        result.emptyArrays = layout.emptyArrays
                        result.layout = []
                    } else {
                        result.layout = layout.collections.isEmpty ? try readRoot(file, named: name) : layout.collections
                    }
                    result.leftOut = layout.leftOut
                default:
                    break
                }
            }
            if result.layout == nil, !result.empty {
                result.records = try readRecords(file, named: name, counter: counter, diagnostics: diagnostics)
            }
        } catch let error as JSONSyntaxError {
            diagnostics.error(.syntax, error.message, at: SourceLocation(file: file.path, offset: error.offset))
        } catch let error as DecompressionError {
            diagnostics.error(.compression, error.message, at: SourceLocation(file: file.path))
        } catch let error as InputError {
            diagnostics.error(.io, "cannot read this dump file: \(error.reason)", at: SourceLocation(file: error.path))
            unreadable = true
        } catch {
            diagnostics.error(.io, "cannot read this dump file: \(error)", at: SourceLocation(file: file.path))
            unreadable = true
        }
        bytesRead += file.size
        report(records: records)
        return result
    }

    private func report(records: Int, counter: CountingByteSource? = nil) {
        progress?(
            BuildProgress(
                phase: .reading, bytesRead: min(bytesRead + (counter?.count ?? 0), totalBytes), totalBytes: totalBytes, records: records))
    }

    /// Streams a file of records (an array, JSON Lines, or the records at `--key-path`).
    private mutating func readRecords(
        _ file: InputFile, named name: String, counter: CountingByteSource, diagnostics: DiagnosticSink
    ) throws -> Int {
        let observer = catalog.observer(named: name)
        let reader = JSONReader(source: try file.openBytes { counter.wrapping($0) }, format: file.format, keyPath: keyPath ?? [])
        var seen = 0
        try reader.forEachItem { item in
            switch item {
            case let .record(value):
                observer.observe(value, fromSource: true)
                seen += 1
            case let .lineSyntaxError(error):
                diagnostics.error(.syntax, error.message, at: SourceLocation(file: file.path, offset: error.offset))
            case let .notARecord(value):
                notRecords += 1
                diagnostics.warning(
                    .shape, "a \(Self.kindName(value.kind)) where a record (an object) was expected: infer reads objects only",
                    at: SourceLocation(file: file.path, offset: value.fileOffset))
            case .skippedNull, .keyPathNotFound, .keyedRecord:
                break
            }
            if seen & 4095 == 0 { report(records: records + seen, counter: counter) }
        }
        records += seen
        return seen
    }

    /// The JSON text of an object-root file this small or smaller is parsed whole, once: cheaper
    /// than reading it twice, and its memory bounded (bench/README.md, infer).
    package static let wholeFileLimit = 8 << 20

    /// Reads a file whose root is an object: its layout first, then the records of each place
    /// (none when no place holds records: the caller decides what the object is).
    private mutating func readObject(_ file: InputFile, named group: String, counter: CountingByteSource) throws -> ObjectReading {
        // A text file's size is known; a compressed one's only once read.
        if file.compression != .none || file.size <= wholeFileLimit,
            let text = try Self.text(of: file.openBytes { counter.wrapping($0) }, limit: wholeFileLimit)
        {
            return try readWhole(text, named: group)
        }
        var layout = try RecordLayout(reading: JSONReader(source: try file.openBytes { counter.wrapping($0) }))
        if JSONAPIDocument.mayBe(rootKeys: layout.rootKeys), try holdsResourcesOnly(file, places: layout.rootKeys) {
            return .resources(try streamResources(file, places: layout.rootKeys))
        }
        for index in layout.collections.indices {
            let collection = layout.collections[index]
            let observer = catalog.observer(named: Self.observerName(for: collection, group: group))
            let reader = JSONReader(source: try file.openBytes(), keyPath: collection.keyPath, keyed: collection.keyed)
            var seen = 0
            try reader.forEachItem { item in
                switch item {
                case let .record(value):
                    observer.observe(value, fromSource: true)
                case let .keyedRecord(key, value) where value.kind == .object:
                    observer.observe(value, key: key, fromSource: true)
                default:
                    return
                }
                seen += 1
                if seen & 4095 == 0 { report(records: records + seen, counter: counter) }
            }
            records += seen
            layout.collections[index].records = seen
        }
        return .layout(layout)
    }

    /// Observes the records of an object-root file held in memory, where its layout finds them.
    private mutating func readWhole(_ text: [UInt8], named group: String) throws -> ObjectReading {
        var parsed: JSONValue?
        try JSONReader(source: MemoryByteSource(text)).forEachItem { item in
            if case let .record(value) = item { parsed = value }
        }
        let root = parsed!
        if JSONAPIDocument.isDocument(root) {
            var places: [ResourcePlace] = []
            for place in JSONAPIDocument.places {
                guard let value = root[place] else { continue }
                var found = ResourcePlace(place: place)
                for resource in value.kind == .array ? Array(value.elements) : value.kind == .object ? [value] : [] {
                    observe(resource, into: &found)
                }
                places.append(found)
            }
            return .resources(places)
        }
        var layout = RecordLayout(of: root)
        for index in layout.collections.indices {
            let collection = layout.collections[index]
            let observer = catalog.observer(named: Self.observerName(for: collection, group: group))
            var value = root
            for key in collection.keyPath { value = value[key]! }
            var seen = 0
            if collection.keyed {
                for member in value.members where member.value.kind == .object {
                    observer.observe(member.value, key: member.key, fromSource: true)
                    seen += 1
                }
            } else {
                for element in value.elements where element.kind == .object {
                    observer.observe(element, fromSource: true)
                    seen += 1
                }
            }
            records += seen
            layout.collections[index].records = seen
        }
        return .layout(layout)
    }

    /// Counts one resource object of a JSON:API document.
    private mutating func observe(_ resource: JSONValue, into place: inout ResourcePlace) {
        resources.observe(resource)
        if let type = resource["type"]?.string, !place.types.contains(type) { place.types.append(type) }
        place.records += 1
        records += 1
    }

    /// Whether a file too large to hold, whose root has only JSON:API's members, holds resource
    /// objects (and `null`) only where JSON:API puts them: read once through, before any is
    /// observed.
    private func holdsResourcesOnly(_ file: InputFile, places keys: [String]) throws -> Bool {
        for place in JSONAPIDocument.places where keys.contains(place) {
            var holds = true
            try JSONReader(source: try file.openBytes(), keyPath: [place]).forEachItem { item in
                switch item {
                case let .record(value): if !JSONAPIDocument.isResource(value) { holds = false }
                case .skippedNull: if place != "data" { holds = false }
                default: holds = false
                }
            }
            guard holds else { return false }
        }
        return true
    }

    /// Observes the resource objects of a file too large to hold, streamed.
    private mutating func streamResources(_ file: InputFile, places keys: [String]) throws -> [ResourcePlace] {
        var places: [ResourcePlace] = []
        for place in JSONAPIDocument.places where keys.contains(place) {
            var found = ResourcePlace(place: place)
            try JSONReader(source: try file.openBytes(), keyPath: [place]).forEachItem { item in
                if case let .record(value) = item { observe(value, into: &found) }
            }
            places.append(found)
        }
        return places
    }

    /// Observes a root object as one record (a file of one record, or a page whose group has
    /// no records where it has empty arrays).
    package mutating func readRoot(_ file: InputFile, named name: String) throws -> [RecordLayout.Collection] {
        let observer = catalog.observer(named: name)
        var empty = false
        try JSONReader(source: try file.openBytes()).forEachItem { item in
            guard case let .record(value) = item else { return }
            // `{}` as a whole file holds no record, as `[]` holds none (docs/commands.md).
            if value.count == 0 { empty = true } else { observer.observe(value, fromSource: true) }
        }
        if empty { return [] }
        records += 1
        return [RecordLayout.Collection(keyPath: [], keyed: false, records: 1)]
    }

    /// All of `source`'s bytes when there are at most `limit`, else `nil`.
    package static func text(of source: ByteSource, limit: Int) throws -> [UInt8]? {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let read = try block.withUnsafeMutableBytes { try source.read(into: $0) }
            if read == 0 { return bytes }
            bytes += block[0..<read]
        }
        return nil
    }

    package static func kindName(_ kind: JSONKind) -> String {
        switch kind {
        case .null: return "null"
        case .true, .false: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// Counts the bytes a dump's stored file gives, for the progress line.
package final class CountingByteSource: ByteSource {
    private var source: ByteSource?
    private(set) var count = 0

    package func wrapping(_ source: ByteSource) -> ByteSource {
        self.source = source
        return self
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let read = try source!.read(into: buffer)
        count += read
        return read
    }
}
