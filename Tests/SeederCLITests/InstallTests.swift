import Foundation
import SeederFiles
import SeederStore
import SeederTestSupport
import Testing

/// What an install brings besides the binary (docs/install.md): the version a release is named
/// after, and completion scripts that offer every subcommand in each shell. `.ci/run` builds the
/// release itself and installs with `swift package experimental-install`.
struct InstallTests {
    /// The path of `shell`, when this machine has it (`.ci/run` installs zsh and fish).
    static func shellPath(_ shell: String) -> String? {
        ["/bin/", "/usr/bin/", "/usr/local/bin/"].map { $0 + shell }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Every word `seeder ` completes to: the subcommands and `help`.
    static let firstWords = CommandDocsTests.subcommands + ["help"]

    /// `seeder --generate-completion-script SHELL`, written to a file in `workspace`.
    static func completionScript(_ shell: String, in workspace: String) async throws -> String {
        let generated = try await seeder(["--generate-completion-script", shell])
        #expect(generated.status == 0 && generated.stderr == "", "\(generated.stderr)")
        let path = workspace + "/seeder.\(shell)"
        try generated.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func printsTheVersionTheReleaseIsNamedAfter() async throws {
        let printed = try await seeder(["--version"])
        #expect(printed.status == 0 && printed.stdout == SeedBuilder.version + "\n")
        let release = try await program("/bin/bash", ["scripts/release", "--print-version"])
        #expect(release.status == 0 && release.stdout == printed.stdout, "\(release.stderr)")
        // Another version is the release's own; one that is no version is refused before any build.
        let stamped = try await program("/bin/bash", ["scripts/release", "--version", "2.0.0-rc.1", "--print-version"])
        #expect(stamped.status == 0 && stamped.stdout == "2.0.0-rc.1\n", "\(stamped.stderr)")
        let refused = try await program("/bin/bash", ["scripts/release", "--version", "2.0\"", "--print-version"])
        #expect(refused.status == 64 && refused.stderr == "release: '2.0\"' is not a version like 1.2.3 or 1.2.3-rc.1\n")
    }

    @Test func bashCompletesSubcommandsAndOptionValues() async throws {
        let workspace = try Workspace()
        let script = try await Self.completionScript("bash", in: workspace.root)
        #expect(try await program("/bin/bash", ["-n", script]).status == 0)
        // What bash's `complete -F _seeder` does on Tab: COMP_* set, `_seeder COMMAND CUR PREV`.
        func completions(_ words: [String]) async throws -> [String] {
            let line = words.joined(separator: " ")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let run = try await program(
                "/bin/bash",
                [
                    "-c",
                    """
                    source '\(script)'
                    COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count)
                    _seeder seeder '\(words[words.count - 1])' '\(words[words.count - 2])'
                    printf '%s\\n' "${COMPREPLY[@]}"
                    """,
                ])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map { String($0) }
        }
        await #expect(try completions(["seeder", ""]).filter { !$0.hasPrefix("-") } == Self.firstWords)
        await #expect(try completions(["seeder", "build", "--on-conflict", ""]) == ["error", "first", "last"])
        await #expect(try completions(["seeder", "diff", "--format", ""]) == ["text", "json", "markdown"])
    }

    @Test(.enabled(if: shellPath("fish") != nil, "fish is not installed"))
    func fishCompletesSubcommandsAndOptionValues() async throws {
        let workspace = try Workspace()
        let script = try await Self.completionScript("fish", in: workspace.root)
        let fish = try #require(Self.shellPath("fish"))
        #expect(try await program(fish, ["--no-execute", script]).status == 0)
        func completions(_ line: String) async throws -> [String] {
            let run = try await program(fish, ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"])
            #expect(run.status == 0, "\(run.stderr)")
            // `word<TAB>description`, sorted by fish.
            return run.stdout.split(separator: "\n").map { line in String(line.prefix { $0 != "\t" }) }
        }
        await #expect(try completions("seeder ") == Self.firstWords.sorted())
        await #expect(try completions("seeder validate --").contains("--json"))
        await #expect(try completions("seeder build --on-conflict ") == ["error", "first", "last"])
    }

    /// zsh completes only inside its line editor, so this reads the script: it parses, lists
    /// every subcommand with its abstract, and has a function for each.
    @Test(.enabled(if: shellPath("zsh") != nil, "zsh is not installed"))
    func zshScriptParsesAndListsEverySubcommand() async throws {
        let workspace = try Workspace()
        let script = try await Self.completionScript("zsh", in: workspace.root)
        let zsh = try #require(Self.shellPath("zsh"))
        let parsed = try await program(zsh, ["-n", script])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(text.hasPrefix("#compdef seeder\n"))
        for subcommand in CommandDocsTests.subcommands {
            #expect(text.contains("\n            '\(subcommand):"), "no '\(subcommand):...' in the subcommands array")
            #expect(text.contains("\n_seeder_\(subcommand)() {"), "no _seeder_\(subcommand) function")
        }
    }
}
