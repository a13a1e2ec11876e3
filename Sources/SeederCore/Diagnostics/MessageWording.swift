/// How messages word counts, lists and suggestions, the same in every command.

/// `"1 error"`, `"2 errors"`: a count and its noun, plural unless the count is one; `plural:`
/// for a noun that does not take an s.
public func counting(_ number: Int, _ noun: String, plural: String? = nil) -> String {
    "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
}

/// Words as a sentence lists them: "a, b or c", or "a, b and c" with `conjunction: "and"`.
public func list(_ words: [String], conjunction: String = "or") -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
}

/// `" (did you mean 'NAME'?)"` for the candidate nearest `word`, or nothing: how a message about an
/// unknown name ends.
public func didYouMean(_ word: String, among candidates: [String]) -> String {
    closestMatch(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
}
