/// The per-record state messages need: who the record is and where. A struct passed `inout`,
/// not a class: no allocation per record.
struct RecordContext {
    let entity: String
    let origin: Record.Origin
    /// The record's JSON, for the pointer of a message that names no value of it.
    let record: JSONValue
    let diagnostics: DiagnosticSink
    var identity: IdentityKey?
    var droppedIdentity = false
    /// The attributes (by index) that messages were reported about: an identity attribute whose
    /// value had an error is not reported missing as well.
    private var reportedAttributes: Set<Int> = []

    init(entity: String, origin: Record.Origin, record: JSONValue, diagnostics: DiagnosticSink) {
        self.entity = entity
        self.origin = origin
        self.record = record
        self.diagnostics = diagnostics
    }

    /// `Task 7`, or `Task` before the identity is known.
    var label: String { identity.map { "\(entity) \($0)" } ?? entity }

    /// Reports `message` about the record, located at `value`, else at `offset`, else at the record.
    func error(_ code: DiagnosticCode, _ message: String, at value: JSONValue?, offset: Int? = nil) {
        let fileOffset = value?.fileOffset ?? offset ?? origin.offset
        let pointer = (value ?? record).pointer.description
        diagnostics.error(code, "\(label): \(message)", at: SourceLocation(file: origin.file, offset: fileOffset), jsonPath: pointer)
    }

    func error(_ code: DiagnosticCode, _ message: String, at value: JSONValue) {
        error(code, message, at: Optional(value))
    }

    /// Reports `message` about the value of attribute `attribute` (its index).
    mutating func error(_ code: DiagnosticCode, _ message: String, attribute: Int, at value: JSONValue?, offset: Int) {
        reportedAttributes.insert(attribute)
        error(code, message, at: value, offset: offset)
    }

    /// `true` when a message was reported about attribute `attribute` (its index).
    func reported(attribute: Int) -> Bool { reportedAttributes.contains(attribute) }
}
