import Foundation
import SeederCore

/// The body of the fuzz target `fetch` (fuzz/README.md): any bytes read as an HTTP response and
/// put through what `seeder fetch` does with one, the transport left out. The one public entry
/// point of this module for the fuzz package, which links a build of it; the tests replay the
/// corpus through it.
///
/// The bytes: a selector byte, then the head as libcurl keeps it (the status line and the header
/// lines, up to and with the blank line), then the body. The selector picks the source's shape
/// (`selector % 6`: the root, `keyPath` `data`, `data.results`, `data` with `keyedBy`, JSON Lines,
/// a GraphQL POST), its paginator (`selector / 6 % 10`: none, link, next, a cursor in the query
/// with `more`, in the body, without `more`, offset, offset with total, page, page with pages),
/// and `maxPages` and whether the request was conditional (`selector / 60`).
public enum FetchResponseFuzzing {
    /// Runs `bytes` through the header parser, the request sender (its waits made instant), the
    /// page body, the paginator and the request plan, and through the manifest reader as the
    /// manifest's bytes; returns the invariants they broke, empty when all held: nothing traps,
    /// every failure is a `FetchFailure` with a message, a next URL is http or https, a POST body
    /// stays JSON, no message of the sender shows the secret, and the same bytes give the same
    /// outcome twice. The sender's task runs on the calling thread, which waits for any job of it
    /// that runs elsewhere: call it from a thread, not from a task.
    public static func run(_ bytes: [UInt8]) -> [String] {
        let first = outcome(bytes)
        let second = outcome(bytes)
        var problems = first.problems
        if first.transcript != second.transcript {
            problems.append("another outcome the second time: \(first.transcript) then \(second.transcript)")
        }
        return problems
    }

    /// The bytes split: the selector, the head (with its final blank line) and the body.
    static func split(_ bytes: [UInt8]) -> (selector: UInt8, head: [UInt8], body: [UInt8]) {
        guard let selector = bytes.first else { return (0, [], []) }
        let rest = bytes.dropFirst()
        let blank: [UInt8] = [13, 10, 13, 10]
        var end = rest.startIndex
        while end + 4 <= rest.endIndex {
            if rest[end..<end + 4].elementsEqual(blank) { return (selector, Array(rest[..<(end + 4)]), Array(rest[(end + 4)...])) }
            end += 1
        }
        return (selector, Array(rest), [])
    }

    /// The status of a status line (`HTTP/1.1 429 Too Many Requests`), as libcurl reads it: 200
    /// when it has no three-digit status.
    static func status(ofHead head: String) -> Int {
        let line = head.split(separator: "\r\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2, words[0].hasPrefix("HTTP/"), words[1].count == 3, let status = Int(words[1]) else { return 200 }
        return status
    }

    /// What one run did, as text, and the invariants it broke.
    static func outcome(_ bytes: [UInt8]) -> (transcript: [String], problems: [String]) {
        var transcript: [String] = []
        var problems: [String] = []
        let (selector, headBytes, bodyBytes) = split(bytes)
        let head = String(decoding: headBytes, as: UTF8.self)
        let headers = CurlTransport.headers(head)
        let status = Self.status(ofHead: head)
        transcript.append("status \(status), headers \(headers.map { "\($0.name): \($0.value)" })")

        let setup = Setup.shared
        let source = setup.sources[Int(selector) % setup.sources.count]
        let spec = source.fetch!
        let extra = Int(selector) / setup.sources.count
        let plan = RequestPlan(spec: spec, defaults: setup.defaults, variables: setup.variables)
        var walker = PageWalker(paginator: spec.paginate, maxPages: [100, 1, 2, 100, 3][extra % 5])
        // Without a parent, a request is always made (a parent's values are what it may refuse).
        guard let request = try? plan.request(walker.first(), parent: nil, location: spec.location) else {
            return (transcript, ["the first request of a source without parents was refused"])
        }
        problems += checkRequest(request, spec: spec)
        let answer = HTTPAnswer(status: status, headers: headers, body: bodyBytes, url: request.url)
        for value in answer.headers("Link") {
            transcript.append("links \(LinkHeader.links(in: value).map { "\($0.target) \($0.relations)" })")
        }

        // The sender, with the answer as every attempt's.
        let sender = RequestSender(
            transport: FixedTransport(answer: answer), gate: RequestGate(concurrency: 1, rate: nil), variables: setup.variables,
            counters: FetchCounters())
        transcript.append("Retry-After \(sender.retryAfter(answer) != nil), X-RateLimit-Reset \(sender.rateLimitReset(answer) != nil)")
        let conditional: [(name: String, value: String)] = extra >= 3 && spec.method == .get ? [("If-None-Match", "\"fuzz\"")] : []
        switch send(request, sender: sender, conditional: conditional, location: spec.location) {
        case let .success(sent): transcript.append("sent: status \(sent.status)")
        case let .failure(failure):
            problems += check(failure, "the sender")
            if failure.diagnostic.message.contains(setup.secret) { problems.append("the sender shows the secret: \(failure.diagnostic)") }
            // Waits are counted from now: their figures may change from one run to the next.
            transcript.append("not sent: " + String(failure.diagnostic.message.map { $0.isNumber ? "#" : $0 }))
        }

        // The manifest: the body as DUMPS/.seeder-fetch.json.
        let manifest = setup.readManifest(answer.body)
        if let problem = manifest.problem { transcript.append("manifest: \(problem)") }
        for name in manifest.manifest.files.keys.sorted() { transcript.append("manifest \(name): \(manifest.manifest.files[name]!)") }
        let path = FetchRun.pagePath(source.path, folder: nil, page: spec.paginate == nil ? nil : 1)
        let recorded = status == 304 ? manifest.manifest.files[path]?.next : nil

        // The page as the build reads it, and the pages after it.
        let described = "\(request.method.rawValue) \(request.shownURL)"
        let body: PageBody
        do {
            body = try PageBody(
                answer.body, source: source, described: described, contentType: answer.header("Content-Type"), location: spec.location,
                graphQL: spec.method == .post, paged: spec.paginate != nil)
            transcript.append("records \(body.records)")
        } catch {
            problems += check(error, "the page body")
            transcript.append("page body: \(error.diagnostic.message)")
            return (transcript, problems)
        }
        do {
            if let rest = try walker.remaining(after: body, described: described, location: spec.location) {
                transcript.append("remaining \(rest.count)")
                for step in rest.prefix(2) + rest.suffix(1) { problems += checkStep(step, plan: plan, spec: spec) }
            }
        } catch {
            problems += check(error, "remaining")
            transcript.append("remaining: \(error.diagnostic.message)")
        }
        // The same page answered twice: the second time, a next page it gave before.
        for pages in 1...2 {
            let page = PageWalker.Answer(body: body, links: answer.headers("Link"), url: answer.url, pages: pages, recordedNext: recorded)
            do {
                guard let (step, record) = try walker.next(after: page, described: described, location: spec.location) else {
                    transcript.append("last page")
                    break
                }
                transcript.append("next \(record)")
                problems += checkStep(step, plan: plan, spec: spec)
            } catch {
                problems += check(error, "the paginator")
                transcript.append("paginator: \(error.diagnostic.message)")
                break
            }
        }
        return (transcript, problems)
    }

    /// A failure says what went wrong, as an error with the exit status of its kind.
    static func check(_ failure: FetchFailure, _ stage: String) -> [String] {
        var problems: [String] = []
        if failure.diagnostic.message.isEmpty { problems.append("\(stage): a failure without a message") }
        if failure.diagnostic.severity != .error { problems.append("\(stage): a failure that is no error: \(failure.diagnostic)") }
        if ![.invalid, .failed].contains(failure.outcome) {
            problems.append("\(stage): outcome \(failure.outcome.name): \(failure.diagnostic)")
        }
        return problems
    }

    /// A step's request goes to an http or https URL, with a body that is JSON when there is one.
    static func checkStep(_ step: PageWalker.Step, plan: RequestPlan, spec: FetchSpec) -> [String] {
        var problems: [String] = []
        if case let .url(url) = step, !isHTTP(url) { problems.append("a next URL that is not http or https: \(url)") }
        guard let request = try? plan.request(step, parent: nil, location: spec.location) else {
            return problems + ["a step's request without parents was refused"]
        }
        return problems + checkRequest(request, spec: spec)
    }

    static func checkRequest(_ request: FetchRequest, spec: FetchSpec) -> [String] {
        var problems: [String] = []
        if !isHTTP(request.url) { problems.append("a request to a URL that is not http or https: \(request.url)") }
        if spec.body != nil, (try? JSONDocument(parsing: request.body ?? [])) == nil {
            problems.append("a POST body that is not JSON: \(String(decoding: request.body ?? [], as: UTF8.self))")
        }
        return problems
    }

    static func isHTTP(_ url: String) -> Bool {
        guard let scheme = URL(string: url)?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// The sender's outcome: run in a task cancelled from its start, so that its waits end at once
    /// (their figures are computed and converted all the same), on this thread, so that the task
    /// is made and freed within the run, as libFuzzer's leak check wants.
    static func send(_ request: FetchRequest, sender: RequestSender, conditional: [(name: String, value: String)], location: SourceLocation)
        -> Result<HTTPAnswer, FetchFailure>
    {
        let executor = CallerExecutor()
        let task = Task(executorPreference: executor) {
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(FetchFailure) {
                let limits = RequestSender.Limits(retries: 2, timeout: 30)
                executor.finish(.success(try await sender.send(request, conditional: conditional, limits: limits, location: location)))
            } catch {
                executor.finish(.failure(error))
            }
        }
        let result = executor.runJobs()
        withExtendedLifetime(task) {}
        return result
    }

    /// Runs the jobs of a task on the thread that waits for it.
    private final class CallerExecutor: TaskExecutor, @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs: [UnownedJob] = []
        private var result: Result<HTTPAnswer, FetchFailure>?

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        /// What the task's last job gives.
        func finish(_ result: Result<HTTPAnswer, FetchFailure>) {
            condition.lock()
            self.result = result
            condition.unlock()
        }

        /// Runs jobs until the task has given its result and no job is left; the result.
        func runJobs() -> Result<HTTPAnswer, FetchFailure> {
            while true {
                condition.lock()
                while jobs.isEmpty, result == nil { condition.wait() }
                if jobs.isEmpty, let result {
                    condition.unlock()
                    return result
                }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    /// The same answer to every request.
    private struct FixedTransport: HTTPTransport {
        let answer: HTTPAnswer

        func send(_ request: FetchRequest, extraHeaders: [(name: String, value: String)], timeout: Double) async throws(TransportFailure)
            -> HTTPAnswer
        {
            answer
        }

        func shutdown() async {}
    }

    /// What every run shares: a mapping with a source for each shape and paginator, its variables,
    /// and a DUMPS folder for the manifest.
    final class Setup: @unchecked Sendable {
        static let shared = Setup()

        let sources: [Source]
        let defaults: FetchDefaults
        let variables: FetchVariables
        let secret = "fuzz-secret-token-0123"
        let dumps: String
        private let manifestLock = NSLock()

        static let shapes = [
            "", "keyPath: data, ", "keyPath: data.results, ", "keyPath: data, keyedBy: id, ", "", "keyPath: data.items.nodes, ",
        ]
        static let paginators = [
            "", "link", "{ next: links.next }", "{ cursor: starting_after, value: data.@last.id, more: has_more }",
            "{ cursor: { body: variables.after }, value: data.items.pageInfo.endCursor, more: data.items.pageInfo.hasNextPage }",
            "{ cursor: cursor, value: meta.next_cursor }", "{ offset: offset, limit: limit, size: 20 }",
            "{ offset: offset, limit: limit, size: 20, total: data.total }", "{ page: page, size: 20, sizeParam: per_page }",
            "{ page: page, start: 0, pages: meta.total_pages }",
        ]
        static let graphQL = #"{ query: "query($after: String) { items(after: $after) { nodes { id } } }", variables: { after: null } }"#

        /// The mapping: source `shape + 6 * paginator`; the shape 5 and the cursor in the body POST.
        static var yaml: String {
            var sources: [String] = []
            for paginator in paginators.indices {
                for shape in shapes.indices {
                    let path = "s\(shape)p\(paginator)" + (paginator == 0 ? "" : "/*") + (shape == 4 ? ".jsonl" : ".json")
                    let post = shape == 5 || paginator == 4 ? "method: POST, body: \(graphQL), " : ""
                    let paginate = paginator == 0 ? "" : "paginate: \(paginators[paginator]), "
                    sources.append("  - { path: \(path), entity: Item, \(shapes[shape])fetch: { \(post)\(paginate)url: items } }")
                }
            }
            return """
                seeder: 1
                fetch:
                  base: https://api.example.com/v1/
                  headers: { Authorization: "Bearer ${API_TOKEN}" }
                  query: { locale: en }
                entities:
                  Item:
                    attributes:
                      id: string
                sources:

                """ + sources.joined(separator: "\n") + "\n"
        }

        private init() {
            let sink = DiagnosticSink()
            guard let mapping = MappingLoader().load(yaml: Self.yaml, file: "fetch-fuzz.yaml", diagnostics: sink), !sink.hasErrors else {
                fatalError("the fetch fuzz target's mapping: \(sink.diagnostics.map(\.description).joined(separator: "\n"))")
            }
            sources = mapping.sources ?? []
            defaults = mapping.fetch
            variables = FetchVariables(
                reading: Fetcher.templates(of: sources.map { $0.fetch! }, defaults: defaults), from: ["API_TOKEN": secret],
                diagnostics: sink)
            dumps = FileManager.default.temporaryDirectory.appendingPathComponent("seeder-fetch-fuzz-\(getpid())").path
            try? FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
            atexit { try? FileManager.default.removeItem(atPath: Setup.shared.dumps) }
        }

        /// `bytes` as DUMPS' manifest, read as fetch reads it; one run at a time (the tests run
        /// in parallel).
        func readManifest(_ bytes: [UInt8]) -> (manifest: FetchManifest, problem: String?) {
            manifestLock.lock()
            defer { manifestLock.unlock() }
            let path = dumps + "/" + FetchManifest.fileName
            // Written in place: Foundation's writes sync the file, which took a fifth of a run.
            guard let file = fopen(path, "wb"), fwrite(bytes, 1, bytes.count, file) == bytes.count, fclose(file) == 0 else {
                fatalError("cannot write \(path)")
            }
            let read = FetchManifest.read(dumps: dumps)
            return (read.manifest, read.problem?.replacingOccurrences(of: dumps, with: "DUMPS"))
        }
    }
}
