import Foundation
import SeederCore

/// What `seeder fetch` is asked to do.
public struct FetchOptions: Sendable {
    /// The mapping file, and the dumps directory its sources' paths are relative to.
    public var mapping: String
    public var dumps: String
    /// `--only`: the paths of the sources to fetch; empty for every source with `fetch:`.
    public var only: [String] = []
    /// Where `${NAME}`s are read.
    public var environment: [String: String] = ProcessInfo.processInfo.environment
    /// How requests are sent; `nil` for libcurl (`CurlTransport`).
    public var transport: (any HTTPTransport)?
    /// Called after each page.
    public var progress: (@Sendable (FetchProgress) -> Void)?
    /// Called as a request is about to be retried, with what happened and when it is retried.
    public var retrying: (@Sendable (String) -> Void)?

    public init(mapping: String, dumps: String) {
        self.mapping = mapping
        self.dumps = dumps
    }
}

/// `seeder fetch`: the mapping's `fetch:` blocks -> the dump files its sources read, only what
/// changed, into DUMPS all at once or not at all (docs/commands.md, fetch).
///
/// Stages: mapping -> the sources to fetch, in waves (an `each` source after its parent) -> per
/// source, its pages (a `PageWalker` choosing each request, a `RequestSender` getting each
/// answer, `PageBody` reading it) into a `StagingArea` -> on success, the staged files moved
/// into DUMPS and the `FetchManifest` written last.
public enum Fetcher {
    public static func fetch(_ options: FetchOptions) async -> FetchReport {
        var report = FetchReport(dumps: options.dumps)
        let diagnostics = DiagnosticSink()
        do {
            _ = try FileByteSource(path: options.mapping)
        } catch {
            report.diagnostics = [
                .error(
                    .io, "cannot read the mapping file: \((error as? InputError)?.reason ?? "\(error)")",
                    at: SourceLocation(file: options.mapping))
            ]
            report.outcome = .failed
            return report
        }
        guard let mapping = MappingLoader().load(contentsOf: options.mapping, diagnostics: diagnostics) else {
            report.diagnostics = diagnostics.diagnostics
            report.outcome = diagnostics.diagnostics.contains { $0.code == .io } ? .failed : .invalid
            return report
        }
        let sources = mapping.sources ?? []
        var selected = sources.indices.filter { sources[$0].fetch != nil }
        if selected.isEmpty {
            diagnostics.error(
                .mappingInvalid, "no source has a 'fetch:' block: nothing to fetch (docs/mapping.md, Fetching the dumps)",
                at: SourceLocation(file: options.mapping))
        }
        for path in options.only where !selected.contains(where: { sources[$0].path == path }) {
            let fetched = selected.map { sources[$0].path }
            let suggestion = Wording.didYouMean(path, among: fetched)
            diagnostics.error(
                .mappingUnknownName,
                "--only '\(path)' names no source with a 'fetch:' block\(suggestion); they are \(fetched.map { "'\($0)'" }.joined(separator: ", "))"
            )
        }
        if !options.only.isEmpty { selected = selected.filter { options.only.contains(sources[$0].path) } }
        let templates = Self.templates(of: selected.map { sources[$0].fetch! }, defaults: mapping.fetch)
        // A variable read only in `base` names a host, not a secret (docs/mapping.md, Variables).
        let elsewhere = Set(templates.dropFirst(mapping.fetch.base == nil ? 0 : 1).flatMap(\.variables))
        let notSecret = Set(mapping.fetch.base?.variables ?? []).subtracting(elsewhere)
        let variables = FetchVariables(reading: templates, from: options.environment, diagnostics: diagnostics, notSecret: notSecret)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: options.dumps, isDirectory: &isDirectory), !isDirectory.boolValue {
            diagnostics.error(.io, "\(options.dumps) is not a directory", at: SourceLocation(file: options.dumps))
        }
        guard !diagnostics.hasErrors else {
            report.diagnostics = diagnostics.diagnostics
            report.outcome = diagnostics.diagnostics.contains { $0.code == .io } ? .failed : .invalid
            return report
        }
        let staging: StagingArea
        do {
            staging = try StagingArea(dumps: options.dumps)
        } catch {
            report.diagnostics = [.error(.io, "cannot fetch into \(options.dumps): \(error.reason)", at: nil)]
            report.outcome = .failed
            return report
        }
        let transport: any HTTPTransport
        if let given = options.transport {
            transport = given
        } else {
            do throws(CurlUnavailable) {
                transport = try CurlTransport(library: options.environment["SEEDER_LIBCURL"])
            } catch {
                staging.remove()
                report.diagnostics = [.error(.io, error.description, at: nil)]
                report.outcome = .failed
                return report
            }
        }
        let (recorded, manifestProblem) = FetchManifest.read(dumps: staging.dumps)
        if let manifestProblem { report.diagnostics.append(.warning(.io, manifestProblem)) }
        // DUMPS is data: entries that lead out of it, or name no source's file, are not acted on.
        let (manifest, ignored) = recorded.keepingFiles(of: sources, shown: StagingArea.shown(FetchManifest.fileName, in: options.dumps))
        report.diagnostics += ignored
        let run = FetchRun(
            mapping: mapping, variables: variables, manifest: manifest, staging: staging, dumpsShown: options.dumps, transport: transport,
            progress: options.progress, retrying: options.retrying)
        for wave in Self.waves(selected, sources: sources) {
            await withTaskGroup(of: Void.self) { group in
                let fetched = Set(selected)
                for index in wave { group.addTask { await run.fetch(source: index, parentFetched: { fetched.contains($0) }) } }
            }
        }
        await transport.shutdown()
        report.sources = selected.map { run.summaries[$0] ?? FetchReport.SourceSummary(path: sources[$0].path) }
        // Sources run at once and fail in any order; reported in the mapping's, so that two runs
        // print the same.
        report.diagnostics += Self.inMappingOrder(run.warnings) + Self.inMappingOrder(run.failures.map(\.diagnostic))
        if !run.failures.isEmpty {
            staging.remove()
            report.outcome = run.failures.contains { $0.outcome == .failed } ? .failed : .invalid
            return report
        }
        do {
            report.changedDumps = try run.commit(fetched: selected)
            for index in selected { report.sources[selected.firstIndex(of: index)!].pagesRemoved = run.summaries[index]?.pagesRemoved ?? 0 }
        } catch {
            staging.remove()
            report.diagnostics.append(.error(.io, "\(error.path): \(error.reason); the dumps were not updated"))
            report.outcome = .failed
        }
        return report
    }

    /// `diagnostics` by where they stand in the mapping (file, line, column), then by message.
    static func inMappingOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        func key(_ diagnostic: Diagnostic) -> (String, Int, Int, String) {
            guard let location = diagnostic.location else { return ("", 0, 0, diagnostic.message) }
            switch location.position {
            case let .lineColumn(line, column): return (location.file, line, column, diagnostic.message)
            case let .offset(offset): return (location.file, offset, 0, diagnostic.message)
            case .file: return (location.file, 0, 0, diagnostic.message)
            }
        }
        return diagnostics.sorted { key($0) < key($1) }
    }

    /// Every text whose `${NAME}`s the fetch reads.
    static func templates(of specs: [FetchSpec], defaults: FetchDefaults) -> [FetchTemplate] {
        func bodyTemplates(_ body: FetchBody?) -> [FetchTemplate] {
            switch body {
            case let .object(members)?: return members.flatMap { bodyTemplates($0.value) }
            case let .array(items)?: return items.flatMap { bodyTemplates($0) }
            case let .string(template)?: return [template]
            default: return []
            }
        }
        var templates = (defaults.base.map { [$0] } ?? []) + defaults.headers.map(\.value) + defaults.query.map(\.value)
        for spec in specs {
            templates += [spec.url] + spec.headers.map(\.value) + spec.query.map(\.value) + bodyTemplates(spec.body)
        }
        return templates
    }

    /// The sources in the order they can run: a source with `each` after its parent, when the
    /// parent is fetched too.
    static func waves(_ selected: [Int], sources: [Source]) -> [[Int]] {
        func depth(_ index: Int) -> Int {
            guard let parent = sources[index].fetch?.each?.source, selected.contains(parent) else { return 0 }
            return depth(parent) + 1
        }
        let depths = selected.map { ($0, depth($0)) }
        let most = depths.map(\.1).max() ?? 0
        return (0...most).map { level in depths.filter { $0.1 == level }.map(\.0) }
    }
}
