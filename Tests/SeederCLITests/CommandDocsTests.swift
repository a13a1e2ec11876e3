import Foundation
import Testing

/// docs/commands.md names every subcommand and every option the binary's help lists.
struct CommandDocsTests {
    static let subcommands = ["build", "validate", "fetch", "infer", "diff", "patch", "inspect"]

    @Test(arguments: subcommands)
    func documentsEveryOption(_ subcommand: String) async throws {
        let reference = try String(contentsOfFile: repository + "/docs/commands.md", encoding: .utf8)
        #expect(reference.contains("## `seeder \(subcommand)`"))
        let help = try await seeder(["help", subcommand]).stdout
        let options = Set(
            help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," || $0 == "<" })
                .map(String.init).filter { $0.hasPrefix("--") && $0 != "--help" && $0 != "--version" })
        #expect(!options.isEmpty, "\(help)")
        for option in options.sorted() {
            #expect(
                reference.contains("`\(option)") || reference.contains(", `\(option)"),
                "docs/commands.md does not mention \(option) of \(subcommand)")
        }
    }

    /// The draft docs/commands.md shows for `seeder infer seeds/accounts` is the one it writes.
    @Test func inferExampleIsTheDraftWritten() async throws {
        let reference = try String(contentsOfFile: repository + "/docs/commands.md", encoding: .utf8)
        let run = try await seeder(["infer", "seeds/accounts"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(reference.contains("$ cat accounts.yaml\n" + run.stdout + "$ seeder build accounts.yaml seeds/accounts\n"), "\(run.stdout)")
    }
}
