import GRDB

// Replaced by the Room schema reader when it lands.
struct RoomSchema {
    static func parse(_ bytes: [UInt8], path: String) throws -> RoomSchema {
        throw RoomSchemaError(description: "Room's schema is not read yet")
    }
    func createDatabase(_ db: Database) throws {}
}
struct RoomSchemaError: Error { var description: String }
