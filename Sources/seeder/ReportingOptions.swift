import ArgumentParser
import SeederCore
import SeederFiles

/// How a long run shows itself while it works and what it found: the options `build`,
/// `validate`, `fetch` and `infer` share.
struct ReportingOptions: ParsableArguments {
    @Option(
        help: "Also print each diagnostic as a GitHub Actions annotation (github); default: github when GITHUB_ACTIONS=true, else text.")
    var diagnostics: DiagnosticsFormat?

    @Option(
        help:
            "Show progress: auto (a line on a terminal), always (plain lines when not on one), plain (a line every few seconds, for CI logs) or never."
    )
    var progress: ProgressMode = .auto

    /// `--diagnostics`, or what the environment makes the default.
    var diagnosticsFormat: DiagnosticsFormat { diagnostics ?? .default() }
}
