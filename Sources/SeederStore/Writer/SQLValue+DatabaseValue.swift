import Foundation
import GRDB
import SeederCore
import SeederFiles

extension SQLValue {
    /// The value as GRDB binds it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case let .integer(value): return value.databaseValue
        case let .real(value): return value.databaseValue
        case let .text(value): return value.databaseValue
        case let .blob(bytes): return Data(bytes).databaseValue
        }
    }

    /// A value read back from SQLite.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case let .int64(integer): self = .integer(integer)
        case let .double(double): self = .real(double)
        case let .string(string): self = .text(string)
        case let .blob(data): self = .blob(Array(data))
        }
    }
}
