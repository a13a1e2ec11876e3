/// Runs `body`, then `cleanUp` whether `body` threw or not: a `defer` that can await (a test's
/// clean-up that runs a program, an `umount`, awaits it).
public func withCleanUp<T>(_ body: () async throws -> T, cleanUp: () async -> Void) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        await cleanUp()
        throw error
    }
    await cleanUp()
    return result
}
