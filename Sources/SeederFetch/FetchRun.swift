import Foundation
import SeederCore

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
    let retrying: (@Sendable (String) -> Void)?

    private let lock = NSLock()
    /// The files of this fetch by relative path, with their manifest entries.
    private(set) var entries: [String: FetchManifest.Entry] = [:]
    /// Files written to the staging area (they replace DUMPS' copies).
    private(set) var changed: [String] = []
    var summaries: [Int: FetchReport.SourceSummary] = [:]
    private(set) var failures: [FetchFailure] = []
    private(set) var warnings: [Diagnostic] = []

    init(
        mapping: Mapping, variables: FetchVariables, manifest: FetchManifest, staging: StagingArea, dumpsShown: String,
        transport: HTTPTransport, progress: (@Sendable (FetchProgress) -> Void)?, retrying: (@Sendable (String) -> Void)? = nil
    ) {
        self.retrying = retrying
        self.dumpsShown = dumpsShown
        self.mapping = mapping
        self.variables = variables
        self.manifest = manifest
        self.staging = staging
        self.transport = transport
        self.progress = progress
        gate = RequestGate(concurrency: mapping.fetch.concurrency, rate: mapping.fetch.rate)
    }

    func locked<T>(_ body: () -> T) -> T {
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
        let sender = RequestSender(transport: transport, gate: gate, variables: variables, counters: counters, retrying: retrying)
        if let each = spec.each {
            let parents: [ParentRecord]
            do {
                parents = try parentRecords(of: each.source, for: spec, location: spec.location, fetched: parentFetched(each.source))
            } catch {
                fail(error)
                return
            }
            // A few parents ahead of the requests in flight, not one task a parent at once: each
            // waiting task holds its frames, and a list of 100,000 entries would hold them all.
            await withTaskGroup(of: Void.self) { group in
                var waiting = parents.makeIterator()
                func start() -> Bool {
                    guard let parent = waiting.next() else { return false }
                    group.addTask { await self.fetchPages(index, plan: plan, sender: sender, parent: parent) }
                    return true
                }
                for _ in 0..<(2 * max(1, mapping.fetch.concurrency)) where !start() { break }
                while await group.next() != nil { _ = start() }
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
        var answered = false
        do {
            var page = 1
            var result = try await fetchPage(
                index, plan: plan, step: walker.first(), page: page, parent: parent, sender: sender, limits: limits)
            answered = true
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
                var trial = walker
                var next = try trial.next(after: answer(result, page: page), described: result.described, location: spec.location)
                // An unchanged page's next URL comes from DUMPS (the manifest, the stored body):
                // followed only on the mapping's origin and as recorded, never a `${NAME}` in it
                // expanded; else the page is asked for again, whole.
                if result.unchanged, Self.untrusted(next?.step.url, of: result, spec.paginate) {
                    result = try await fetchPage(
                        index, plan: plan, step: result.step, page: page, parent: parent, sender: sender, limits: limits, conditional: false
                    )
                    trial = walker
                    next = try trial.next(after: answer(result, page: page), described: result.described, location: spec.location)
                }
                walker = trial
                guard let (step, record) = next else {
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
            // A child gone from the service (docs/mapping.md, `missing:`): only its first
            // request; a later page that is gone is the paginator's error.
            if !answered, let parent, spec.missing == .skip, let status = failure.status, status == 404 || status == 410 {
                skipMissing(
                    index, status: status, request: try? plan.request(walker.first(), parent: parent, location: spec.location), parent)
            } else {
                fail(failure)
            }
        } catch {
            fail(FetchFailure.service("\(error)", at: spec.location))
        }
    }

    /// A child of `each` that answered 404 or 410 under `missing: skip`: no file, counted, and
    /// a note at its parent record.
    private func skipMissing(_ index: Int, status: Int, request: FetchRequest?, _ parent: ParentRecord) {
        let described = request.map { "\($0.method.rawValue) \($0.shownURL)" } ?? "the request"
        let note = Diagnostic.note(
            .http,
            "\(described): \(RequestSender.statusText(status)); skipped ('missing: skip'): no file for the record at "
                + "\(parent.pointer.isEmpty ? "the root" : parent.pointer) of \(parent.file)",
            at: parent.place, jsonPath: parent.pointer)
        locked {
            summaries[index]!.missing += 1
            warnings.append(note)
        }
    }

    /// Whether an unchanged page's next URL comes from DUMPS in a form fetch may not follow: on
    /// another origin, or, for a `link` source whose 304 did not repeat its `Link` header, what
    /// the manifest recorded when it holds a `${NAME}` (checked before the URL is resolved,
    /// which would encode the braces) or is no URL of the mapping's origin at all.
    static func untrusted(_ next: String?, of result: PageResult, _ paginator: Paginator?) -> Bool {
        if case .link? = paginator, LinkHeader.target(rel: "next", in: result.links) == nil, let recorded = result.entry.next {
            guard !recorded.contains("${"), let url = PageWalker.resolve(recorded, against: result.url) else { return true }
            return !result.scope.isSameOrigin(url)
        }
        guard let next else { return false }
        return !result.scope.isSameOrigin(next)
    }

    private func answer(_ result: PageResult, page: Int) -> PageWalker.Answer {
        PageWalker.Answer(
            body: result.body, links: result.links, url: result.url, pages: page, recordedNext: result.unchanged ? result.entry.next : nil)
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
        /// The request's step, and where its credentials may go.
        var step: PageWalker.Step
        var scope: CredentialScope
    }

    /// Fetches one page into the staging area (unless DUMPS already holds its bytes).
    private func fetchPage(
        _ index: Int, plan: RequestPlan, step: PageWalker.Step, page: Int, parent: ParentRecord?, sender: RequestSender,
        limits: RequestSender.Limits, conditional allowed: Bool = true
    ) async throws(FetchFailure) -> PageResult {
        let source = mapping.sources![index]
        let spec = source.fetch!
        let path = Self.pagePath(source.path, folder: parent?.folderName, page: spec.paginate == nil ? nil : page)
        let request = try plan.request(step, parent: parent, location: spec.location)
        let described = "\(request.method.rawValue) \(request.shownURL)"
        let compression = Source.compression(ofFile: path)
        let old = manifest.files[path]
        let existing = dumpsFile(path)
        var conditional: [(name: String, value: String)] = []
        if allowed, request.method == .get, let old, old.url == request.shownURL, let existing, existing.sha256 == old.sha256 {
            if let etag = old.etag { conditional.append(("If-None-Match", etag)) }
            if let lastModified = old.lastModified { conditional.append(("If-Modified-Since", lastModified)) }
        }
        var sent = request
        do { sent.bodyFile = try staging.newBodyFile() } catch {
            throw FetchFailure(.io, "cannot fetch \(path): \(error.path): \(error.reason)", at: spec.location, outcome: .failed)
        }
        defer { unlink(sent.bodyFile!) }
        let answer = try await sender.send(sent, conditional: conditional, limits: limits, location: spec.location)
        let stored = staging.dumps + "/" + path
        func read(_ bytes: [UInt8]?, file: String?, compression: DumpCompression, contentType: String?) throws(FetchFailure) -> PageBody {
            try self.read(
                bytes, file: file, compression: compression, source: source, described: described, contentType: contentType, spec: spec)
        }
        if answer.status == 304, let old, let size = existing?.size {
            // The stored file, read as the answer would have been: streamed when it is that large.
            let large = size > CurlTransport.largestInMemory
            let bytes = large ? nil : DumpEncoder.decode(file: stored, as: compression)
            if large || bytes != nil {
                let pageBody = try read(bytes, file: large ? stored : nil, compression: compression, contentType: nil)
                record(index, path: path, entry: old, written: false, fetched: false, records: pageBody.records, bytes: 0)
                return PageResult(
                    path: path, body: pageBody, links: answer.headers("Link"), url: answer.url, entry: old, unchanged: true,
                    described: described, step: step, scope: request.scope)
            }
        }
        let body = try read(
            answer.bodyFile == nil ? answer.body : nil, file: answer.bodyFile, compression: .none,
            contentType: answer.header("Content-Type"))
        let secret: (name: String, offset: Int)?
        let located: ByteSource
        if let file = answer.bodyFile {
            do {
                secret = try variables.secret(inFile: file)
                located = try FileByteSource(path: file)
            } catch {
                throw FetchFailure(.io, "cannot read the body of \(described): \(error)", at: spec.location, outcome: .failed)
            }
        } else {
            secret = variables.secret(in: answer.body)
            located = MemoryByteSource(answer.body)
        }
        if let secret {
            var place = ""
            if let found = try? LineLocator.locate([secret.offset], in: located), case let .lineColumn(line, column)? = found[secret.offset]
            {
                place = " at line \(line), column \(column)"
            }
            throw FetchFailure.data(
                .secret,
                "\(described): the response holds the value of \(secret.name)\(place); fetch never writes a secret into a dump "
                    + "(send it in a header, or ask the service not to echo it)", at: spec.location)
        }
        func cannotWrite(_ error: InputError) -> FetchFailure {
            FetchFailure(.io, "cannot write \(path) (for \(described)): \(error.reason)", at: spec.location, outcome: .failed)
        }
        let digest: String
        let size: Int
        var received = answer.body.count
        var encoded: String?
        if let file = answer.bodyFile {
            received = Self.size(of: file)
            let target = compression == .none ? file : file + ".encoded"
            do { (digest, size) = try DumpEncoder.encode(file: file, as: compression, to: target) } catch {
                throw cannotWrite(error)
            }
            encoded = target
        } else {
            let file = DumpEncoder.encode(answer.body, as: compression)
            (digest, size) = (Self.sha256(file), file.count)
            encoded = nil
            if existing?.sha256 != digest {
                do { try staging.write(file, at: path) } catch {
                    throw cannotWrite(error)
                }
            }
        }
        let same = existing?.sha256 == digest
        if let encoded {
            defer { unlink(encoded) }
            if !same {
                do { try staging.place(encoded, at: path) } catch {
                    throw cannotWrite(error)
                }
            }
        }
        let entry = FetchManifest.Entry(
            source: source.path, url: request.shownURL, etag: answer.header("ETag"), lastModified: answer.header("Last-Modified"),
            sha256: digest, size: size, next: nil)
        record(index, path: path, entry: entry, written: !same, fetched: true, records: body.records, bytes: received)
        return PageResult(
            path: path, body: body, links: answer.headers("Link"), url: answer.url, entry: entry, unchanged: false, described: described,
            step: step, scope: request.scope)
    }

    /// A body read as the build reads it: from memory, or streamed from `file` (a body too large
    /// to hold, or a stored page as large). Its messages never show a secret.
    private func read(
        _ bytes: [UInt8]?, file: String?, compression: DumpCompression, source: Source, described: String, contentType: String?,
        spec: FetchSpec
    ) throws(FetchFailure) -> PageBody {
        do {
            if let file {
                return try PageBody(
                    streaming: { try compression.decompressing(try FileByteSource(path: file), path: file) }, source: source,
                    described: described, contentType: contentType, location: spec.location, graphQL: spec.method == .post,
                    paged: spec.paginate != nil, paths: spec.paginate?.keyPaths ?? [], redact: variables.redact)
            }
            return try PageBody(
                bytes ?? [], source: source, described: described, contentType: contentType, location: spec.location,
                graphQL: spec.method == .post, paged: spec.paginate != nil, redact: variables.redact)
        } catch {
            // The message may quote the body, which may quote a secret.
            var failure = error
            failure.diagnostic.message = variables.redact(failure.diagnostic.message)
            throw failure
        }
    }

    private static func size(of file: String) -> Int {
        var status = stat()
        return stat(file, &status) == 0 ? Int(status.st_size) : 0
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

    /// The digest of DUMPS' copy of `path`, if there is a regular file there, read in blocks.
    private func dumpsFile(_ path: String) -> (sha256: String, size: Int)? {
        DumpEncoder.digest(file: staging.dumps + "/" + path)
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hex(bytes)
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
}
