/// A value made once, by the first caller that asks; the others await that making (a lock held
/// across the making could not await it).
public actor Once<Value: Sendable> {
    private var making: Task<Value, any Error>?

    public init() {}

    /// The value, made by `make` unless it was made or is being made.
    public func value(_ make: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let making { return try await making.value }
        let task = Task(operation: make)
        making = task
        return try await task.value
    }
}
