/// Where the app's own schema comes from (`schema:`, docs/mapping.md, Fitting the app's own
/// schema): the seed's tables are then the app's, filled from the rows seeder builds.
public struct SchemaSource: Sendable, Hashable {
    /// The kinds of file `schema:` names.
    public enum Kind: String, Sendable {
        /// An empty SQLite database the app made (a GRDB migrator's, a Core Data store, ...).
        case template
        /// Room's exported schema JSON (`exportSchema = true`).
        case room
    }

    /// Which kind of file.
    public var kind: Kind
    /// The path as the mapping writes it, relative to the mapping file.
    public var path: String
    /// Where the mapping names it.
    public var location: SourceLocation

    /// The path from the working directory, for a mapping file at `mappingFile`.
    public func resolved(from mappingFile: String) -> String {
        guard !path.hasPrefix("/"), let slash = mappingFile.lastIndex(of: "/") else { return path }
        return String(mappingFile[...slash]) + path
    }
}
