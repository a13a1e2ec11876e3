/// How messages word counts, lists and suggestions, the same in every command: one place, so
/// that no message words a count or a suggestion its own way.
public enum Wording {
    /// `count(1, "record")` -> `1 record`, `count(12000, "record")` -> `12,000 records`: a count
    /// with its thousands grouped and its noun, plural unless the count is one; `plural:` for a
    /// noun that does not take an s.
    public static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(grouped(number)) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    /// Words as a sentence lists them: "a, b or c", or "a, b and c" with `conjunction: "and"`.
    public static func list(_ words: [String], conjunction: String = "or") -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
    }

    /// `" (did you mean 'NAME'?)"` for the candidate nearest `word`, or nothing: how a message about
    /// an unknown name ends.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        didYouMean(closestMatch(to: word, in: candidates))
    }

    /// The same ending for a suggestion found another way (nothing when there is none).
    public static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " (\(question(suggesting: $0)))" } ?? ""
    }

    /// `"did you mean 'NAME'?"` alone, for a message that puts the question inside a clause of
    /// its own.
    public static func question(suggesting name: String) -> String {
        "did you mean '\(name)'?"
    }

    /// `12000` -> `12,000`.
    public static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }
}
