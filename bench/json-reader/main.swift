// seeder-json-bench: measures the streaming JSON reader alone.
//
//   seeder-json-bench generate FILE N [--lines]   write N flat records (issue 5's "flat" shape)
//   seeder-json-bench read FILE [--lines] [--key-path a.b] [--repeat K]
//   seeder-json-bench map FILE [--lines] [--repeat K]   read and map with the flat Pod mapping
//
// `read` and `map` print records, MB/s (median of K runs) and the peak resident set size.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SeederCore

/// SplitMix64: a fixed-seed generator, so every run writes the same bytes.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

let words = ["swift", "sqlite", "json", "seed", "mapper", "network", "cache", "image", "layout", "async",
             "parser", "kit", "core", "view", "data", "sync", "store", "model", "fast", "tiny"]
let licenses = ["MIT", "Apache-2.0", "BSD-3-Clause", "ISC", "MPL-2.0"]

func flatRecord(_ id: Int, _ random: inout SplitMix64) -> String {
    func phrase(_ count: Int) -> String { (0..<count).map { _ in words[random.below(words.count)] }.joined(separator: " ") }
    let name = words[random.below(words.count)] + words[random.below(words.count)].initialCapital + "\(id)"
    let day = 1 + random.below(28)
    let month = 1 + random.below(12)
    let stamp = "20\(10 + random.below(15))-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)T\(10 + random.below(14)):\(10 + random.below(50)):\(10 + random.below(50))Z"
    let summary = phrase(8 + random.below(8)).replacingQuotes()
    let rating = Double(random.below(5000)) / 1000
    return """
    {"id":\(id),"name":"\(name)","summary":"\(summary)","homepage":"https://github.com/\(name.lowercased())/\(name)","license":"\(licenses[random.below(licenses.count)])","version":"\(random.below(10)).\(random.below(20)).\(random.below(50))","downloads":\(random.below(10_000_000)),"rating":\(rating),"created_at":"\(stamp)","deprecated":\(random.below(20) == 0)}
    """
}

extension String {
    var initialCapital: String { prefix(1).uppercased() + dropFirst() }
    func replacingQuotes() -> String { self }
}

func generate(path: String, count: Int, lines: Bool) {
    guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
    defer { fclose(file) }
    var random = SplitMix64(state: 42)
    if !lines { fputs("[\n", file) }
    for id in 1...count {
        var line = flatRecord(id, &random)
        if !lines, id < count { line += "," }
        line += "\n"
        fputs(line, file)
    }
    if !lines { fputs("]\n", file) }
}

/// The flat workload's mapping: every column of issue 5's flat record, with its type.
let podMapping = """
seeder: 1
entities:
  Pod:
    attributes:
      id: integer
      name: string
      summary: string
      homepage: url
      license: string
      version: string
      downloads: integer
      rating: real
      createdAt: date
      deprecated: boolean
"""

func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    print("usage: seeder-json-bench generate FILE N [--lines] | read FILE [--lines] [--key-path a.b] [--repeat K]")
    exit(64)
}
let lines = arguments.contains("--lines")
switch arguments[0] {
case "generate":
    generate(path: arguments[1], count: Int(arguments[2])!, lines: lines)
case "read", "map":
    var keyPath: [String] = []
    if let index = arguments.firstIndex(of: "--key-path") { keyPath = arguments[index + 1].split(separator: ".").map(String.init) }
    var repeats = 3
    if let index = arguments.firstIndex(of: "--repeat") { repeats = Int(arguments[index + 1])! }
    var times: [Double] = []
    var records = 0
    var bytes = 0
    for _ in 0..<repeats {
        let source = try FileByteSource(path: arguments[1])
        bytes = source.size
        let reader = JSONReader(source: source, format: lines ? .jsonLines : .json, keyPath: keyPath)
        records = 0
        let sink = DiagnosticSink(maxErrors: 100)
        let mapper = arguments[0] == "map" ? Mapper(mapping: MappingLoader().load(yaml: podMapping, file: "pods.yaml", diagnostics: sink)!) : nil
        let start = now()
        try reader.forEachItem { item in
            guard case let .record(value) = item else { return }
            if let mapper {
                records += mapper.records(from: value, entity: 0, file: "pods.json", diagnostics: sink).count
            } else {
                records += 1
            }
        }
        if sink.hasErrors { print(sink.diagnostics.prefix(3)) }
        times.append(now() - start)
    }
    let median = times.sorted()[times.count / 2]
    let megabytes = Double(bytes) / 1_000_000
    print("records: \(records)  bytes: \(bytes)  median: \(String(format: "%.3f", median)) s  " +
          "throughput: \(Int(megabytes / median)) MB/s  peak RSS: \(Int(peakRSSMegabytes())) MB")
default:
    print("unknown command \(arguments[0])")
    exit(64)
}
