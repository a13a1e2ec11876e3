import Foundation

/// How many requests are in flight at once over every source (`concurrency`), how often one may
/// start (`rate`), and when the server asked everyone to wait (`X-RateLimit-Reset`).
actor RequestGate {
    private let concurrency: Int
    private let interval: Double?
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var nextStart: ContinuousClock.Instant
    private var pausedUntil: ContinuousClock.Instant?

    init(concurrency: Int, rate: Double?) {
        self.concurrency = concurrency
        self.interval = rate.map { 1 / $0 }
        self.nextStart = .now
    }

    /// Runs `body` once a place is free and the rate and any pause allow a start.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        await pace()
        return try await body()
    }

    private func acquire() async {
        if inFlight < concurrency {
            inFlight += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            inFlight -= 1
        } else {
            waiting.removeFirst().resume()  // the place passes straight on
        }
    }

    /// Waits for this request's turn under `rate` and any pause.
    private func pace() async {
        var start = ContinuousClock.now
        if let pausedUntil, pausedUntil > start { start = pausedUntil }
        if let interval {
            if nextStart > start { start = nextStart }
            nextStart = start + .nanoseconds(Int64(interval * 1e9))
        }
        let delay = start - .now
        if delay > .zero { try? await Task.sleep(for: delay) }
    }

    /// Holds every request back until `seconds` from now (a rate limit's reset).
    func pause(seconds: Double) {
        let until = ContinuousClock.now + .nanoseconds(Int64(seconds * 1e9))
        if pausedUntil.map({ until > $0 }) ?? true { pausedUntil = until }
    }
}
