import Foundation
import SeederCore

/// Reads dump files into a `ShapeCatalog`, one record at a time (docs/commands.md,
/// `seeder infer`): an array's elements and JSON Lines' lines stream through `JSONReader`; a
/// file whose root is an object is read whole, and its records found by `RecordLayout`.
struct DumpObservation {
    let catalog: ShapeCatalog
    /// `--key-path`: the records' place in every file.
    let keyPath: [String]?
    let progress: (@Sendable (BuildProgress) -> Void)?
    var totalBytes = 0
    private(set) var bytesRead = 0
    /// Records read from sources (embedded ones not counted).
    private(set) var records = 0
    /// Whether a file could not be read (an I/O failure, exit 2).
    private(set) var unreadable = false

    init(catalog: ShapeCatalog, keyPath: [String]?, progress: (@Sendable (BuildProgress) -> Void)?) {
        self.catalog = catalog
        self.keyPath = keyPath
        self.progress = progress
    }

    /// The observer of a collection of a file of the group named `group`: an object keyed by
    /// its records under a key is named by the key (`users` -> `User`), else by the file.
    static func observerName(for collection: RecordLayout.Collection, group: String) -> String {
        guard collection.keyed, let key = collection.keyPath.last else { return group }
        let name = DraftNaming.entityName(fromWords: DraftNaming.words(of: key))
        return name == "Record" ? group : name
    }

    /// Reads `file`, its records going to the observer `name` (or, for a root object, to
    /// those its layout names). Returns the root object's layout; `nil` for a file of records
    /// (an array, JSON Lines, or `--key-path`).
    mutating func read(_ file: InputFile, named name: String, diagnostics: DiagnosticSink) -> [RecordLayout.Collection]? {
        let counter = CountingByteSource()
        var layout: [RecordLayout.Collection]?
        let observer = catalog.observer(named: name)
        do {
            let source = try file.openBytes { counter.wrapping($0) }
            let reader = JSONReader(source: source, format: file.format, keyPath: keyPath ?? [])
            var seen = 0
            try reader.forEachItem { item in
                switch item {
                case let .record(value):
                    if keyPath == nil, file.format == .json, value.document.path.components.isEmpty {
                        layout = observe(root: value, group: name)
                    } else {
                        observer.observe(value, fromSource: true)
                        seen += 1
                    }
                case let .lineSyntaxError(error):
                    diagnostics.error(error.message, at: SourceLocation(file: file.path, offset: error.offset))
                case let .notARecord(value):
                    diagnostics.warning(
                        "a \(Self.kindName(value.kind)) where a record (an object) was expected: infer reads objects only",
                        at: SourceLocation(file: file.path, offset: value.fileOffset))
                case .skippedNull, .keyPathNotFound, .keyedRecord:
                    break
                }
                if seen & 4095 == 0, let progress {
                    progress(
                        BuildProgress(
                            phase: .reading, bytesRead: bytesRead + counter.count, totalBytes: totalBytes, records: records + seen))
                }
            }
            records += seen
        } catch let error as JSONSyntaxError {
            diagnostics.error(error.message, at: SourceLocation(file: file.path, offset: error.offset))
        } catch let error as DecompressionError {
            diagnostics.error(error.message, at: SourceLocation(file: file.path))
        } catch let error as InputError {
            diagnostics.error("cannot read this dump file: \(error.reason)", at: SourceLocation(file: error.path))
            unreadable = true
        } catch {
            diagnostics.error("cannot read this dump file: \(error)", at: SourceLocation(file: file.path))
            unreadable = true
        }
        bytesRead += file.size
        progress?(BuildProgress(phase: .reading, bytesRead: bytesRead, totalBytes: totalBytes, records: records))
        return layout
    }

    /// Observes the records of a root object, where its layout finds them.
    private mutating func observe(root: JSONValue, group: String) -> [RecordLayout.Collection] {
        let layout = RecordLayout(of: root)
        if layout.collections.isEmpty {
            catalog.observer(named: group).observe(root, fromSource: true)
            records += 1
            return [RecordLayout.Collection(keyPath: [], keyed: false, records: 1)]
        }
        for collection in layout.collections {
            let observer = catalog.observer(named: Self.observerName(for: collection, group: group))
            var value = root
            for key in collection.keyPath { value = value[key]! }
            if collection.keyed {
                for member in value.members where member.value.kind == .object {
                    observer.observe(member.value, key: member.key, fromSource: true)
                    records += 1
                }
            } else {
                for element in value.elements where element.kind == .object {
                    observer.observe(element, fromSource: true)
                    records += 1
                }
            }
        }
        return layout.collections
    }

    static func kindName(_ kind: JSONKind) -> String {
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
final class CountingByteSource: ByteSource {
    private var source: ByteSource?
    private(set) var count = 0

    func wrapping(_ source: ByteSource) -> ByteSource {
        self.source = source
        return self
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let read = try source!.read(into: buffer)
        count += read
        return read
    }
}
