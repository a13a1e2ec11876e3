/// What `@file.N` reads in the file being mapped (docs/mapping.md, Key paths): the text each `*`
/// of its source's path matched, each a JSON string of a document of its own, made once per file.
struct FileStars {
    /// The source's path; `nil` for a file read without a glob.
    var path: String?
    /// The texts, in order, as a JSON array's elements.
    var texts: [JSONValue] = []

    init() {}

    init(path: String?, stars: [String]) {
        self.path = path
        let array = "[" + stars.map(JSONWriter.stringLiteral).joined(separator: ",") + "]"
        // A string literal of any text parses: the array always does.
        self.texts = (try? JSONDocument(parsing: array)).map { Array($0.root.elements) } ?? []
    }

    /// The text of the `star`-th `*` (from 1). A file whose source has fewer (a record embedded
    /// in the records of another source's file) is an error at the record.
    func text(_ star: Int) throws(KeyPathFailure) -> MappedValue {
        guard star <= texts.count else {
            guard let path else { throw KeyPathFailure(message: "this file was read without a source path, which has no '*'") }
            let count = texts.isEmpty ? "no" : "\(texts.count)"
            throw KeyPathFailure(message: "this file's source path '\(path)' has \(count) '*'")
        }
        return .fileText(texts[star - 1])
    }
}
