import Foundation

/// The ```` ```console ```` blocks of a page of docs/: each line that starts with `$ ` is a
/// command, the lines after it up to the next command are what it prints. A test runs the
/// commands as they are written and compares what they print, so an example in the docs cannot
/// drift from what the binary does.
public struct ConsoleTranscript: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        /// The command's words, as a shell splits them: at spaces, a `"..."` one word without its
        /// quotes (`-o ""` is an empty word), and a `#` comment left out.
        public var words: [String]
        /// What the page shows it printing, each line ending in a line feed ("" for nothing).
        public var output: String
    }

    /// The steps of each block, in page order.
    public var blocks: [[Step]]

    public init(markdown: String) {
        let parts = markdown.components(separatedBy: "```console\n")
        blocks = zip(parts, parts.dropFirst()).map { before, block in
            // A block in a list item is indented as its fence is; its lines are read without that.
            let indent = String(before.reversed().prefix { $0 == " " })
            var steps: [Step] = []
            for indented in block.components(separatedBy: "\n" + indent + "```")[0].components(separatedBy: "\n") {
                let line = indented.hasPrefix(indent) ? String(indented.dropFirst(indent.count)) : indented
                if line.hasPrefix("$ ") {
                    steps.append(Step(words: Self.words(of: line.dropFirst(2)), output: ""))
                } else if !steps.isEmpty {
                    steps[steps.count - 1].output += line + "\n"
                }
            }
            return steps
        }
    }

    /// The page at `relative` (to the repository), read.
    public init(page relative: String, repository: String) throws {
        self.init(markdown: try String(contentsOfFile: repository + "/" + relative, encoding: .utf8))
    }

    /// The pages a reader of the repository reads, relative to it: README.md, then docs/'s and
    /// docs/guides/' markdown files, in name order.
    public static func pages(repository: String) -> [String] {
        ["README.md"]
            + ["docs", "docs/guides"].flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: repository + "/" + folder)) ?? [])
                    .filter { $0.hasSuffix(".md") }.sorted().map { folder + "/" + $0 }
            }
    }

    /// `line` split as a shell splits it, for the quoting the pages use: double quotes only.
    static func words(of line: Substring) -> [String] {
        var words: [String] = []
        var word: String?
        var quoted = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                word = word ?? ""
            } else if character == " " && !quoted {
                if let finished = word { words.append(finished) }
                word = nil
            } else if character == "#" && !quoted && word == nil {
                break
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let finished = word { words.append(finished) }
        return words
    }
}
