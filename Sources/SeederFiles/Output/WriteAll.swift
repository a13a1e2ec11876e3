import Foundation

/// Writes all of `bytes` to `descriptor`, going on after short writes and `EINTR`. Returns
/// `0`, or the `errno` of the failure (`ENOSPC` for a write that wrote nothing), for the
/// caller to name the file it was writing.
public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var written = 0
    while written < bytes.count {
        let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
        if result < 0, errno == EINTR { continue }
        guard result > 0 else { return result < 0 ? errno : ENOSPC }
        written += result
    }
    return 0
}
