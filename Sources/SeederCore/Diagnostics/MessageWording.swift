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

/// `12000` -> `12,000`.
public func grouped(_ number: Int) -> String {
    let digits = Array(String(number.magnitude))
    var text = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
        text.append(digit)
    }
    return (number < 0 ? "-" : "") + text
}

/// `counted(1, "record")` -> `1 record`, `counted(12000, "record")` -> `12,000 records`: with the
/// thousands grouped, as a draft's comments and progress lines say them; `plural:` for a noun
/// that does not take an s.
public func counted(_ number: Int, _ noun: String, plural: String? = nil) -> String {
    "\(grouped(number)) \(number == 1 ? noun : plural ?? noun + "s")"
}
