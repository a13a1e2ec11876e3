import SeederCore
import Testing

@testable import SeederInfer

/// `IdentityChoice` runs the identity rules it is given, in order, the first that chooses
/// winning (docs/commands.md, `seeder infer`, Rules): a service keyed otherwise adds a rule.
@Suite struct IdentityRulesTests {
    /// Users whose `id` repeats with other contents, and whose `slug` and `login` are unique.
    static func users() throws -> ShapeObserver {
        let catalog = ShapeCatalog()
        let observer = catalog.observer(named: "User")
        let json = #"[{"id": 1, "slug": "a", "login": "ann"}, {"id": 1, "slug": "b", "login": "bob"}]"#
        try JSONReader(source: MemoryByteSource(json)).forEachItem { item in
            if case let .record(value) = item { observer.observe(value, fromSource: true) }
        }
        catalog.settle()
        return observer
    }

    @Test func theFirstRuleThatChoosesWins() throws {
        let observer = try Self.users()
        let choice = IdentityChoice(of: observer, keyed: false)
        #expect(choice.key == "slug")
        #expect(choice.evidence == "'slug': 2 distinct values in 2 records; 'id' not unique: 1 value repeats with other records")
    }

    /// Without `identity-by-name` nothing chooses; a rule added before it (a service whose
    /// records are keyed by `login` before `slug`) chooses, with no branch added to the stage.
    @Test func theStageRunsTheRulesItIsGiven() throws {
        let observer = try Self.users()
        let withoutNames = IdentityChoice.rules.filter { $0.rule.name != "identity-by-name" }
        let none = IdentityChoice(of: observer, keyed: false, rules: withoutNames)
        #expect(none.key == nil)
        #expect(
            none.evidence
                == "no key named like an identity is in every record and unique: 'id' not unique: 1 value repeats with other records")
        let login = IdentityRule(
            rule: InferRule(name: "login-first", stage: "identity", drafts: "`login`", corpusCase: "-", test: "-"),
            choose: { observer, context in IdentityChoice.firstKey(of: ["login"], in: observer, &context) })
        let byLogin = IdentityChoice(of: observer, keyed: false, rules: withoutNames + [login] + IdentityChoice.rules.suffix(1))
        #expect(byLogin.key == "login")
        #expect(byLogin.evidence == "'login': 2 distinct values in 2 records; 'id' not unique: 1 value repeats with other records")
    }
}
