import Foundation
import GRDB
import SeederCore
import SeederFiles
import SeederTestSupport
import Testing

@testable import SeederStore

/// What the mapping names in the app's schema (docs/mapping.md, Fitting the app's own schema):
/// a `column:` or `table:` the mapping gives is the one, or an error at it, never a silent
/// fallback to another name; among several foreign keys, the one whose column the names reach
/// first.
struct TemplateNamingTests {
    static let orders = """
        CREATE TABLE user (id INTEGER PRIMARY KEY, server_id TEXT NOT NULL UNIQUE, nick TEXT, nickname TEXT);
        CREATE TABLE "order" (id INTEGER PRIMARY KEY, server_id TEXT NOT NULL UNIQUE,
                              buyerId INTEGER REFERENCES user(id), purchaserId INTEGER REFERENCES user(id));
        """

    static func mapping(buyer: String, nick: String = "nick: string") -> String {
        """
        seeder: 1
        schema: { template: app.sqlite }
        entities:
          User:
            identity: serverId
            attributes: { serverId: string, \(nick) }
          Order:
            identity: serverId
            attributes: { serverId: string }
            relationships:
              buyer: \(buyer)
        sources:
          - { path: users.json, entity: User }
          - { path: orders.json, entity: Order }
        """
    }

    static func workspace(_ mapping: String, sql: String = orders) throws -> Workspace {
        let workspace = try TemplateSchemaErrorTests.workspace(mapping, sql: sql)
        try FileManager.default.removeItem(atPath: workspace.path("dumps/authors.json"))
        try workspace.write("dumps/users.json", #"[{"serverId": "u1", "nick": "a"}, {"serverId": "u2", "nick": "b"}]"#)
        try workspace.write("dumps/orders.json", #"[{"serverId": "o1", "buyer": "u2"}]"#)
        return workspace
    }

    /// `column: purchaserId` picks that key although `buyerId`, declared first, matches the
    /// relationship's name.
    @Test func aToOnesNamedColumnIsTheKeyItFills() throws {
        let workspace = try Self.workspace(Self.mapping(buyer: "{ to: User, column: purchaserId }"))
        let report = workspace.build()
        #expect(report.messages(workspace) == [])
        #expect(try workspace.rows(#"SELECT buyerId, purchaserId FROM "order""#) == ["[buyerId:NULL purchaserId:2]"])
    }

    /// A `column:` naming a column that declares no key: it holds the target's identity, though
    /// the table has a key to the target's table elsewhere.
    @Test func aNamedColumnWithoutAKeyHoldsTheIdentity() throws {
        let sql = Self.orders + "ALTER TABLE \"order\" ADD COLUMN legacyBuyer TEXT;"
        let workspace = try Self.workspace(Self.mapping(buyer: "{ to: User, column: legacyBuyer }"), sql: sql)
        #expect(workspace.build().messages(workspace) == [])
        #expect(
            try workspace.rows(#"SELECT buyerId, purchaserId, legacyBuyer FROM "order""#) == [
                #"[buyerId:NULL purchaserId:NULL legacyBuyer:"u2"]"#
            ])
    }

    /// In a Core Data store too, a to-one's `column:` is the one, not `Z<NAME>`.
    @Test func aCoreDataToOnesNamedColumnIsTheOne() throws {
        let workspace = try Workspace.withDumps()
        try CoreDataStoreTests.makeStore(at: workspace.path("Store.sqlite"))
        try workspace.write(
            "mapping.yaml",
            CoreDataStoreTests.mapping().replacingOccurrences(of: "author: { to: Author }", with: "author: { to: Author, column: ZAUTHR }"))
        try workspace.write("dumps/authors.json", "[]")
        try workspace.write("dumps/posts.json", "[]")
        TemplateSchemaErrorTests.expectErrors(
            workspace,
            [
                "mapping.yaml:19:37: error: table 'ZPOST' of the app's schema has no column 'ZAUTHR' for relationship 'author' "
                    + "(did you mean 'ZAUTHOR'?); correct its 'column:'; its columns: 'Z_PK', 'Z_ENT', 'Z_OPT', 'ZAUTHOR', "
                    + "'ZPUBLISHEDAT', 'ZRATING', 'ZREMOTEID' and 'ZTITLE'"
            ])
    }

    /// A `column:` that names no column is an error at it, for a to-one and for an attribute,
    /// though another column would match the name.
    @Test func aNamedColumnThatIsNotThereIsAnErrorAtIt() throws {
        let workspace = try Self.workspace(
            Self.mapping(buyer: "{ to: User, column: buyerID2 }", nick: "nick: { type: string, column: nickName2 }"))
        TemplateSchemaErrorTests.expectErrors(
            workspace,
            [
                "mapping.yaml:6:67: error: table 'user' of the app's schema has no column 'nickName2' for attribute 'nick' "
                    + "(did you mean 'nickname'?); correct its 'column:'; its columns: 'id', 'server_id', 'nick' and 'nickname'",
                "mapping.yaml:11:34: error: table 'order' of the app's schema has no column 'buyerID2' for relationship 'buyer' "
                    + "(did you mean 'buyerId'?); correct its 'column:'; its columns: 'id', 'server_id', 'buyerId' and 'purchaserId'",
            ])
    }

    /// A Core Data many-to-many's `table:` naming a table that is not its join table is an
    /// error at it (it was a crash), and a scalar `schema:` says how to write it.
    @Test func aCoreDataJoinTableNamedWronglyIsAnErrorAtIt() throws {
        let workspace = try Workspace.withDumps()
        try CoreDataStoreTests.makeStore(at: workspace.path("Store.sqlite"))
        try workspace.write(
            "mapping.yaml",
            CoreDataStoreTests.mapping().replacingOccurrences(
                of: "tags: { to: Tag, many: true }", with: "tags: { to: Tag, many: true, table: Z_METADATA }"))
        try workspace.write("dumps/authors.json", "[]")
        try workspace.write("dumps/posts.json", "[]")
        TemplateSchemaErrorTests.expectErrors(
            workspace,
            [
                "mapping.yaml:20:43: error: 'Z_METADATA', which 'table:' names, is no join table of the many-to-many 'Post.tags' "
                    + "in the Core Data store (it has no column 'Z_3TAGS' beside one of the owner's); its join tables: 'Z_2TAGS'"
            ])
        try workspace.write(
            "mapping.yaml", CoreDataStoreTests.mapping().replacingOccurrences(of: "{ template: Store.sqlite }", with: "Store.sqlite"))
        TemplateSchemaErrorTests.expectErrors(
            workspace,
            [
                "mapping.yaml:2:9: error: 'schema' is a mapping: 'schema: { template: Store.sqlite }' (an empty database the app made) "
                    + "or 'schema: { room: Store.sqlite }'"
            ])
    }

    /// A join table whose key lists the target first: `diff` still names a link owner first.
    @Test func diffNamesALinkOwnerFirstWhateverTheAppsKeyOrder() throws {
        let sql = """
            CREATE TABLE recipe (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE ingredient (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE recipe_ingredients (ingredientId INTEGER NOT NULL REFERENCES ingredient(id),
                                             recipeId INTEGER NOT NULL REFERENCES recipe(id), PRIMARY KEY (ingredientId, recipeId));
            """
        let mapping = """
            seeder: 1
            schema: { template: app.sqlite }
            entities:
              Recipe:
                attributes: { id: integer, name: string }
                relationships:
                  ingredients: { to: Ingredient, many: true }
              Ingredient:
                attributes: { id: integer, name: string }
            sources:
              - { path: recipes.json, entity: Recipe }
            """
        let workspace = try TemplateSchemaErrorTests.workspace(mapping, sql: sql)
        try FileManager.default.removeItem(atPath: workspace.path("dumps/authors.json"))
        try workspace.write("dumps/recipes.json", #"[{"id": 6, "name": "Dal", "ingredients": [{"id": 1, "name": "lentil"}]}]"#)
        #expect(workspace.build().messages(workspace) == [])
        try workspace.write(
            "dumps/recipes.json", #"[{"id": 6, "name": "Dal", "ingredients": [{"id": 1, "name": "lentil"}, {"id": 9, "name": "cumin"}]}]"#)
        #expect(workspace.build(output: "new.sqlite").messages(workspace) == [])
        var links: [String] = []
        _ = try SeedDiffer(old: workspace.path("seed.sqlite"), new: workspace.path("new.sqlite")).diff { table, change in
            if table.table == "recipe_ingredients" { links.append("\(change.kind) \(change.key)") }
        }
        #expect(links == ["added [6, 9]"])
    }
}
