import CSQLite3
import Foundation
import SeedInstaller

// What an app does at its first launch: install the seed its bundle holds as its working copy
// (docs/guides/updating-an-installed-seed.md), then read it. Here: print each table's rows.
guard let seed = Bundle.module.url(forResource: "tasklist", withExtension: "sqlite") else {
    FileHandle.standardError.write(Data("the bundle has no tasklist.sqlite\n".utf8))
    exit(1)
}
let store = FileManager.default.temporaryDirectory.appending(path: "SeedApp-\(getpid())")
try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
let workingCopy = store.appending(path: "tasklist.sqlite").path
_ = try SeedInstaller(seed: seed.path, workingCopy: workingCopy).install()

/// The first column of each row `sql` gives, as text.
func rows(_ sql: String, in db: OpaquePointer?) -> [String] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
    defer { sqlite3_finalize(statement) }
    var values: [String] = []
    while sqlite3_step(statement) == SQLITE_ROW { values.append(String(cString: sqlite3_column_text(statement, 0))) }
    return values
}

var db: OpaquePointer?
guard sqlite3_open_v2(workingCopy, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { exit(1) }
let tables = rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'seed\\_%' ESCAPE '\\' ORDER BY name", in: db)
for table in tables {
    print("\(table): \(rows("SELECT count(*) FROM \"\(table)\"", in: db).first ?? "?") rows")
}
sqlite3_close(db)
try FileManager.default.removeItem(at: store)
