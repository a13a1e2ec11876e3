import Testing
import Yams

@testable import SeederCore

/// The mapping is parsed with Yams' default tag rules joined into one (`YAMLNode.resolver`):
/// every scalar must resolve as the default resolves it, and keys repeat as they did.
struct YAMLNodeTests {
    /// Each of YAML 1.1's kinds of plain scalar, its near misses, and quoted and block forms.
    static let scalars = [
        "yes", "No", "TRUE", "on", "OFF", "y", "n", "trueish", "1", "-1", "+0x1F", "0o17", "017", "0b101", "1_000",
        "190:20:30", "1.5", "-.inf", ".NaN", "1e3", "6.8523015e+5", "0.5.1", "12abc", "~", "null", "Null", "nul", "<<", "=",
        "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "name", "id", "\"1\"", "'true'", "\"\"",
        "!!str true", "!!int \"3\"", "|\n  1\n",
    ]

    @Test(arguments: scalars)
    func scalarsResolveAsYAMLsDefaultRulesResolveThem(_ scalar: String) throws {
        let yaml = "key: \(scalar)\n"
        func tag(_ resolver: Resolver) throws -> Yams.Tag.Name {
            let root = try #require(try Parser(yaml: yaml, resolver: resolver).singleRoot())
            let value = try #require(YAMLNode(node: root, file: "m.yaml").pairs?.first?.value)
            return value.resolvedTag
        }
        #expect(try tag(YAMLNode.resolver) == tag(Resolver.default))
    }

    /// A plain key and the same key quoted are one key, as with the default rules; a plain `1`
    /// and a quoted `"1"` are two.
    @Test func keysRepeatAsTheyDidWithTheDefaultRules() throws {
        for (yaml, repeats) in [("name: 1\n\"name\": 2\n", true), ("1: a\n\"1\": b\n", false), ("true: a\n'true': b\n", false)] {
            func repeated(_ resolver: Resolver) -> Bool {
                do {
                    _ = try Parser(yaml: yaml, resolver: resolver).singleRoot()
                    return false
                } catch {
                    return true
                }
            }
            #expect(repeated(YAMLNode.resolver) == repeats, "\(yaml)")
            #expect(repeated(.default) == repeats, "\(yaml)")
        }
    }
}
