import Crypto
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
    /// How requests are sent; `nil` for async-http-client.
    public var transport: (any HTTPTransport)?
    /// Called after each page.
    public var progress: (@Sendable (FetchProgress) -> Void)?

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
            report.exitStatus = 2
            return report
        }
        guard let mapping = MappingLoader().load(contentsOf: options.mapping, diagnostics: diagnostics) else {
            report.diagnostics = diagnostics.diagnostics
            report.exitStatus = diagnostics.diagnostics.contains { $0.code == .io } ? 2 : 1
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
            let suggestion = closestMatch(to: path, in: fetched).map { " (did you mean '\($0)'?)" } ?? ""
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
            report.exitStatus = diagnostics.diagnostics.contains { $0.code == .io } ? 2 : 1
            return report
        }
        let staging: StagingArea
        do {
            staging = try StagingArea(dumps: options.dumps)
        } catch {
            report.diagnostics = [.error(.io, "cannot fetch into \(options.dumps): \(error.reason)", at: nil)]
            report.exitStatus = 2
            return report
        }
        let (manifest, manifestProblem) = FetchManifest.read(dumps: staging.dumps)
        if let manifestProblem { report.diagnostics.append(.warning(.io, manifestProblem)) }
        let transport = options.transport ?? AsyncHTTPTransport()
        let run = FetchRun(
            mapping: mapping, variables: variables, manifest: manifest, staging: staging, dumpsShown: options.dumps, transport: transport,
            progress: options.progress)
        for wave in Self.waves(selected, sources: sources) {
            await withTaskGroup(of: Void.self) { group in
                let fetched = Set(selected)
                for index in wave { group.addTask { await run.fetch(source: index, parentFetched: { fetched.contains($0) }) } }
            }
        }
        await transport.shutdown()
        report.sources = selected.map { run.summaries[$0] ?? FetchReport.SourceSummary(path: sources[$0].path) }
        report.diagnostics += run.warnings + run.failures.map(\.diagnostic)
        if !run.failures.isEmpty {
            staging.remove()
            report.exitStatus = run.failures.contains { $0.exitStatus == 2 } ? 2 : 1
            return report
        }
        do {
            report.changedDumps = try run.commit(fetched: selected)
            for index in selected { report.sources[selected.firstIndex(of: index)!].pagesRemoved = run.summaries[index]?.pagesRemoved ?? 0 }
        } catch {
            staging.remove()
            report.diagnostics.append(.error(.io, "\(error.path): \(error.reason); the dumps were not updated"))
            report.exitStatus = 2
        }
        return report
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

/// The state of one fetch that its parallel sources share: behind a lock.
final class FetchRun: @unchecked Sendable {
    let mapping: Mapping
    let variables: FetchVariables
    let manifest: FetchManifest
    let staging: StagingArea
    /// DUMPS as the command was given it, for messages.
    let dumpsShown: String
    let gate: RequestGate
    let transport: HTTPTransport
    let progress: (@Sendable (FetchProgress) -> Void)?

    private let lock = NSLock()
    /// The files of this fetch by relative path, with their manifest entries.
    private(set) var entries: [String: FetchManifest.Entry] = [:]
    /// Files written to the staging area (they replace DUMPS' copies).
    private(set) var changed: [String] = []
    private(set) var summaries: [Int: FetchReport.SourceSummary] = [:]
    private(set) var failures: [FetchFailure] = []
    private(set) var warnings: [Diagnostic] = []

    init(
        mapping: Mapping, variables: FetchVariables, manifest: FetchManifest, staging: StagingArea, dumpsShown: String,
        transport: HTTPTransport, progress: (@Sendable (FetchProgress) -> Void)?
    ) {
        self.dumpsShown = dumpsShown
        self.mapping = mapping
        self.variables = variables
        self.manifest = manifest
        self.staging = staging
        self.transport = transport
        self.progress = progress
        gate = RequestGate(concurrency: mapping.fetch.concurrency, rate: mapping.fetch.rate)
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func fail(_ failure: FetchFailure) { locked { failures.append(failure) } }

    // MARK: A source

    func fetch(source index: Int, parentFetched: (Int) -> Bool) async {
        let source = mapping.sources![index]
        let spec = source.fetch!
        let counters = FetchCounters()
        locked { summaries[index] = FetchReport.SourceSummary(path: source.path) }
        let plan = RequestPlan(spec: spec, defaults: mapping.fetch, variables: variables)
        let sender = RequestSender(transport: transport, gate: gate, variables: variables, counters: counters)
        if let each = spec.each {
            let parents: [ParentRecord]
            do {
                parents = try parentRecords(of: each.source, for: spec, location: spec.location, fetched: parentFetched(each.source))
            } catch {
                fail(error)
                return
            }
            await withTaskGroup(of: Void.self) { group in
                for parent in parents {
                    group.addTask { await self.fetchPages(index, plan: plan, sender: sender, parent: parent) }
                }
            }
        } else {
            await fetchPages(index, plan: plan, sender: sender, parent: nil)
        }
        locked {
            summaries[index]!.requests = counters.requests
            summaries[index]!.retries = counters.retries
        }
    }

    /// One run of a paginator: the source's pages, or one parent's.
    private func fetchPages(_ index: Int, plan: RequestPlan, sender: RequestSender, parent: ParentRecord?) async {
        let source = mapping.sources![index]
        let spec = source.fetch!
        var walker = PageWalker(paginator: spec.paginate, maxPages: spec.maxPages ?? mapping.fetch.maxPages)
        let limits = RequestSender.Limits(retries: spec.retries ?? mapping.fetch.retries, timeout: spec.timeout ?? mapping.fetch.timeout)
        do {
            var page = 1
            var result = try await fetchPage(
                index, plan: plan, step: walker.first(), page: page, parent: parent, sender: sender, limits: limits)
            if let rest = try walker.remaining(after: result.body, described: result.described, location: spec.location),
                spec.paginate != nil
            {
                locked { summaries[index]!.expectedPages = (summaries[index]!.expectedPages ?? 0) + rest.count + 1 }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (offset, step) in rest.enumerated() {
                        group.addTask {
                            _ = try await self.fetchPage(
                                index, plan: plan, step: step, page: offset + 2, parent: parent, sender: sender, limits: limits)
                        }
                    }
                    try await group.waitForAll()
                }
                return
            }
            while true {
                let answer = PageWalker.Answer(
                    body: result.body, links: result.links, url: result.url, pages: page,
                    recordedNext: result.unchanged ? result.entry.next.map(variables.unredact) : nil)
                guard let (step, record) = try walker.next(after: answer, described: result.described, location: spec.location) else {
                    if page == 1, let missing = walker.endedOnMissing {
                        let warning = Diagnostic.warning(
                            .pagination,
                            "\(result.described): '\(missing)' is missing from the first page, so '\(source.path)' is one page; "
                                + "if the service has more, the key path is wrong (a missing key ends a source, as null does)",
                            at: spec.location)
                        locked { warnings.append(warning) }
                    }
                    break
                }
                setNext(variables.redact(record), of: result.path)
                page += 1
                let previous = result
                result = try await fetchPage(index, plan: plan, step: step, page: page, parent: parent, sender: sender, limits: limits)
                // A service that ignores the page parameter answers page 1 again and again.
                if result.entry.sha256 == previous.entry.sha256, result.body.records > 0 {
                    throw FetchFailure.data(
                        .pagination,
                        "\(result.described) is byte for byte the page before it (\(previous.described)): "
                            + "the service does not read the paginator's parameter, or the paginator would go round forever",
                        at: spec.location)
                }
            }
        } catch let failure as FetchFailure {
            fail(failure)
        } catch {
            fail(FetchFailure.service("\(error)", at: spec.location))
        }
    }

    private func setNext(_ next: String, of path: String) {
        locked { entries[path]?.next = next }
    }

    struct PageResult {
        var path: String
        var body: PageBody
        var links: [String]
        var url: String
        var entry: FetchManifest.Entry
        var unchanged: Bool
        var described: String
    }

    /// Fetches one page into the staging area (unless DUMPS already holds its bytes).
    private func fetchPage(
        _ index: Int, plan: RequestPlan, step: PageWalker.Step, page: Int, parent: ParentRecord?, sender: RequestSender,
        limits: RequestSender.Limits
    ) async throws(FetchFailure) -> PageResult {
        let source = mapping.sources![index]
        let spec = source.fetch!
        let path = Self.pagePath(source.path, folder: parent?.folderName, page: spec.paginate == nil ? nil : page)
        let request = plan.request(step, parent: parent)
        let described = "\(request.method.rawValue) \(request.shownURL)"
        let compression = Source.compression(ofFile: path)
        let old = manifest.files[path]
        let existing = dumpsFile(path)
        var conditional: [(name: String, value: String)] = []
        if request.method == .get, let old, old.url == request.shownURL, let existing, existing.sha256 == old.sha256 {
            if let etag = old.etag { conditional.append(("If-None-Match", etag)) }
            if let lastModified = old.lastModified { conditional.append(("If-Modified-Since", lastModified)) }
        }
        let answer = try await sender.send(request, conditional: conditional, limits: limits, location: spec.location)
        if answer.status == 304, let old, let body = DumpEncoder.decode(file: staging.dumps + "/" + path, as: compression) {
            let pageBody = try PageBody(
                body, source: source, described: described, contentType: nil, location: spec.location, paged: spec.paginate != nil)
            record(index, path: path, entry: old, written: false, fetched: false, records: pageBody.records, bytes: 0)
            return PageResult(
                path: path, body: pageBody, links: answer.headers("Link"), url: answer.url, entry: old, unchanged: true,
                described: described)
        }
        let body: PageBody
        do {
            body = try PageBody(
                answer.body, source: source, described: described, contentType: answer.header("Content-Type"), location: spec.location,
                graphQL: spec.method == .post, paged: spec.paginate != nil)
        } catch {
            // The message may quote the body, which may quote a secret.
            var failure = error
            failure.diagnostic.message = variables.redact(failure.diagnostic.message)
            throw failure
        }
        if let secret = variables.secret(in: answer.body) {
            var place = ""
            if let located = try? LineLocator.locate([secret.offset], in: MemoryByteSource(answer.body)),
                case let .lineColumn(line, column)? = located[secret.offset]
            {
                place = " at line \(line), column \(column)"
            }
            throw FetchFailure.data(
                .secret,
                "\(described): the response holds the value of \(secret.name)\(place); fetch never writes a secret into a dump "
                    + "(send it in a header, or ask the service not to echo it)", at: spec.location)
        }
        let file = DumpEncoder.encode(answer.body, as: compression)
        let digest = Self.sha256(file)
        let entry = FetchManifest.Entry(
            source: source.path, url: request.shownURL, etag: answer.header("ETag"), lastModified: answer.header("Last-Modified"),
            sha256: digest, size: file.count, next: nil)
        let same = existing?.sha256 == digest
        if !same {
            do { try staging.write(file, at: path) } catch {
                throw FetchFailure(.io, "cannot write \(path) (for \(described)): \(error.reason)", at: spec.location, exitStatus: 2)
            }
        }
        record(index, path: path, entry: entry, written: !same, fetched: true, records: body.records, bytes: answer.body.count)
        return PageResult(
            path: path, body: body, links: answer.headers("Link"), url: answer.url, entry: entry, unchanged: false, described: described)
    }

    private func record(_ index: Int, path: String, entry: FetchManifest.Entry, written: Bool, fetched: Bool, records: Int, bytes: Int) {
        let snapshot: FetchProgress = locked {
            entries[path] = entry
            if written { changed.append(path) }
            if fetched { summaries[index]!.pagesFetched += 1 } else { summaries[index]!.pagesUnchanged += 1 }
            if written { summaries[index]!.pagesWritten += 1 }
            summaries[index]!.records += records
            summaries[index]!.bytes += bytes
            let summary = summaries[index]!
            return FetchProgress(
                source: summary.path, pages: summary.pagesFetched + summary.pagesUnchanged, expectedPages: summary.expectedPages,
                records: summary.records, bytes: summary.bytes, requests: 0)
        }
        progress?(snapshot)
    }

    /// The digest of DUMPS' copy of `path`, if there is a regular file there.
    private func dumpsFile(_ path: String) -> (sha256: String, size: Int)? {
        guard let bytes = try? FileByteSource(path: staging.dumps + "/" + path).readAll() else { return nil }
        return (Self.sha256(bytes), bytes.count)
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// A page's file: the path's first `*` is the parent's folder (with `each`), the next the
    /// page number, 4 digits at least, so that the files sort in page order.
    static func pagePath(_ pattern: String, folder: String?, page: Int?) -> String {
        var result = ""
        var stars = [folder, page.map { String(format: "%04d", $0) }].compactMap { $0 }[...]
        for character in pattern {
            if character == "*", let next = stars.popFirst() {
                result += next
            } else {
                result.append(character)
            }
        }
        return result
    }

    // MARK: Parents

    /// The parent source's records, as build reads them, with the values the child's `{K}`s take.
    private func parentRecords(of parentIndex: Int, for spec: FetchSpec, location: SourceLocation, fetched: Bool) throws(FetchFailure)
        -> [ParentRecord]
    {
        let parent = mapping.sources![parentIndex]
        let fields = Self.templates(spec).flatMap(\.parentFields)
        let folderField = spec.url.parentFields.first ?? fields.first
        var files: [(relative: String, absolute: String)]
        if fetched {
            files = locked { entries.keys.filter { entries[$0]!.source == parent.path } }.sorted().map { relative in
                (relative, changed.contains(relative) ? staging.root + "/" + relative : staging.dumps + "/" + relative)
            }
        } else {
            files = Glob.files(matching: parent.path, in: staging.dumps).map { ($0, staging.dumps + "/" + $0) }
            guard !files.isEmpty else {
                throw FetchFailure.data(
                    .noFile,
                    "'each' reads the records of '\(parent.path)', which is not fetched in this run and has no file in \(dumpsShown): "
                        + "fetch it too, or check the dumps directory", at: location)
            }
        }
        var records: [ParentRecord] = []
        var folders: Set<String> = []
        for file in files {
            guard let bytes = DumpEncoder.decode(file: file.absolute, as: Source.compression(ofFile: file.relative)),
                let document = try? JSONDocument(parsing: bytes)
            else {
                throw FetchFailure(.io, "cannot read the parent source's file \(file.relative) as JSON", at: location, exitStatus: 2)
            }
            var value = document.root
            for key in parent.keyPath { value = value[key] ?? value }
            let items: [JSONValue] =
                value.kind == .array ? Array(value.elements) : parent.keyedBy != nil ? value.members.map(\.value) : [value]
            for item in items {
                var values: [String: String] = [:]
                for field in fields {
                    var reached: JSONValue? = item
                    for key in field.keys { reached = reached?.kind == .object ? reached?[key] : nil }
                    guard let text = reached?.scalarText, !text.isEmpty else {
                        let offset = item.fileOffset
                        let shown = dumpsShown + "/" + file.relative
                        var place = SourceLocation(file: shown)
                        if let located = try? LineLocator.locate([offset], in: MemoryByteSource(bytes)),
                            case let .lineColumn(line, column)? = located[offset]
                        {
                            place = SourceLocation(file: shown, line: line, column: column)
                        }
                        throw FetchFailure.data(
                            .shape,
                            "a record of '\(parent.path)' has no value for '{\(field)}' (\(reached.map { describeKind($0.kind) } ?? "missing")), which 'each' needs",
                            at: place, jsonPath: item.pointer.description)
                    }
                    values[field.description] = text
                }
                let folder = folderField.map { Self.folderName(values[$0.description]!) } ?? ""
                guard folders.insert(folder).inserted else { continue }
                records.append(ParentRecord(fields: values, folderName: folder, file: file.relative, pointer: item.pointer.description))
            }
        }
        return records
    }

    static func templates(_ spec: FetchSpec) -> [FetchTemplate] {
        Fetcher.templates(of: [spec], defaults: FetchDefaults())
    }

    /// A value as a folder's name: `/`, `%`, control characters and a leading dot percent-encoded.
    static func folderName(_ value: String) -> String {
        var result = ""
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            if scalar == "/" || scalar == "%" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
                || (offset == 0 && scalar == ".")
            {
                for byte in String(scalar).utf8 { result += String(format: "%%%02X", byte) }
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    // MARK: Commit

    /// Moves the staged files in, removes the pages that are gone, writes the manifest: `true`
    /// when DUMPS changed.
    func commit(fetched: [Int]) throws(InputError) -> Bool {
        let sources = mapping.sources!
        let fetchedPaths = Set(fetched.map { sources[$0].path })
        var newManifest = FetchManifest()
        for (path, entry) in manifest.files where !fetchedPaths.contains(entry.source) { newManifest.files[path] = entry }
        for (path, entry) in entries { newManifest.files[path] = entry }
        var removed: Set<String> = []
        for (path, entry) in manifest.files where fetchedPaths.contains(entry.source) && entries[path] == nil {
            if FileManager.default.fileExists(atPath: staging.dumps + "/" + path) { removed.insert(path) }
        }
        for index in fetched {
            let spec = sources[index].fetch!
            for path in Glob.pages(of: sources[index].path, each: spec.each != nil, paged: spec.paginate != nil, in: staging.dumps)
            where entries[path] == nil && newManifest.files[path] == nil {
                removed.insert(path)
            }
        }
        for index in fetched {
            summaries[index]?.pagesRemoved = removed.count { path in
                manifest.files[path]?.source == sources[index].path
                    || Glob.isPage(
                        path, of: sources[index].path, each: sources[index].fetch!.each != nil, paged: sources[index].fetch!.paginate != nil
                    )
            }
        }
        let text = newManifest.text
        let current = try? FileByteSource(path: staging.dumps + "/" + FetchManifest.fileName).readAll()
        let manifestChanged = current != Array(text.utf8)
        try staging.commit(changed: changed, removed: Array(removed), manifest: manifestChanged ? text : nil)
        return !changed.isEmpty || !removed.isEmpty || manifestChanged
    }
}
