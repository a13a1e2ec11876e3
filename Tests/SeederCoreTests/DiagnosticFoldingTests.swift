import Testing

@testable import SeederCore

/// Folding: the same message over many records is printed three times, then counted
/// (docs/commands.md, Diagnostics).
struct DiagnosticFoldingTests {
    func folded(_ messages: [String], shown: Int = 3) -> [String] {
        DiagnosticFolding.fold(messages.map { Diagnostic.error(.type, $0) }, shown: shown).map {
            $0.diagnostic.message + ($0.moreLikeThis > 0 ? " (+\($0.moreLikeThis))" : "")
        }
    }

    @Test func showsTheFirstFewOfAKindAndCountsTheRest() {
        let types = (1...12).map { "Task \($0): 'id' is \"\($0)a\", expected integer" }
        let dangling = (1...4).map { "Task \($0) references User \($0 + 400) (assignedUser), which no record provides" }
        let messages = [types[0], dangling[0]] + types[1...] + dangling[1...]
        #expect(
            folded(messages) == [
                types[0], dangling[0], types[1], types[2] + " (+9)", dangling[1], dangling[2] + " (+1)",
            ])
    }

    @Test func keepsNamesInSingleQuotesApart() {
        let messages = [
            "User 1: 'age' is \"x\", expected integer", "User 2: 'age2' is \"y\", expected integer",
            "User 3: 'age' is \"z\", expected integer", "User 4: 'age' is \"w\", expected integer",
        ]
        #expect(folded(messages, shown: 2) == [messages[0], messages[1], messages[2] + " (+1)"])
    }

    @Test func masksQuotedValuesWithEscapesAndNumbers() {
        #expect(
            DiagnosticFolding.shape(.error(.conflict, #"User 12: 'name' conflicts: "a \"b\" 7" here, "c" at x:1:2"#))
                == #"error:User #: 'name' conflicts: "…" here, "…" at x:#:#"#)
        #expect(DiagnosticFolding.shape(.warning(.unmappedKey, "3 keys")) != DiagnosticFolding.shape(.error(.unmappedKey, "3 keys")))
    }

    @Test func leavesFewMessagesAlone() {
        let messages = ["a 1", "a 2", "b"]
        #expect(folded(messages) == messages)
    }
}
