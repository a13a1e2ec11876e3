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
                if let seconds = rateLimitReset(answer), answer.header("X-RateLimit-Remaining") == "0", seconds <= Self.longestWait {
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
                    if let from = URL(string: request.url)?.host, let to = URL(string: answer.url)?.host, from != to {
                        redirected = " (answered by \(to) after a redirect: Authorization and Cookie are not sent to another host)"
                    }
                    let excerpt = variables.redact(Self.excerpt(answer.body))
                    throw FetchFailure.service(
                        "\(request.method.rawValue) \(request.shownURL): \(Self.statusText(answer.status))\(redirected)\(carried)"
                            + (excerpt.isEmpty ? "" : "; the service says: \(excerpt)"), at: location)
                default:
                    let excerpt = variables.redact(Self.excerpt(answer.body))
                    throw FetchFailure.service(
                        "\(request.method.rawValue) \(request.shownURL): \(Self.statusText(answer.status))"
                            + (excerpt.isEmpty ? "" : ": \(excerpt)"), at: location)
                }
            }
            counters.add(retries: 1)
            if wait > 0 { try? await Task.sleep(for: .nanoseconds(Int64(wait * 1e9))) }
        }
    }

    private func failureBeforeAnswer(_ failure: TransportFailure) -> Bool {
        if case .notConnected = failure { return true }
        return false
    }

    private func giveUp(_ request: FetchRequest, outcomes: [String], location: SourceLocation, retried: Bool) -> FetchFailure {
        let what = retried ? "gave up after \(outcomes.count) attempts: \(outcomes.joined(separator: "; "))" : outcomes.last ?? "no answer"
        return .service("\(request.method.rawValue) \(request.shownURL): \(variables.redact(what))", at: location)
    }

    /// 0.5 s, 1 s, 2 s, ... each between 75% and 125% of that, so that parallel requests that
    /// failed together do not retry together.
    private func backoff(_ attempt: Int) -> Double {
        Self.firstBackoff * pow(2, Double(attempt - 1)) * Double.random(in: 0.75...1.25)
    }

    /// `Retry-After` in seconds: a number of seconds, or an HTTP date.
    func retryAfter(_ answer: HTTPAnswer) -> Double? {
        guard let value = answer.header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, date.timeIntervalSinceNow)
    }

    /// `X-RateLimit-Reset` in seconds from now: a Unix time (GitHub), or seconds when small.
    func rateLimitReset(_ answer: HTTPAnswer) -> Double? {
        guard let value = answer.header("X-RateLimit-Reset").flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else {
            return nil
        }
        if value > 1_000_000_000 { return max(0, value - Date().timeIntervalSince1970) }
        return max(0, value)
    }

    static func statusText(_ status: Int) -> String {
        let reasons = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 410: "Gone",
            422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout", 304: "Not Modified",
        ]
        return "status \(status)" + (reasons[status].map { " \($0)" } ?? "")
    }

    /// The first 200 characters of a body, on one line.
    static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(800), as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return text.count > 200 ? String(text.prefix(200)) + "..." : text
    }

    static func duration(_ seconds: Double) -> String {
        seconds >= 120 ? "\(Int(seconds / 60)) min" : "\(Int(seconds.rounded(.up))) s"
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
