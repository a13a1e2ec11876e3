/// A search table's tokenizer (`tokenizer:` of `search:`, docs/mapping.md, Search): written as
/// FTS5 writes it, a name and then `option value` pairs (`unicode61 remove_diacritics 2`), for
/// either engine; seeder writes it in the engine's own syntax (`tokenize=`).
public struct SearchTokenizer: Sendable, Hashable {
    /// An option and its value.
    public struct Option: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    /// `unicode61`, `ascii`, `porter`, `trigram` or `simple`.
    public var name: String
    public var options: [Option]
    /// What FTS5's `porter` stems the tokens of (`porter unicode61 remove_diacritics 2`).
    public var inner: [SearchTokenizer]
    /// As the mapping writes it.
    public var text: String

    /// A feature of a tokenizer and the first SQLite release that has it (SQLite's release
    /// history: docs/mapping.md, Compatibility).
    public struct Requirement: Sendable, Hashable {
        public var feature: String
        public var version: SQLiteVersion
    }

    /// The tokenizers of each engine, and the options each takes.
    static func options(of name: String, engine: SearchEngine) -> [String]? {
        switch (engine, name) {
        case (.fts5, "unicode61"): return ["remove_diacritics", "tokenchars", "separators"]
        case (.fts5, "ascii"): return ["tokenchars", "separators"]
        case (.fts5, "trigram"): return ["case_sensitive", "remove_diacritics"]
        case (.fts5, "porter"): return []
        case (.fts4, "unicode61"): return ["remove_diacritics", "tokenchars", "separators"]
        case (.fts4, "simple"), (.fts4, "porter"): return []
        default: return nil
        }
    }

    /// The tokenizer names an engine accepts.
    public static func names(for engine: SearchEngine) -> [String] {
        switch engine {
        case .fts5: return ["unicode61", "ascii", "porter", "trigram"]
        case .fts4: return ["simple", "porter", "unicode61"]
        }
    }

    /// Reads `text` for `engine`; the message says what is wrong.
    public static func parse(_ text: String, engine: SearchEngine) -> Result<SearchTokenizer, SearchTokenizerError> {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty else { return .failure(SearchTokenizerError("'tokenizer' names no tokenizer")) }
        return parse(words, text: text, engine: engine)
    }

    private static func parse(_ words: [String], text: String, engine: SearchEngine) -> Result<SearchTokenizer, SearchTokenizerError> {
        let name = words[0]
        guard let allowed = options(of: name, engine: engine) else {
            let names = names(for: engine)
            let suggestion = Wording.didYouMean(name, among: names)
            return .failure(
                SearchTokenizerError("unknown tokenizer '\(name)' for \(engine.rawValue)\(suggestion); expected \(Wording.list(names))"))
        }
        var tokenizer = SearchTokenizer(name: name, options: [], inner: [], text: text)
        var rest = Array(words.dropFirst())
        if engine == .fts5, name == "porter" {
            // FTS5's porter wraps another tokenizer, unicode61 by default.
            if !rest.isEmpty {
                switch parse(rest, text: text, engine: engine) {
                case let .success(inner) where inner.name != "porter": tokenizer.inner = [inner]
                case .success: return .failure(SearchTokenizerError("'porter' cannot stem the tokens of another 'porter'"))
                case let .failure(error): return .failure(error)
                }
            }
            rest = []
        }
        while let option = rest.first {
            if let equals = option.firstIndex(of: "=") {
                let spelled = "\(option[..<equals]) \(option[option.index(after: equals)...])"
                return .failure(SearchTokenizerError("write tokenizer options as 'name value' ('\(spelled)'), not '\(option)'"))
            }
            guard allowed.contains(option) else {
                let suggestion = Wording.didYouMean(option, among: allowed)
                let expected = allowed.isEmpty ? "it takes no options" : "expected \(Wording.list(allowed))"
                return .failure(SearchTokenizerError("unknown option '\(option)' for tokenizer '\(name)'\(suggestion); \(expected)"))
            }
            guard rest.count > 1 else { return .failure(SearchTokenizerError("option '\(option)' of tokenizer '\(name)' needs a value")) }
            let value = rest[1]
            if let problem = problem(with: value, of: option, name: name) { return .failure(SearchTokenizerError(problem)) }
            if tokenizer.options.contains(where: { $0.name == option }) {
                return .failure(SearchTokenizerError("option '\(option)' of tokenizer '\(name)' is given twice"))
            }
            tokenizer.options.append(Option(name: option, value: value))
            rest.removeFirst(2)
        }
        if name == "trigram", tokenizer.value(of: "remove_diacritics") == "1", tokenizer.value(of: "case_sensitive") == "1" {
            return .failure(SearchTokenizerError("tokenizer 'trigram' cannot remove diacritics when it is case-sensitive"))
        }
        return .success(tokenizer)
    }

    /// What is wrong with `value` for `option`, if anything.
    private static func problem(with value: String, of option: String, name: String) -> String? {
        let choices: [String]
        switch (option, name) {
        case ("remove_diacritics", "trigram"), ("case_sensitive", _): choices = ["0", "1"]
        case ("remove_diacritics", _): choices = ["0", "1", "2"]
        default:
            // Written inside quotes in the table's SQL: no quote can end them early.
            guard value.contains(where: { $0 == "'" || $0 == "\"" }) else { return nil }
            return "'\(option)' of tokenizer '\(name)' cannot hold a quote"
        }
        return choices.contains(value) ? nil : "'\(option)' of tokenizer '\(name)' must be \(Wording.list(choices)), found '\(value)'"
    }

    /// The value of an option, if given.
    public func value(of option: String) -> String? {
        options.first { $0.name == option }?.value
    }

    /// What this tokenizer needs of SQLite beyond the engine itself, in the order written.
    public func requirements(engine: SearchEngine) -> [Requirement] {
        var needs: [Requirement] = []
        switch (engine, name) {
        case (.fts5, "trigram"): needs.append(Requirement(feature: "the 'trigram' tokenizer", version: SQLiteVersion(3, 34, 0)))
        case (.fts4, "unicode61"): needs.append(Requirement(feature: "the 'unicode61' tokenizer of FTS4", version: SQLiteVersion(3, 7, 13)))
        default: break
        }
        if name == "trigram", value(of: "remove_diacritics") == "1" {
            needs.append(Requirement(feature: "'remove_diacritics' of the 'trigram' tokenizer", version: SQLiteVersion(3, 45, 0)))
        } else if value(of: "remove_diacritics") == "2" {
            needs.append(Requirement(feature: "'remove_diacritics 2'", version: SQLiteVersion(3, 27, 0)))
        }
        return needs + inner.flatMap { $0.requirements(engine: engine) }
    }

    /// The words FTS5 reads: option values that are not bare words are quoted.
    var fts5Words: String {
        ([name] + options.flatMap { [$0.name, Self.isBare($0.value) ? $0.value : "'\($0.value)'"] } + inner.map(\.fts5Words))
            .joined(separator: " ")
    }

    /// `tokenize = "..."` for FTS5, `tokenize=name "option=value"` for FTS4 (their docs' forms).
    public func argument(engine: SearchEngine) -> String {
        switch engine {
        case .fts5: return "tokenize = \"\(fts5Words)\""
        case .fts4: return (["tokenize=\(name)"] + options.map { "\"\($0.name)=\($0.value)\"" }).joined(separator: " ")
        }
    }

    private static func isBare(_ value: String) -> Bool {
        value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}

/// A tokenizer that cannot be read, and why.
public struct SearchTokenizerError: Error, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}
