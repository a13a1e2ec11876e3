/// The kind of problem a diagnostic reports: a stable, kebab-case name that tools filter on
/// (docs/json.md, Diagnostic codes). One per kind of problem a user would filter or suppress,
/// not one per message; the printed text leaves it out, the JSON documents give it.
///
/// A code is never renamed or removed, since scripts and CI annotations match on it; a new
/// kind of problem may get a new one.
public enum DiagnosticCode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    // The mapping file.
    /// The mapping file is not YAML, not UTF-8 text, or repeats a key.
    case mappingSyntax = "mapping-syntax"
    /// A key the mapping format does not have.
    case mappingUnknownKey = "mapping-unknown-key"
    /// A name the mapping uses that names nothing: an entity, an attribute, a type, a value.
    case mappingUnknownName = "mapping-unknown-name"
    /// Anything else the mapping says that cannot be: a value of the wrong kind, a missing key,
    /// two names for one table or column, an option that does not apply.
    case mappingInvalid = "mapping-invalid"
    /// The app's own schema (`schema:`) does not fit the mapping, or is not a schema.
    case schema

    // Files.
    /// A path that cannot be read or written: the system's reason, or not a regular file.
    case io
    /// The output or the report may not be written: an input, not a seed, held by another build.
    case outputRefused = "output-refused"
    /// A source's path matches no dump file.
    case noFile = "no-file"
    /// A file in the dumps directory that seeder will not read as a dump.
    case inputRefused = "input-refused"
    /// A dump file that is left unread.
    case unreadFile = "unread-file"
    /// Two dump files that hold the same text, both read.
    case readTwice = "read-twice"

    // The dumps' text.
    /// A dump is not JSON (or a line of JSON Lines is not).
    case syntax
    /// A compressed dump's stored bytes are wrong.
    case compression

    // Records.
    /// A value is not of its attribute's type, or not one of its `values`.
    case type
    /// A required attribute is null or missing.
    case required
    /// A record's identity cannot be read.
    case identity
    /// The JSON is not shaped as the mapping says: an object, an array, a key path that
    /// reaches nothing.
    case shape
    /// A selector picks no entity for a record.
    case selector
    /// Occurrences of one record disagree.
    case conflict
    /// A reference to a record that no record provides.
    case dangling
    /// A `unique` attribute's value is held by two records.
    case unique

    // The checks of keys, once every input is read.
    /// A key of the records that nothing reads.
    case unmappedKey = "unmapped-key"
    /// A key the mapping reads (or ignores) that no record has.
    case noMatch = "no-match"
    /// An entity that got no record.
    case noRecord = "no-record"
    // Fetching (`seeder fetch`).
    /// A `${NAME}` the fetch reads is not set in the environment.
    case unsetVariable = "unset-variable"
    /// The web service could not be reached, refused a request, or answered with an error.
    case http
    /// A paginator that cannot go on: a next page seen twice, more pages than `maxPages`.
    case pagination
    /// A response holds the value of a secret, which fetch never writes into a dump.
    case secret

    /// A failure of seeder's own, never the input's: please report it.
    case `internal`

    public var description: String { rawValue }
}
