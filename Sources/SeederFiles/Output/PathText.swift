/// Path text taken apart as `dirname` does, by hand: Foundation's
/// `NSString.deletingLastPathComponent` on Linux traps on a name of one character (`-o a`,
/// `--report -`).
package enum PathText {
    /// The most bytes a name in a directory may have (`NAME_MAX` on Linux and macOS).
    package static let nameLimit = 255

    /// The directory part of `path`, as `NSString.deletingLastPathComponent` gives it: `""` for a
    /// bare name, `/` for a name in the root; trailing slashes are not a component.
    package static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var directory = trimmed[..<slash]
        while directory.hasSuffix("/") { directory = directory.dropLast() }
        return directory.isEmpty ? "/" : String(directory)
    }

    /// The last component of `path` (trailing slashes are not one): `seed.sqlite` for
    /// `out/seed.sqlite`.
    package static func name(of path: String) -> Substring {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return trimmed[trimmed.index(after: slash)...]
    }

    /// The hidden name of a file a command writes beside `name` (docs/commands.md, Files a command
    /// touches): `.<name><suffix>`, so that a reader of the directory sees whose it is. When that
    /// would leave no room under `nameLimit` for SQLite's own `-journal` after it, the name is cut
    /// (at a character) and a digest of the whole name put after it: any name a file may have
    /// has temporary files that fit, and two long names that share their start have two.
    package static func hiddenName(beside name: Substring, suffix: String) -> String {
        let room = nameLimit - "-journal".utf8.count - suffix.utf8.count - 1
        if name.utf8.count <= room { return "." + name + suffix }
        let digest = "~" + fnv1a(name.utf8)
        var cut = name
        while cut.utf8.count > room - digest.utf8.count { cut = cut.dropLast() }
        return "." + cut + digest + suffix
    }

    /// A name's bytes as text: valid UTF-8 as it is, any other byte as `\xE9` (`caf\xE9.json`),
    /// so that a name that is not UTF-8 is shown as it is, not as another name.
    package static func shown(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length =
                switch lead {
                case 0..<0x80: 1
                case 0xC2...0xDF: 2
                case 0xE0...0xEF: 3
                case 0xF0...0xF4: 4
                default: 0
                }
            if length > 0, index + length <= bytes.count, let scalar = String(validating: bytes[index..<(index + length)], as: UTF8.self) {
                text += scalar
                index += length
            } else {
                let hex = String(lead, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" : "") + hex
                index += 1
            }
        }
        return text
    }

    /// FNV-1a, 64 bits, as 16 hexadecimal digits: a short name for bytes, not a checksum.
    private static func fnv1a(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
