import CSeederSignals
import Foundation

/// Makes an interrupted build leave no temporary file behind (docs/seed.md, Atomic output). The
/// output itself is only ever replaced by a rename, so it needs no cleaning.
///
/// The handler is C (`CSeederSignals`): one written in Swift iterated its array through
/// generic code whose type metadata the runtime instantiates under a lock, and a signal that
/// came while the interrupted thread held that lock hung the build for good.
enum Interruption {
    @Sendable static func removeOnInterrupt(_ paths: [String]) {
        let copies = paths.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) }
        _ = pointers.withUnsafeBufferPointer { seeder_remove_on_interrupt($0.baseAddress, Int32($0.count)) }
    }
}
