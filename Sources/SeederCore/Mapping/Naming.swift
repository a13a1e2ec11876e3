/// The naming rules of docs/mapping.md (Names and keys): database names, JSON key lookup, English
/// singulars for the id conventions.
public enum Naming {
    /// `snake_case` of a model name: `ArticleComment` -> `article_comment`, `bodyText` ->
    /// `body_text`, `URLString` -> `url_string`, `userID` -> `user_id`, `sha256Sum` -> `sha256_sum`.
    public static func snakeCase(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    if !result.hasSuffix("_") { result.append("_") }
                }
            }
            result += character.lowercased()
        }
        return result
    }

    /// The form JSON keys are compared in when a mapping gives no `from`: lowercased, with
    /// underscores removed (`body_text`, `bodyText` and `BodyText` are all `bodytext`).
    public static func lookupKey(_ name: String) -> String {
        var result = ""
        result.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars where scalar != "_" {
            result.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
        return result
    }

    /// `true` for a letter or `_`, then letters, digits or `_` (ASCII).
    public static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    /// The English singular of a plural word, as Rails' inflector makes it: `products` ->
    /// `product`, `children` -> `child`, `people` -> `person`, `categories` -> `category`,
    /// `addresses` -> `address`, `statuses` -> `status`, `series` -> `series`, `genera` -> `genus`. For a
    /// camelCase or snake_case name only the last word changes (`relatedPeople` -> `relatedPerson`).
    public static func singular(_ word: String) -> String {
        let (head, last) = splitLastWord(word)
        let lower = last.lowercased()
        if uncountable.contains(lower) { return word }
        if let singular = irregularSingulars[lower] {
            return head + matchCase(of: last, singular)
        }
        for (suffix, replacement) in singularRules {
            if let stem = stem(of: lower, suffix: suffix) {
                let result = stem + replacement
                return head + matchCase(of: last, result)
            }
        }
        return word
    }

    /// Splits `relatedPeople` into (`related`, `People`), `related_people` into (`related_`,
    /// `people`) and `pokemon-species` into (`pokemon-`, `species`).
    private static func splitLastWord(_ word: String) -> (String, String) {
        let characters = Array(word)
        var index = characters.count - 1
        while index > 0 {
            let character = characters[index]
            if character == "_" || character == "-" { index += 1; break }
            if character.isUppercase, characters[index - 1].isLowercase || characters[index - 1].isNumber { break }
            index -= 1
        }
        index = max(0, min(index, characters.count))
        return (String(characters[..<index]), String(characters[index...]))
    }

    private static func matchCase(of original: String, _ replacement: String) -> String {
        guard let first = original.first else { return replacement }
        if original.count > 1, original == original.uppercased() { return replacement.uppercased() }
        if first.isUppercase { return replacement.prefix(1).uppercased() + replacement.dropFirst() }
        return replacement
    }

    /// The part of `word` before `suffix`, when the rule matches: a whole-word rule needs the
    /// stem to be one of its stems; another needs the stem to end with one of them (if any)
    /// and not to end with an excluded letter.
    private static func stem(of word: String, suffix: Suffix) -> String? {
        guard word.hasSuffix(suffix.text) else { return nil }
        let stem = String(word.dropLast(suffix.text.count))
        if suffix.wholeWord { return suffix.stems.contains(stem) ? stem : nil }
        guard let last = stem.last else { return nil }
        if !suffix.stems.isEmpty, !suffix.stems.contains(where: { stem.hasSuffix($0) }) { return nil }
        if let excluded = suffix.excludedBefore, excluded.contains(last) { return nil }
        return stem
    }

    private struct Suffix {
        var text: String
        var stems: [String] = []
        var wholeWord = false
        var excludedBefore: Set<Character>?
    }

    /// Rails' singular rules, most specific first (rules are tried in this order).
    private static let singularRules: [(Suffix, String)] = [
        (Suffix(text: "s", stems: ["database"]), ""),
        (Suffix(text: "zzes", stems: ["qui"]), "z"),
        (Suffix(text: "ices", stems: ["matr"]), "ix"),
        (Suffix(text: "ices", stems: ["vert", "ind"]), "ex"),
        (Suffix(text: "en", stems: ["ox"], wholeWord: true), ""),
        (Suffix(text: "es", stems: ["alias", "status"]), ""),
        (Suffix(text: "i", stems: ["octop", "vir"]), "us"),
        (Suffix(text: "uses", stems: ["octop", "vir"]), "us"),
        (Suffix(text: "es", stems: ["ax"], wholeWord: true), "is"),
        (Suffix(text: "es", stems: ["cris", "test"]), "is"),
        (Suffix(text: "s", stems: ["shoe"]), ""),
        (Suffix(text: "es", stems: ["o"]), ""),
        (Suffix(text: "es", stems: ["bus"]), ""),
        (Suffix(text: "ice", stems: ["m", "l"], wholeWord: true), "ouse"),
        (Suffix(text: "es", stems: ["x", "ch", "ss", "sh"]), ""),
        (Suffix(text: "ovies", stems: ["m"]), "ovie"),
        (Suffix(text: "eries", stems: ["s"]), "eries"),
        (Suffix(text: "ies", stems: ["qu"]), "y"),
        (Suffix(text: "ies", excludedBefore: ["a", "e", "i", "o", "u", "y"]), "y"),
        (Suffix(text: "ves", stems: ["l", "r"]), "f"),
        (Suffix(text: "s", stems: ["tive"]), ""),
        (Suffix(text: "s", stems: ["hive"]), ""),
        (Suffix(text: "ves", excludedBefore: ["f"]), "fe"),
        (Suffix(text: "ses", stems: ["analy", "ba", "diagno", "parenthe", "progno", "synop", "the"]), "sis"),
        (Suffix(text: "a", stems: ["t", "i"]), "um"),
        (Suffix(text: "ews", stems: ["n"]), "ews"),
        (Suffix(text: "ss"), "ss"),
        (Suffix(text: "us"), "us"),
        (Suffix(text: "is"), "is"),
        (Suffix(text: "s"), ""),
    ]

    private static let irregularSingulars: [String: String] = [
        "people": "person", "men": "man", "women": "woman", "children": "child", "sexes": "sex",
        "moves": "move", "zombies": "zombie", "geese": "goose", "feet": "foot", "teeth": "tooth",
        "mice": "mouse", "data": "datum", "criteria": "criterion", "indices": "index", "menus": "menu",
        // Latin plurals in -era, which no suffix rule can tell from a singular (`era`, `camera`).
        "genera": "genus", "corpora": "corpus",
    ]

    private static let uncountable: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans",
        "police", "news", "metadata", "media",
    ]
}

/// The candidate nearest to `word` by edit distance, when it is near enough to be a typo.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    var best: (String, Int)?
    for candidate in candidates {
        let distance = editDistance(word.lowercased(), candidate.lowercased())
        if distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
    }
    guard let (candidate, distance) = best else { return nil }
    let allowed = max(2, min(3, candidate.count / 3))
    return distance <= allowed ? candidate : nil
}

/// Levenshtein distance between two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
