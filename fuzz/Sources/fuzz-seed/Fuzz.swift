import SeederStore

/// libFuzzer's entry point (libFuzzer brings `main`): a broken invariant is a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let problems = SeedFileFuzzing.run(Array(UnsafeBufferPointer(start: data, count: size)))
    if !problems.isEmpty { fatalError(problems.joined(separator: "\n")) }
    return 0
}
