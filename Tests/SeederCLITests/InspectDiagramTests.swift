import Foundation
import GRDB
import SeederTestSupport
import Testing

/// `seeder inspect SEED --format mermaid` (docs/commands.md, inspect): an `erDiagram` whose every
/// line is one the grammar below accepts, with every table of the seed, every column with its
/// declared type, and every reference, in each schema mode.
struct InspectDiagramTests {
    /// The lines seeder writes, as Mermaid's erDiagram grammar reads them.
    struct Diagram {
        var entities: [String: [(type: String, name: String, keys: [String])]] = [:]
        var references: [(target: String, table: String, label: String, line: String)] = []

        static let name = #""[^"%\\\r\n]+""#
        static let type = #"[A-Za-z_][A-Za-z0-9_()\[\]-]*"#

        init(parsing text: String) throws {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.last == "", "ends with a newline")
            lines.removeLast()
            #expect(lines.first == "erDiagram")
            var open: String?
            for line in lines.dropFirst() {
                if let entity = open {
                    if line == "    }" {
                        open = nil
                    } else if let match = line.wholeMatch(
                        of: try Regex("^        (\(Self.type)) (\(Self.type))((?: (?:PK|FK)(?:, (?:PK|FK))*)?)$"))
                    {
                        let keys = (match.output[3].substring.map(String.init) ?? "").split(separator: ",").map {
                            $0.trimmingCharacters(in: .whitespaces)
                        }
                        entities[entity, default: []].append(
                            (String(match.output[1].substring!), String(match.output[2].substring!), keys.filter { !$0.isEmpty }))
                    } else {
                        Issue.record("not an attribute line: '\(line)'")
                    }
                } else if let match = line.wholeMatch(of: try Regex("^    (\(Self.name)) \\{$")) {
                    let entity = String(match.output[1].substring!.dropFirst().dropLast())
                    #expect(entities[entity] == nil, "\(entity) declared twice")
                    entities[entity] = []
                    open = entity
                } else if let match = line.wholeMatch(
                    of: try Regex(#"^    ("# + Self.name + #") (\|\||\|o)(--|\.\.)(o\{|\|\|) ("# + Self.name + #") : "([^"]*)"$"#))
                {
                    references.append(
                        (
                            String(match.output[1].substring!.dropFirst().dropLast()),
                            String(match.output[5].substring!.dropFirst().dropLast()), String(match.output[6].substring!),
                            line
                        ))
                } else {
                    Issue.record("not a line of an erDiagram: '\(line)'")
                }
            }
            #expect(open == nil, "a block left open")
            for reference in references {
                #expect(
                    entities[reference.target] != nil && entities[reference.table] != nil, "\(reference.line) names an entity not drawn")
            }
        }
    }

    static let examples = ["tasklist", "catalog", "social", "pods", "tasklist-grdb", "tasklist-room", "catalog-coredata"]

    static func diagram(of example: String) async throws -> (Diagram, String, DatabaseQueue) {
        let scratch = try Workspace()
        let seed = scratch.path("\(example).sqlite")
        let built = try await seeder(["build", "mappings/\(example).yaml", "seeds/" + example.prefix { $0 != "-" }, "-o", seed, "--quiet"])
        #expect(built.status == 0, "\(built.stderr)")
        let run = try await seeder(["inspect", seed, "--format", "mermaid"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        return (try Diagram(parsing: run.stdout), run.stdout, try DatabaseQueue(path: seed))
    }

    /// Every table but seeder's metadata and FTS's shadow tables, with every column and its
    /// declared type; every declared foreign key.
    @Test(arguments: examples)
    func coversEveryTableColumnAndForeignKey(_ example: String) async throws {
        let (diagram, _, queue) = try await Self.diagram(of: example)
        try await queue.read { db in
            let virtual = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")
            let shadows = Set(virtual.flatMap { name in ["data", "idx", "content", "docsize", "config"].map { name + "_" + $0 } })
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            ).filter { !shadows.contains($0) && $0 != "seed_metadata" && $0 != "seed_source" }
            #expect(Set(diagram.entities.keys) == Set(tables))
            for table in tables {
                let columns = try Row.fetchAll(db, sql: "SELECT name, type, pk FROM pragma_table_info(?)", arguments: [table])
                let drawn = diagram.entities[table] ?? []
                #expect(drawn.map(\.name) == columns.map { $0[0] as String }, "\(table)'s columns")
                for (column, row) in zip(drawn, columns) {
                    let declared: String = row[1]
                    if !declared.isEmpty, !virtual.contains(table) { #expect(column.type == declared, "\(table).\(column.name)") }
                    #expect(column.keys.contains("PK") == ((row[2] as Int) > 0), "\(table).\(column.name) PK")
                }
                for key in try Row.fetchAll(db, sql: "SELECT \"table\", \"from\" FROM pragma_foreign_key_list(?)", arguments: [table]) {
                    let target: String = key[0]
                    #expect(diagram.references.contains { $0.target == target && $0.table == table }, "\(table) -> \(target)")
                    #expect(drawn.first { $0.name == key[1] as String }?.keys.contains("FK") == true)
                }
            }
        }
    }

    /// A generated schema declares no foreign keys: its references come from the mapping, each
    /// to-one and each side of a join table, NOT NULL ones drawn as exactly one.
    @Test func theReferencesOfAGeneratedSchema() async throws {
        let (tasklist, _, _) = try await Self.diagram(of: "tasklist")
        #expect(
            tasklist.references.map(\.line) == [
                #"    "user" |o--o{ "project" : "Project.user""#,
                #"    "project" |o--o{ "task" : "Task.project""#,
                #"    "user" |o--o{ "task" : "Task.assignedUser""#,
            ])
        let (catalog, _, _) = try await Self.diagram(of: "catalog")
        #expect(
            catalog.references.map(\.line) == [
                #"    "category" |o--o{ "product" : "Product.category""#,
                #"    "product" |o--o{ "image" : "Image.product""#,
                #"    "product" ||--o{ "product_related_products" : "Product.relatedProducts""#,
                #"    "product" ||--o{ "product_related_products" : "Product.relatedProducts""#,
                #"    "product_review" ||--o{ "product_review_products" : "ProductReview.products""#,
                #"    "product" ||--o{ "product_review_products" : "ProductReview.products""#,
            ])
        // A selector's columns may name a row of each entity it chooses: dotted.
        let (social, _, _) = try await Self.diagram(of: "social")
        #expect(
            social.references.filter { $0.label == "User.pinned" }.map(\.line).sorted() == [
                #"    "link" |o..o{ "user" : "User.pinned""#, #"    "photo" |o..o{ "user" : "User.pinned""#,
                #"    "video" |o..o{ "user" : "User.pinned""#,
            ])
        // A search table, to the table it indexes.
        let (pods, _, _) = try await Self.diagram(of: "pods")
        #expect(pods.references.map(\.line).contains(#"    "pod" ||--|| "pod_search" : "search (fts5)""#))
    }

    /// docs/commands.md shows the tasklist example's diagram as it is.
    @Test func theDocumentedDiagramIsTheExamples() async throws {
        let (_, text, _) = try await Self.diagram(of: "tasklist")
        let docs = try String(contentsOfFile: repository + "/docs/commands.md", encoding: .utf8)
        #expect(docs.contains("```mermaid\n" + text + "```\n"))
    }

    @Test func jsonAndAnotherFormatDoNotGo() async throws {
        let run = try await seeder(["inspect", "x.sqlite", "--json", "--format", "mermaid"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--json prints JSON; it cannot go with --format mermaid."))
    }
}
