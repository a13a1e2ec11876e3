import SeederCore
import SeederFiles

/// How `seeder infer` names what it finds: entities in the singular UpperCamelCase
/// (`article_comments.json` -> `ArticleComment`), attributes in lowerCamelCase
/// (`created_at` -> `createdAt`, which reads `created_at` by name: docs/mapping.md, Names and keys).
public enum DraftNaming {
    /// The words of a key or file name: split at anything but ASCII letters and digits, and
    /// between a lowercase letter or digit and an uppercase one (`bodyText` -> `body`, `Text`).
    public static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            guard character.isASCII, character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previous = nil
                continue
            }
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The entity a URL's collection names: `pokemon-species` -> `PokemonSpecies`, `types` -> `Type`.
    static func entityName(ofCollection collection: String) -> String {
        entityName(fromWords: words(of: Naming.singular(collection)))
    }

    /// `["article", "comments"]` -> `ArticleComment`; a name that would start with a digit
    /// gets a leading `N`; no words make `Record`; a name whose table SQLite or seeder reserves
    /// (`seed_metadata.json`, a key `sqlite_stat1`) gets `Dump` before it.
    public static func entityName(fromWords words: [String]) -> String {
        guard !words.isEmpty else { return "Record" }
        var words = words
        // `data` and `meta` name no kind of record in the singular: no `Datum`, no `Metum`.
        if !["data", "meta"].contains(words[words.count - 1].lowercased()) {
            words[words.count - 1] = Naming.singular(words[words.count - 1])
        }
        var name = words.map(capitalized).joined()
        if name.first?.isNumber == true { name = "N" + name }
        let table = Naming.snakeCase(name)
        return table.hasPrefix("seed_") || table.hasPrefix("sqlite_") ? "Dump" + name : name
    }

    /// The attribute or relationship name of a JSON key: the key itself when it is an
    /// identifier without underscores inside (`resourceURI`, `id`), else its words in
    /// lowerCamelCase (`created_at` -> `createdAt`, `first name` -> `firstName`).
    static func memberName(fromKey key: String) -> String {
        if Naming.isIdentifier(key), !key.dropFirst().contains("_"), key.first?.isLowercase == true { return key }
        // A sign says what the key means (GitHub's reactions `+1`, `-1`): kept as a word.
        let sign = key.first == "+" ? ["plus"] : key.first == "-" ? ["minus"] : []
        let words = sign + words(of: key)
        guard let first = words.first else { return "value" }
        var name = first.lowercased() + words.dropFirst().map(capitalized).joined()
        if name.first?.isNumber == true { name = "n" + name }
        return name
    }

    /// A plural for a to-many's name, checked against `Naming.singular`: `product` -> `products`,
    /// `category` -> `categories`; the word itself when no simple rule gives it back.
    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        var candidates = [word + "s"]
        if lower.hasSuffix("y"), let last = lower.dropLast().last, !"aeiou".contains(last) {
            candidates.insert(String(word.dropLast()) + "ies", at: 0)
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: lower.hasSuffix) { candidates.insert(word + "es", at: 0) }
        return candidates.first { Naming.singular($0) == word } ?? word
    }

    static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    static func lowerFirst(_ word: String) -> String {
        word.prefix(1).lowercased() + word.dropFirst()
    }
}
