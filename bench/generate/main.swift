import Foundation
import SeederCore

// seeder-bench: the benchmark datasets, the JSON reader measured alone, and a paged API to fetch.
//
//   seeder-bench generate flat N DIR [--variant]   DIR/flat.json and DIR/flat.ndjson: N flat records
//   seeder-bench generate graph N DIR [--variant]  DIR/users.json, DIR/task_list.json (the task list at scale)
//   seeder-bench generate graph-urls N DIR      graph's records, each id and reference a URL
//   seeder-bench regex N                        the regex engines `match:` could use, on N URLs
//   seeder-bench generate pages N DIR              DIR/characters/page-NNNNN.json, 100 characters a page
//   seeder-bench generate languages N DIR          DIR/species.json: N records of 30 descriptions, one a language
//   seeder-bench generate bigmapping N DIR         DIR/mapping.yaml of N entities, ~30 relationships each, DIR/dumps/
//   seeder-bench generate service N DIR            DIR/<kind>/<id>.json: ~N one-record files of 8 kinds linked by {name, url}
//   seeder-bench read FILE [--lines] [--key-path a.b] [--repeat K]
//   seeder-bench map FILE [--lines] [--repeat K]   read and map with the flat Pod mapping
//   seeder-bench install SEED COPY [--changeset FILE]... [--on-conflict seed|app|abort]
//   seeder-bench serve [--pages P] [--records R] [--port N]   a paged JSON API on 127.0.0.1, for `seeder fetch`
//
// Every dataset comes from a fixed seed: the same N gives the same bytes. `--variant` writes what
// a later release of flat or graph would ship: 1% of the records changed, 0.1% removed, 0.2%
// added (for `diff`); graph's also moves links: tasks to other assignees, projects to other owners.
// `read` and `map` print records, MB/s (median of K runs) and the peak resident set size.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    mutating func word() -> String { words[below(words.count)] }
    mutating func phrase(_ count: Int) -> String { (0..<count).map { _ in word() }.joined(separator: " ") }
    /// `2019-03-07T12:34:56Z`.
    mutating func timestamp() -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "20\(10 + below(15))-\(two(1 + below(12)))-\(two(1 + below(28)))T\(10 + below(14)):\(10 + below(50)):\(10 + below(50))Z"
    }
}

let words = [
    "swift", "sqlite", "json", "seed", "mapper", "network", "cache", "image", "layout", "async",
    "parser", "kit", "core", "view", "data", "sync", "store", "model", "fast", "tiny",
]
let licenses = ["MIT", "Apache-2.0", "BSD-3-Clause", "ISC", "MPL-2.0"]

extension String {
    var initialCapital: String { prefix(1).uppercased() + dropFirst() }
}

/// Buffered writes to a new file.
final class Output {
    private let file: UnsafeMutablePointer<FILE>
    init(_ path: String) {
        guard let file = fopen(path, "w") else { fatalError("cannot write \(path)") }
        self.file = file
    }
    func write(_ text: String) { fputs(text, file) }
    deinit { fclose(file) }
}

// MARK: flat

/// One flat record (~266 bytes): the columns of the flat workload.
func flatRecord(_ id: Int, _ random: inout SplitMix64, revision: Int = 0) -> String {
    let name = random.word() + random.word().initialCapital + "\(id)"
    let stamp = random.timestamp()
    let summary = random.phrase(4 + random.below(8))
    let rating = Double(random.below(5000)) / 1000
    let version = "\(random.below(10) + revision).\(random.below(20)).\(random.below(50))"
    return """
        {"id":\(id),"name":"\(name)","summary":"\(summary)","homepage":"https://example.com/\(name)","license":"\(licenses[random.below(licenses.count)])","version":"\(version)","downloads":\(random.below(10_000_000)),"rating":\(rating),"created_at":"\(stamp)","deprecated":\(random.below(20) == 0)}
        """
}

/// The flat records as a JSON array and as JSON Lines. The variant changes every 100th record
/// (a new version), drops every 1000th and adds 0.2% after the last id.
func generateFlat(count: Int, directory: String, variant: Bool) {
    let array = Output(directory + "/flat.json"), lines = Output(directory + "/flat.ndjson")
    var random = SplitMix64(state: 42)
    var first = true
    func emit(_ record: String) {
        array.write((first ? "[\n" : ",\n") + record)
        lines.write(record + "\n")
        first = false
    }
    for id in 1...count {
        // Each record draws from its own stream, so the variant's other records stay the same.
        random = SplitMix64(state: 42 &+ UInt64(id) &* 0x9E37_79B9)
        let record = flatRecord(id, &random, revision: variant && id % 100 == 37 ? 1 : 0)
        if variant, id % 1000 == 500 { continue }
        emit(record)
    }
    if variant {
        for id in (count + 1)...(count + max(1, count / 500)) {
            random = SplitMix64(state: 42 &+ UInt64(id) &* 0x9E37_79B9)
            emit(flatRecord(id, &random))
        }
    }
    array.write(first ? "[]\n" : "\n]\n")
}

// MARK: graph

/// What a later release of the graph workload changes (`--variant`), by id, with flat's rule:
/// 1% of users, projects and tasks changed in a field, 0.1% removed, 0.2% added after the last
/// id. Half of the changed tasks and projects are also linked to another user. A removed user's
/// tasks and projects go to the next user; a removed project takes its tasks with it.
struct GraphRelease {
    let variant: Bool
    let userCount: Int, projectCount: Int
    /// graph-urls: each record's id, and each reference, is its URL (`GraphURL`).
    var urls = false

    /// The 1% changed in a field.
    func changes(_ id: Int) -> Bool { variant && id % 100 == 37 }
    /// Half of the changed, which also name another user.
    func relinks(_ id: Int) -> Bool { variant && id % 200 == 37 }
    /// The 0.1% removed; at least one once there are two, so that a small N removes a user too.
    func removes(_ id: Int, of count: Int) -> Bool {
        variant && count > 1 && (id % 1000 == 500 || (count < 1000 && id == (count + 1) / 2))
    }
    /// The 0.2% added, numbered after the last of `count`.
    func added(after count: Int) -> [Int] { variant ? Array((count + 1)...(count + max(1, count / 500))) : [] }
    /// Who `user` is in this release: a removed user's links go to the user after it (before
    /// it, for the last).
    func survivor(_ user: Int) -> Int {
        guard removes(user, of: userCount) else { return user }
        return user < userCount ? user + 1 : user - 1
    }
    /// The users a changed task is given: the added ones, so that new links reach new records.
    var newUsers: [Int] { added(after: userCount) }

    func user(_ id: Int) -> String {
        let domain = changes(id) ? "example.net" : "example.com"
        let key = urls ? "\"url\":\"\(GraphURL.users)\(id)/\"" : "\"id\":\(id)"
        return "{\(key),\"name\":\"User \(id)\",\"email\":\"user\(id)@\(domain)\"}"
    }
}

/// graph-urls: records that name themselves and each other by URL, as REST services do
/// (SWAPI's `"url"` and `"homeworld"`), read with `match:` (bench/mappings/graph-urls.yaml).
enum GraphURL {
    static let users = "https://api.example.com/v1/users/"
    static let projects = "https://api.example.com/v1/projects/"
    static let tasks = "https://api.example.com/v1/tasks/"
}

/// One task of the graph workload, as drawn before a release changes it.
struct GraphTask {
    var id: Int, name: String, assignee: Int, dueAt: String, completed: Bool

    /// Ten tasks' fields in the order the base workload has always drawn them.
    init(id: Int, userCount: Int, _ random: inout SplitMix64) {
        self.id = id
        completed = random.below(3) == 0
        name = random.phrase(3 + random.below(4))
        assignee = 1 + random.below(userCount)
        dueAt = random.timestamp()
    }

    func json(urls: Bool) -> String {
        guard urls else {
            return "{\"id\":\(id),\"name\":\"\(name)\",\"assigned_user_id\":\(assignee),\"due_at\":\"\(dueAt)\",\"completed\":\(completed)}"
        }
        return "{\"url\":\"\(GraphURL.tasks)\(id)/\",\"name\":\"\(name)\",\"assigned_user\":\"\(GraphURL.users)\(assignee)/\","
            + "\"due_at\":\"\(dueAt)\",\"completed\":\(completed)}"
    }
}

/// The task list at scale: N/50 users; N/10 projects, each embedding its owner (repeated across
/// projects, so merging matters) and 10 tasks that name their assignee by id. The base records
/// draw from one stream in order, and the variant draws them all before changing any, so that
/// what it leaves alone is what the base wrote.
func generateGraph(count: Int, directory: String, variant: Bool, urls: Bool = false) {
    var random = SplitMix64(state: 7)
    let userCount = max(1, count / 50), projectCount = max(1, count / 10)
    let release = GraphRelease(variant: variant, userCount: userCount, projectCount: projectCount, urls: urls)
    let userIDs = (1...userCount).filter { !release.removes($0, of: userCount) } + release.newUsers
    let users = Output(directory + "/users.json")
    users.write("[\n" + userIDs.map(release.user).joined(separator: ",\n") + "\n]\n")
    let projects = Output(directory + "/task_list.json")
    projects.write("[")
    var first = true
    func emit(id: Int, description: String, owner: Int, tasks: [GraphTask]) {
        let key = urls ? "\"url\":\"\(GraphURL.projects)\(id)/\"" : "\"id\":\(id)"
        let project =
            "{\"project\":{\(key),\"name\":\"Project \(id)\",\"description\":\"\(description)\","
            + "\"user\":\(release.user(owner)),\"tasks\":[\n  " + tasks.map { $0.json(urls: urls) }.joined(separator: ",\n  ") + "]}}"
        projects.write((first ? "\n" : ",\n") + project)
        first = false
    }
    var taskID = 0
    for id in 1...projectCount {
        var tasks: [GraphTask] = []
        for _ in 0..<10 {
            taskID += 1
            tasks.append(GraphTask(id: taskID, userCount: userCount, &random))
        }
        var description = random.phrase(6 + random.below(6))
        var owner = 1 + random.below(userCount)
        if release.removes(id, of: projectCount) { continue }
        for index in tasks.indices {
            let task = tasks[index].id
            tasks[index].assignee = release.survivor(tasks[index].assignee)
            if release.changes(task) { tasks[index].completed.toggle() }
            if release.relinks(task) { tasks[index].assignee = release.newUsers[task / 200 % release.newUsers.count] }
        }
        if release.changes(id) { description += " revised" }
        if release.relinks(id) { owner = owner % userCount + 1 }
        emit(id: id, description: description, owner: release.survivor(owner), tasks: tasks)
    }
    // New projects, each with ten new tasks, drawn from streams of their own (by id), so that
    // they do not move the base's draws.
    for id in release.added(after: projectCount) {
        random = SplitMix64(state: 7 &+ UInt64(id) &* 0x9E37_79B9)
        let tasks = (0..<10).map { _ in
            taskID += 1
            var task = GraphTask(id: taskID, userCount: userIDs.count, &random)
            task.assignee = userIDs[task.assignee - 1]
            return task
        }
        emit(id: id, description: random.phrase(6 + random.below(6)), owner: userIDs[random.below(userIDs.count)], tasks: tasks)
    }
    projects.write(first ? "]\n" : "\n]\n")
}

// MARK: regex

/// The engines `match:` could have used, on N SWAPI-style URLs with `/(\d+)/?$` (bench/README.md,
/// `match`: the regex engine): each engine's seconds for taking every id out, one line each.
func compareRegexEngines(count: Int) {
    let pattern = #"/(\d+)/?$"#
    let urls = (0..<count).map { "https://swapi.dev/api/planets/\($0 % 100_000)/" }
    func time(_ engine: String, _ idLength: (String) -> Int) {
        let start = now()
        var total = 0
        for url in urls { total &+= idLength(url) }
        print("\(engine): \(String(format: "%.3f", now() - start)) s (\(total) id bytes)")
    }
    let swiftRegex = try! Regex(pattern)
    time("Swift Regex") { url in (try? swiftRegex.firstMatch(in: url))?.output[1].substring?.utf8.count ?? 0 }
    let foundation = try! NSRegularExpression(pattern: pattern)
    time("NSRegularExpression") { url in
        let text = url as NSString
        guard let found = foundation.firstMatch(in: url, range: NSRange(location: 0, length: text.length)) else { return 0 }
        return text.substring(with: found.range(at: 1)).utf8.count
    }
    let pcre2 = try! TextPattern(pattern)
    time("PCRE2 (TextPattern)") { url in pcre2.search(url)?.utf8.count ?? 0 }
}

// MARK: pages

/// N characters in Marvel-style pages of 100, one file per page, with a nested thumbnail and
/// an array of urls each.
func generatePages(count: Int, directory: String) {
    var random = SplitMix64(state: 11)
    try? FileManager.default.createDirectory(atPath: directory + "/characters", withIntermediateDirectories: true)
    let pageCount = (count + 99) / 100
    for page in 0..<pageCount {
        let ids = (page * 100 + 1)...min(count, page * 100 + 100)
        let results = ids.map { id -> String in
            let urls = (0..<(1 + random.below(3))).map { index in
                "{\"type\":\"\(["detail", "wiki", "comiclink"][index])\",\"url\":\"http://marvel.example.com/characters/\(id)/\(random.word())?utm_campaign=apiRef\"}"
            }
            let hex = String(random.next(), radix: 16)
            return "{\"id\":\(id),\"name\":\"\(random.word().initialCapital) \(random.word().initialCapital) \(id)\","
                + "\"description\":\"\(random.phrase(random.below(12)))\",\"modified\":\"\(random.timestamp())\","
                + "\"thumbnail\":{\"path\":\"http://i.example.com/u/prod/marvel/i/mg/\(hex)\",\"extension\":\"jpg\"},"
                + "\"resourceURI\":\"http://gateway.example.com/v1/public/characters/\(id)\","
                + "\"comics\":{\"available\":\(random.below(500)),\"collectionURI\":\"http://gateway.example.com/v1/public/characters/\(id)/comics\"},"
                + "\"urls\":[\(urls.joined(separator: ","))]}"
        }
        let name = String(format: "%@/characters/page-%05d.json", directory, page + 1)
        Output(name).write(
            "{\"code\":200,\"status\":\"Ok\",\"data\":{\"offset\":\(page * 100),\"limit\":100,\"total\":\(count),"
                + "\"count\":\(ids.count),\"results\":[\n" + results.joined(separator: ",\n") + "\n]}}\n")
    }
}

/// The flat workload's mapping: every column of the flat record, with its type.
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
guard arguments.count >= 2 || arguments.first == "serve" else {
    print(
        "usage: seeder-bench generate flat|graph|graph-urls|pages|languages|bigmapping|service N DIR [--variant] | read FILE [--lines] [--key-path a.b] [--repeat K]"
            + " | map FILE | regex N | install SEED COPY [--changeset FILE]... [--on-conflict seed|app|abort] | serve [--pages P] [--records R] [--port N]"
    )
    exit(64)
}
let lines = arguments.contains("--lines")
switch arguments[0] {
case "generate":
    guard arguments.count >= 4, let count = Int(arguments[2]), count > 0 else { print("generate WORKLOAD N DIR"); exit(64) }
    let directory = arguments[3]
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    switch arguments[1] {
    case "flat": generateFlat(count: count, directory: directory, variant: arguments.contains("--variant"))
    case "graph": generateGraph(count: count, directory: directory, variant: arguments.contains("--variant"))
    case "graph-urls": generateGraph(count: count, directory: directory, variant: arguments.contains("--variant"), urls: true)
    case "pages": generatePages(count: count, directory: directory)
    case "languages": generateLanguages(count: count, directory: directory)
    case "bigmapping": try generateBigMapping(count: count, directory: directory)
    case "service": try generateService(count: count, directory: directory)
    default: print("unknown workload \(arguments[1])"); exit(64)
    }
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
        let mapper =
            arguments[0] == "map" ? Mapper(mapping: MappingLoader().load(yaml: podMapping, file: "pods.yaml", diagnostics: sink)!) : nil
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
    print(
        "records: \(records)  bytes: \(bytes)  median: \(String(format: "%.3f", median)) s  "
            + "throughput: \(Int(megabytes / median)) MB/s  peak RSS: \(Int(peakRSSMegabytes())) MB")
case "regex":
    guard let count = Int(arguments[1]), count > 0 else { print("regex N"); exit(64) }
    compareRegexEngines(count: count)
case "install":
    exit(runInstall(arguments))
case "serve":
    runServe(arguments)
default:
    print("unknown command \(arguments[0])")
    exit(64)
}
