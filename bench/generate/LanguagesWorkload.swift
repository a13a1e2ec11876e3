import Foundation

// MARK: languages

/// The languages a description list holds, as PokeAPI names them; thirty, English among them.
let languageNames = [
    "ja-Hrkt", "roomaji", "ko", "zh-Hant", "fr", "de", "es", "it", "en", "cs",
    "ja", "zh-Hans", "pt-BR", "ru", "pl", "nl", "sv", "da", "fi", "no",
    "tr", "el", "hu", "ro", "uk", "he", "ar", "th", "vi", "id",
]

/// N species, each with `descriptions`: a list of thirty `{language: {name, url}, text}`, one a
/// language, PokeAPI's shape (`flavor_text_entries`). The English entry stands at a position
/// drawn per species, so `@where(language.name = en)` reads as far into the list as a real one.
func generateLanguages(count: Int, directory: String) {
    var random = SplitMix64(state: 13)
    let output = Output(directory + "/species.json")
    output.write("[\n")
    for id in 1...count {
        var order = languageNames.filter { $0 != "en" }
        order.insert("en", at: random.below(languageNames.count))
        let entries = order.map { name -> String in
            let number = languageNames.firstIndex(of: name)! + 1
            return "{\"language\":{\"name\":\"\(name)\",\"url\":\"https://pokeapi.co/api/v2/language/\(number)/\"},"
                + "\"text\":\"\(random.phrase(4 + random.below(6))) (\(name))\"}"
        }
        output.write(
            (id == 1 ? "" : ",\n") + "{\"id\":\(id),\"name\":\"\(random.word())-\(id)\",\"descriptions\":[" + entries.joined(separator: ",")
                + "]}")
    }
    output.write("\n]\n")
}
