import Foundation
import SeederCore

/// Sends one request until it gets an answer to use: waits as 429 and 503 ask (`Retry-After`,
/// `X-RateLimit-Reset`), retries other 5xx, timeouts and broken connections with jittered
/// exponential backoff, and gives up after `retries` with every attempt's outcome
/// (docs/commands.md, fetch: Failures).
struct RequestSender: Sendable {
    let transport: HTTPTransport
    let gate: RequestGate
    let variables: FetchVariables
    /// What the counters of the source's summary add up.
    let counters: FetchCounters
    /// Told of each retry as it is about to wait (`--progress` shows it).
    var retrying: (@Sendable (String) -> Void)? = nil

    /// The longest wait a server may ask for; a longer one is an error that says how long.
    static let longestWait: Double = 60
    /// The first backoff, doubled on each retry.
    static let firstBackoff: Double = 0.5

    struct Limits {
        var retries: Int
        var timeout: Double
    }

    /// The answer: a 2xx, or a 304 when `conditional` headers were sent. `location` is the
    /// source's, for the failure.
    func send(
        _ request: FetchRequest, conditional: [(name: String, value: String)], limits: Limits, location: SourceLocation
    ) async throws(FetchFailure) -> HTTPAnswer {
        var outcomes: [String] = []
        var attempt = 0
        while true {
            attempt += 1
            let result: Result<HTTPAnswer, TransportFailure> = await gate.run {
                do {
                    return .success(try await transport.send(request, extraHeaders: conditional, timeout: limits.timeout))
                } catch {
                    return .failure(error as! TransportFailure)
                }
            }
            counters.add(requests: 1)
            var wait: Double
            switch result {
            case let .failure(failure):
                outcomes.append(failure.description)
                let retryable = request.method == .get ? failure.isRetryable : failureBeforeAnswer(failure)
                guard retryable, attempt <= limits.retries else {
                    throw giveUp(request, outcomes: outcomes, location: location, retried: attempt > 1)
                }
                wait = backoff(attempt)
            case let .success(answer):
                if let seconds = rateLimitReset(answer),
                    answer.header("X-RateLimit-Remaining")?.trimmingCharacters(in: .whitespaces) == "0",
                    seconds <= Self.longestWait
                {
                    await gate.pause(seconds: seconds)
                }
                if (200..<300).contains(answer.status) || (answer.status == 304 && !conditional.isEmpty) { return answer }
                outcomes.append(Self.statusText(answer.status))
                switch answer.status {
                case 429, 503,
                    403 where answer.header("X-RateLimit-Remaining") == "0":
                    let asked = retryAfter(answer) ?? rateLimitReset(answer)
                    if let asked, asked > Self.longestWait {
                        throw FetchFailure.service(
                            "\(request.method.rawValue) \(request.shownURL): \(Self.statusText(answer.status)); the server asks to wait "
                                + "\(Self.duration(asked)), longer than the \(Int(Self.longestWait)) s fetch waits: try again later",
                            at: location)
                    }
                    guard attempt <= limits.retries else { throw giveUp(request, outcomes: outcomes, location: location, retried: true) }
                    wait = asked ?? backoff(attempt)
                case 500..<600:
                    guard request.method == .get, attempt <= limits.retries else {
                        throw giveUp(request, outcomes: outcomes, location: location, retried: attempt > 1)
                    }
                    wait = backoff(attempt)
                case 401, 403:
                    let carried =
                        request.credentials.isEmpty
                        ? "; the request carries no credential (no ${NAME} in its headers or query)"
                        : "; check \(request.credentials.joined(separator: ", "))"
                    var redirected = ""
                    if let to = Origin(request.url), !request.scope.isSameOrigin(request.url) {
                        redirected = " (a URL of another origin than the mapping's, \(to): fetch sends no credential there)"
                    } else if let to = Origin(answer.url), !request.scope.isSameOrigin(answer.url) {
                        redirected = " (answered by \(to.host) after a redirect: credentials are never sent to another origin)"
                    }
                    let excerpt = excerpt(answer)
                    throw FetchFailure.service(
                        "\(request.method.rawValue) \(request.shownURL): \(Self.statusText(answer.status))\(redirected)\(carried)"
                            + (excerpt.isEmpty ? "" : "; the service says: \(excerpt)"), at: location)
                default:
                    let excerpt = excerpt(answer)
                    var failure = FetchFailure.service(
                        "\(request.method.rawValue) \(request.shownURL): \(Self.statusText(answer.status))"
                            + (excerpt.isEmpty ? "" : ": \(excerpt)"), at: location)
                    failure.status = answer.status
                    throw failure
                }
            }
            counters.add(retries: 1)
            wait = min(max(wait, 0), Self.longestWait)
            retrying?(
                "\(request.method.rawValue) \(request.shownURL): \(variables.redact(outcomes.last ?? "")); retry \(attempt) of \(limits.retries) "
                    + "in \(Self.duration(wait))")
            if wait > 0 { try? await Task.sleep(for: .milliseconds(Int64(wait * 1000))) }
        }
    }

    private func failureBeforeAnswer(_ failure: TransportFailure) -> Bool {
        if case .notConnected = failure { return true }
        return false
    }

    /// The failure after the last attempt: each distinct outcome once, with how many times it
    /// happened, in the order they first did.
    private func giveUp(_ request: FetchRequest, outcomes: [String], location: SourceLocation, retried: Bool) -> FetchFailure {
        var distinct: [(outcome: String, count: Int)] = []
        for outcome in outcomes {
            if let index = distinct.firstIndex(where: { $0.outcome == outcome }) {
                distinct[index].count += 1
            } else {
                distinct.append((outcome, 1))
            }
        }
        let listed = distinct.map { $0.count == 1 ? $0.outcome : "\($0.outcome) (\($0.count) times)" }.joined(separator: "; ")
        let what = retried ? "gave up after \(outcomes.count) attempts: \(listed)" : outcomes.last ?? "no answer"
        return .service("\(request.method.rawValue) \(request.shownURL): \(variables.redact(what))", at: location)
    }

    /// 0.5 s, 1 s, 2 s, ... each between 75% and 125% of that, so that parallel requests that
    /// failed together do not retry together; never more than the longest wait.
    private func backoff(_ attempt: Int) -> Double {
        min(Self.firstBackoff * pow(2, Double(min(attempt - 1, 16))), Self.longestWait) * Double.random(in: 0.75...1.25)
    }

    /// `Retry-After` in seconds: a number of seconds (digits only, as RFC 9110 writes it), or
    /// an HTTP date. Anything else is no answer, and the backoff applies.
    func retryAfter(_ answer: HTTPAnswer) -> Double? {
        guard let value = answer.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Self.seconds(value, fraction: false) { return seconds }
        guard let date = HTTPDate.parse(value) else { return nil }
        return Self.clamped(date.timeIntervalSinceNow)
    }

    /// `X-RateLimit-Reset` in seconds from now: a Unix time (GitHub), or seconds when small.
    func rateLimitReset(_ answer: HTTPAnswer) -> Double? {
        guard
            let value = answer.header("X-RateLimit-Reset").flatMap({ Self.seconds($0.trimmingCharacters(in: .whitespaces), fraction: true) }
            )
        else { return nil }
        if value > 1_000_000_000 { return Self.clamped(value - Date().timeIntervalSince1970) }
        return value
    }

    /// The longest time a number from the service stands for: any longer is as long (a year).
    static let longestNumber: Double = 365 * 86400

    /// A count of seconds the service sent (digits, with a fraction when `fraction`), between 0
    /// and `longestNumber`; `nil` when it is not one. A number is data: `1e400`, `nan` or a
    /// hundred digits is never a trap.
    static func seconds(_ text: String, fraction: Bool) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.count == 1 || fraction,
            parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } })
        else { return nil }
        // Leading zeros aside, more than 12 digits is longer than any wait.
        let whole = parts[0].drop { $0 == "0" }
        guard whole.count <= 12 else { return longestNumber * 1000 }
        return Double(text).map(clamped)
    }

    private static func clamped(_ seconds: Double) -> Double {
        seconds.isNaN ? 0 : min(max(seconds, 0), longestNumber * 1000)
    }

    static func statusText(_ status: Int) -> String {
        let reasons = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 410: "Gone",
            422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout", 304: "Not Modified",
        ]
        return "status \(status)" + (reasons[status].map { " \($0)" } ?? "")
    }

    /// The first 200 characters of a body, on one line, secrets hidden before it is cut.
    func excerpt(_ answer: HTTPAnswer) -> String {
        Self.excerpt(answer.bodyPrefix(Self.excerptWindow + 1), redact: variables.redact)
    }

    /// The first 200 characters of `body`, on one line; `redact` runs before any cut, so that no
    /// part of a secret is shown.
    static func excerpt(_ body: [UInt8], redact: (String) -> String) -> String {
        let text = redact(String(decoding: safePrefix(body), as: UTF8.self)).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return text.count > 200 ? String(text.prefix(200)) + "..." : text
    }

    /// How much of a body an excerpt is made from: secrets are hidden in it before the cut.
    static let excerptWindow = 65536

    /// At most `excerptWindow` bytes of `body`, less its last KiB when it is cut there, so that a
    /// secret the cut would halve is not left in part.
    static func safePrefix(_ body: [UInt8]) -> ArraySlice<UInt8> {
        body.count <= excerptWindow ? body[...] : body.prefix(excerptWindow - 1024)
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "ever" }
        if seconds >= 2 * 86400 { return "\(Int(min(seconds, longestNumber) / 86400)) days" + (seconds > longestNumber ? " or more" : "") }
        if seconds >= 120 { return "\(Int(seconds / 60)) min" }
        // Under 10 s, with its tenths: a backoff of 0.47 s is not "1 s".
        return seconds < 10 ? String(format: "%.1f s", max(seconds, 0)) : "\(Int(seconds.rounded(.up))) s"
    }
}

/// An HTTP date (RFC 9110: IMF-fixdate, and the two obsolete forms).
enum HTTPDate {
    static func parse(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

/// A source's counts, added to from its parallel requests.
final class FetchCounters: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var requests = 0
    private(set) var retries = 0

    func add(requests: Int = 0, retries: Int = 0) {
        lock.lock()
        self.requests += requests
        self.retries += retries
        lock.unlock()
    }
}
